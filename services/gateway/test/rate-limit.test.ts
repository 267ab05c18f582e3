import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, startGateway, type RunningGateway } from './helpers/gateway.js';
import { startStubUpstream, type StubUpstream } from './helpers/stub-upstream.js';

let auth: StubUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  auth = await startStubUpstream('auth-platform');
  gateway = await startGateway({ AUTH_PLATFORM_URL: auth.url, LOGIN_RATE_LIMIT: '3', LOGIN_RATE_WINDOW_MS: '60000' });
});

afterAll(async () => {
  await gateway?.close();
  await auth?.close();
});

const login = () =>
  fetch(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginId: 'admin', password: 'wrong' }),
  });

describe('login rate limit', () => {
  it('lets LOGIN_RATE_LIMIT attempts through, then answers 429 with an E400 envelope without calling auth-platform', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await login()).status);
    expect(statuses).toEqual([200, 200, 200]);
    expect(auth.seen.filter((r) => r.url === '/api/auth/login')).toHaveLength(3);

    const limited = await login();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await readJson(limited)).toEqual({
      success: false,
      code: 'E400',
      message: 'Too many login attempts',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(auth.seen.filter((r) => r.url === '/api/auth/login')).toHaveLength(3);
  });

  it('does not count or limit the other auth calls', async () => {
    const res = await fetch(`${gateway.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"refreshToken":"x"}',
    });
    expect(res.status).toBe(200);
  });
});
