import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOpsAction } from '../src/ops-queues.js';
import { readJson, startGateway, type RunningGateway } from './helpers/gateway.js';
import { closedPortUrl } from './helpers/stub-upstream.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `csp-gw-ops-${randomBytes(5).toString('hex')}`;

/** auth-platform's `/api/auth/me` as the gateway sees it: one SUPER_ADMIN token, one AGENT token. */
const USERS: Record<string, { userId: number; loginId: string; roleCodes: string[] }> = {
  'super-token': { userId: 1, loginId: 'admin', roleCodes: ['SUPER_ADMIN'] },
  'agent-token': { userId: 9, loginId: 'agent_9', roleCodes: ['AGENT'] },
};

let auth: FastifyInstance;
let ledger: FastifyInstance;
let gateway: RunningGateway;
const recorded: Array<{ authorization: string | undefined; body: any }> = [];
let queue: Queue;

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  auth = Fastify();
  auth.get('/api/health', async () => ({ success: true }));
  auth.get('/api/auth/me', async (request, reply) => {
    const user = USERS[(request.headers.authorization ?? '').replace(/^Bearer /, '')];
    if (!user) return reply.code(401).send({ success: false, code: 'E401' });
    return { success: true, code: '0000', data: { ...user, userName: user.loginId, agentId: null } };
  });
  ledger = Fastify();
  ledger.get('/api/health', async () => ({ success: true }));
  ledger.post('/api/batch/settlement/ops-actions', async (request) => {
    recorded.push({ authorization: request.headers.authorization, body: request.body });
    return { success: true, code: '0000' };
  });
  const down = await closedPortUrl();
  gateway = await startGateway({
    AUTH_PLATFORM_URL: await listen(auth),
    LEDGER_SETTLEMENT_URL: await listen(ledger),
    MASTER_DATA_URL: down,
    INTAKE_URL: down,
    PAYMENT_TAX_URL: down,
    ANALYTICS_URL: down,
    REDIS_URL,
    BATCH_PREFIX: PREFIX,
  });
  queue = new Queue('settlement.calcMaintain', { connection: { url: REDIS_URL }, prefix: PREFIX });
});

afterAll(async () => {
  await queue?.close();
  await gateway?.close();
  await auth?.close();
  await ledger?.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${PREFIX}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function sessionCookie(): Promise<string> {
  const res = await fetch(`${gateway.url}/ops/session`, { method: 'POST', headers: bearer('super-token') });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';', 1)[0]!;
}

describe('/ops/queues (bull-board behind the gateway)', () => {
  it('answers 401 without a login and 403 for an AGENT, on the page, its API and the session call', async () => {
    for (const path of ['/ops/queues', '/ops/queues/api/queues']) {
      const anonymous = await fetch(`${gateway.url}${path}`);
      expect(anonymous.status, path).toBe(401);
      expect(await readJson(anonymous)).toMatchObject({ success: false, code: 'E401' });
      const forged = await fetch(`${gateway.url}${path}`, { headers: { cookie: 'csp_ops=forged' } });
      expect(forged.status, path).toBe(401);
      const agent = await fetch(`${gateway.url}${path}`, { headers: bearer('agent-token') });
      expect(agent.status, path).toBe(403);
      expect(await readJson(agent)).toMatchObject({ success: false, code: 'E403' });
    }
    expect((await fetch(`${gateway.url}/ops/session`, { method: 'POST' })).status).toBe(401);
    const agentSession = await fetch(`${gateway.url}/ops/session`, { method: 'POST', headers: bearer('agent-token') });
    expect(agentSession.status).toBe(403);
    expect(agentSession.headers.get('set-cookie')).toBeNull();
  });

  it('gives a SUPER_ADMIN an httpOnly cookie scoped to /ops, with which the browser gets the dashboard', async () => {
    const res = await fetch(`${gateway.url}/ops/session`, { method: 'POST', headers: bearer('super-token') });
    expect(res.status).toBe(200);
    expect((await readJson(res)).data).toEqual({ path: '/ops/queues', expiresInSeconds: 900 });
    expect(res.headers.get('set-cookie')).toBe('csp_ops=super-token; Path=/ops; HttpOnly; SameSite=Strict; Max-Age=900');

    const cookie = await sessionCookie();
    const page = await fetch(`${gateway.url}/ops/queues`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<base href="/ops/queues/" />');
    expect(html).toContain('src="static/js/');
    const asset = /src="(static\/js\/[^"]+\.js)"/.exec(html)![1]!;
    const script = await fetch(`${gateway.url}/ops/queues/${asset}`, { headers: { cookie } });
    expect(script.status).toBe(200);
    expect((await fetch(`${gateway.url}/ops/queues/${asset}`)).status).toBe(401);

    const api = await fetch(`${gateway.url}/ops/queues/api/queues`, { headers: { cookie } });
    expect(api.status).toBe(200);
    const names = ((await readJson(api)).queues as Array<{ name: string }>).map((q) => q.name).sort();
    expect(names).toHaveLength(13);
    expect(names).toContain('settlement.calcMaintain');
  });

  it('retries a failed job and cleans a state, and records both in the change log under the operator', async () => {
    await queue.add('calcMaintain', { n: 1 }, { jobId: 'broken-1', attempts: 1 });
    const worker = new Worker(
      'settlement.calcMaintain',
      async () => {
        throw new Error('boom');
      },
      { connection: { url: REDIS_URL }, prefix: PREFIX },
    );
    await new Promise<void>((resolve) => worker.once('failed', () => resolve()));
    await worker.close();

    const cookie = await sessionCookie();
    const retry = await fetch(`${gateway.url}/ops/queues/api/queues/settlement.calcMaintain/broken-1/retry`, {
      method: 'PUT',
      headers: { cookie },
    });
    expect(retry.status).toBeLessThan(300);
    expect(await (await queue.getJob('broken-1'))!.getState()).toBe('waiting');

    const clean = await fetch(`${gateway.url}/ops/queues/api/queues/settlement.calcMaintain/clean/completed`, {
      method: 'PUT',
      headers: { cookie },
    });
    expect(clean.status).toBeLessThan(300);

    await new Promise((r) => setTimeout(r, 100));
    expect(recorded.map((r) => r.authorization)).toEqual(['Bearer super-token', 'Bearer super-token']);
    expect(recorded.map((r) => r.body)).toEqual([
      {
        action: 'RETRY',
        queue: 'settlement.calcMaintain',
        jobId: 'broken-1',
        method: 'PUT',
        path: '/ops/queues/api/queues/settlement.calcMaintain/broken-1/retry',
      },
      {
        action: 'CLEAN',
        queue: 'settlement.calcMaintain',
        jobState: 'completed',
        method: 'PUT',
        path: '/ops/queues/api/queues/settlement.calcMaintain/clean/completed',
      },
    ]);
  });

  it('reads the action out of every kind of dashboard path', () => {
    expect(parseOpsAction('/ops/queues/api/queues/pause')).toEqual({ action: 'pause', queue: '*' });
    expect(parseOpsAction('/ops/queues/api/queues/settlement.aggregate/promote')).toEqual({
      action: 'promote',
      queue: 'settlement.aggregate',
    });
    expect(parseOpsAction('/ops/queues/api/queues/settlement.aggregate/7-k-1-aggregate/clean')).toEqual({
      action: 'clean',
      queue: 'settlement.aggregate',
      jobId: '7-k-1-aggregate',
    });
    expect(parseOpsAction('/ops/queues/api/redis/stats')).toBeUndefined();
  });
});

describe('GET /api/health and the batch', () => {
  it('lists the live workers of every step queue', async () => {
    const worker = new Worker('settlement.calcMaintain', async () => undefined, {
      connection: { url: REDIS_URL },
      prefix: PREFIX,
      name: 'host-a.42',
      autorun: false,
    });
    await worker.waitUntilReady();
    void worker.run();
    try {
      await new Promise((r) => setTimeout(r, 200));
      const body = await readJson(await fetch(`${gateway.url}/api/health`));
      expect(body.data.batch.redis).toBe('UP');
      expect(body.data.batch.steps).toHaveLength(13);
      expect(body.data.batch.steps.find((s: any) => s.step === 'calcMaintain')).toEqual({
        step: 'calcMaintain',
        queue: 'settlement.calcMaintain',
        workers: 1,
        names: ['host-a.42'],
      });
      expect(body.data.batch.steps.find((s: any) => s.step === 'aggregate')).toMatchObject({ workers: 0, names: [] });
    } finally {
      await worker.close();
    }
  });
});
