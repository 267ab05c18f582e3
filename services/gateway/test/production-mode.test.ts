import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './helpers/gateway.js';
import { startStubUpstream, type StubUpstream } from './helpers/stub-upstream.js';

let master: StubUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  master = await startStubUpstream('master-data');
  gateway = await startGateway({ NODE_ENV: 'production', MASTER_DATA_URL: master.url });
});

afterAll(async () => {
  await gateway?.close();
  await master?.close();
});

describe('production mode', () => {
  it('adds no CORS headers (cross-origin access is open only in development)', async () => {
    const res = await fetch(`${gateway.url}/api/orgs/tree`, {
      headers: { origin: 'http://evil.example', authorization: 'Bearer t' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
