import { randomBytes } from 'node:crypto';
import { buildApp } from '@csp/auth-platform/app';
import { TEST_ADMIN_PASSWORD } from '@csp/db/testing';
import { signAccessToken } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, startGateway, type RunningGateway } from './helpers/gateway.js';
import { closedPortUrl } from './helpers/stub-upstream.js';

type AuthApp = Awaited<ReturnType<typeof buildApp>>;

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `csp-gw-ops-auth-${randomBytes(5).toString('hex')}`;
let auth: TestContext<AuthApp>;
let gateway: RunningGateway;

beforeAll(async () => {
  auth = await createTestContext({ buildApp, serviceName: 'auth-platform' });
  await auth.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = auth.app.server.address() as AddressInfo;
  const down = await closedPortUrl();
  gateway = await startGateway({
    AUTH_PLATFORM_URL: `http://127.0.0.1:${port}`,
    MASTER_DATA_URL: down,
    INTAKE_URL: down,
    LEDGER_SETTLEMENT_URL: down,
    PAYMENT_TAX_URL: down,
    ANALYTICS_URL: down,
    REDIS_URL,
    BATCH_PREFIX: PREFIX,
  });
});

afterAll(async () => {
  await gateway?.close();
  await auth?.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

async function agentToken(): Promise<string> {
  const { rows } = await auth.pool.query<{ user_id: number }>(
    `INSERT INTO users (login_id, password, user_name, status) VALUES ('ops_agent', '!', 'ops agent', 'ACTIVE') RETURNING user_id`,
  );
  const userId = Number(rows[0]!.user_id);
  await auth.pool.query(`INSERT INTO user_role (user_id, role_id) SELECT $1, role_id FROM role WHERE role_code = 'AGENT'`, [userId]);
  return signAccessToken(auth.app, { userId, loginId: 'ops_agent', userName: 'ops agent', roleCodes: ['AGENT'], agentId: null });
}

describe('/ops/queues with the real auth-platform', () => {
  it('is 401 without a login, 403 for an AGENT and the dashboard for the SUPER_ADMIN logged in through the gateway', async () => {
    expect((await fetch(`${gateway.url}/ops/queues`)).status).toBe(401);

    const agent = await agentToken();
    const agentPage = await fetch(`${gateway.url}/ops/queues`, { headers: { authorization: `Bearer ${agent}` } });
    expect(agentPage.status).toBe(403);
    expect((await fetch(`${gateway.url}/ops/session`, { method: 'POST', headers: { authorization: `Bearer ${agent}` } })).status).toBe(403);

    const login = await fetch(`${gateway.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ loginId: 'admin', password: TEST_ADMIN_PASSWORD }),
    });
    const token = (await readJson(login)).data.accessToken as string;
    const session = await fetch(`${gateway.url}/ops/session`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(session.status).toBe(200);
    const cookie = session.headers.get('set-cookie')!.split(';', 1)[0]!;
    const page = await fetch(`${gateway.url}/ops/queues`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<base href="/ops/queues/" />');
    const queues = await readJson(await fetch(`${gateway.url}/ops/queues/api/queues`, { headers: { cookie } }));
    expect(queues.queues).toHaveLength(13);
  });
});
