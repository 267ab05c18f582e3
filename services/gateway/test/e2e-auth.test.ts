import { buildApp } from '@csp/auth-platform/app';
import { TEST_ADMIN_PASSWORD } from '@csp/db/testing';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, startGateway, type RunningGateway } from './helpers/gateway.js';
import { closedPortUrl } from './helpers/stub-upstream.js';

type AuthApp = Awaited<ReturnType<typeof buildApp>>;

let auth: TestContext<AuthApp>;
let gateway: RunningGateway;

beforeAll(async () => {
  // The real auth-platform on a fresh migrated database, listening on a random port, the gateway in front.
  auth = await createTestContext({ buildApp, serviceName: 'auth-platform' });
  await auth.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = auth.app.server.address() as AddressInfo;
  // Every other upstream points at a closed port, whatever happens to run on this machine.
  const down = await closedPortUrl();
  gateway = await startGateway({
    AUTH_PLATFORM_URL: `http://127.0.0.1:${port}`,
    MASTER_DATA_URL: down,
    INTAKE_URL: down,
    LEDGER_SETTLEMENT_URL: down,
    PAYMENT_TAX_URL: down,
    ANALYTICS_URL: down,
  });
});

afterAll(async () => {
  await gateway?.close();
  await auth?.close();
});

async function loginThroughGateway(password: string) {
  return fetch(`${gateway.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'e2e-login-1' },
    body: JSON.stringify({ loginId: 'admin', password }),
  });
}

describe('gateway in front of the real auth-platform', () => {
  it('logs the admin in through the gateway, then /api/auth/me returns the admin', async () => {
    const login = await loginThroughGateway(TEST_ADMIN_PASSWORD);
    expect(login.status).toBe(200);
    expect(login.headers.get('x-request-id')).toBe('e2e-login-1');
    const loginBody = await readJson(login);
    expect(loginBody.success).toBe(true);
    expect(loginBody.code).toBe('0000');
    expect(loginBody.data.tokenType).toBe('Bearer');
    expect(typeof loginBody.data.accessToken).toBe('string');

    const me = await fetch(`${gateway.url}/api/auth/me`, {
      headers: { authorization: `Bearer ${loginBody.data.accessToken}` },
    });
    expect(me.status).toBe(200);
    const meBody = await readJson(me);
    expect(meBody.success).toBe(true);
    expect(meBody.data).toMatchObject({ loginId: 'admin', roleCodes: ['SUPER_ADMIN'] });
    expect(typeof meBody.data.userId).toBe('number');
  });

  it('passes the service login failure (A003) through unchanged', async () => {
    const res = await loginThroughGateway('definitely-wrong');
    expect(res.status).toBe(401);
    expect(await readJson(res)).toMatchObject({ success: false, code: 'A003' });
  });

  it('lets auth-platform reject a forged token (the gateway only checks that one is present)', async () => {
    const res = await fetch(`${gateway.url}/api/menus/my`, { headers: { authorization: 'Bearer not-a-jwt' } });
    expect(res.status).toBe(401);
    expect((await readJson(res)).code).toBe('E401');
  });

  it('merges the resource metadata of every live service at /api/meta/resources', async () => {
    expect((await fetch(`${gateway.url}/api/meta/resources`)).status).toBe(401);
    const login = await readJson(await loginThroughGateway(TEST_ADMIN_PASSWORD));
    const res = await fetch(`${gateway.url}/api/meta/resources`, { headers: { authorization: `Bearer ${login.data.accessToken}` } });
    expect(res.status).toBe(200);
    const body = await readJson(res);
    expect(body.data.unavailable).toEqual(['master-data', 'intake', 'ledger-settlement', 'payment-tax', 'analytics']);
    const notices = body.data.resources.find((r: { path: string }) => r.path === '/api/notices');
    expect(notices).toMatchObject({ service: 'auth-platform', menu: expect.any(String), permissions: { list: { perm: 'READ' } } });
    const forged = await fetch(`${gateway.url}/api/meta/resources`, { headers: { authorization: 'Bearer not-a-jwt' } });
    expect(forged.status).toBe(401);
  });

  it('serves auth-platform paths in the merged OpenAPI document', async () => {
    const doc = await readJson(await fetch(`${gateway.url}/v3/api-docs`));
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/login', '/api/auth/me', '/api/menus/my']));
    expect(doc['x-services'].available).toEqual(['auth-platform']);
  });
});
