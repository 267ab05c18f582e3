import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Redis } from 'ioredis';
import { buildApp as buildAuthApp } from '@csp/auth-platform/app';
import { buildGatewayApp } from '@csp/gateway/app';
import { signAccessToken, type PermCode, type ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { buildApp } from '../src/app.js';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Res {
  status: number;
  body: any;
}

export interface WithdrawPlatform {
  ctx: TestContext<ServiceApp>;
  /** auth-platform on the same database (the approval workflow); not behind the gateway (no /api/approvals route yet) */
  auth: ServiceApp;
  eventsPrefix: string;
  /** through the gateway (payment-tax) */
  call(method: 'GET' | 'POST' | 'PUT', path: string, token: string, body?: unknown): Promise<Res>;
  /** straight to auth-platform */
  approvals(method: 'GET' | 'POST' | 'PUT', path: string, token: string, body?: object): Promise<Res>;
  close(): Promise<void>;
}

/**
 * payment-tax behind the real gateway and auth-platform beside it, on one fresh database, both hosting their
 * event runtime (relay + consumer) on a random BullMQ prefix, as they do in production (EVENTS_ENABLED=on).
 * Must be called before anything else builds an app in the test file (the settings are read at start-up).
 */
export async function startWithdrawPlatform(env: Record<string, string> = {}): Promise<WithdrawPlatform> {
  const eventsPrefix = `wd-test-${randomBytes(4).toString('hex')}`;
  Object.assign(process.env, {
    EVENTS_ENABLED: 'on',
    EVENTS_PREFIX: eventsPrefix,
    EVENTS_POLL_MS: '20',
    EVENTS_ATTEMPTS: '3',
    EVENTS_BACKOFF_MS: '20',
    ...env,
  });
  const ctx = await createTestContext({ buildApp, serviceName: 'payment-tax' });
  ctx.pool.on('error', () => {});
  const auth = await buildAuthApp({ config: { ...ctx.config, SERVICE_NAME: 'auth-platform' }, db: ctx.db, pool: ctx.pool, redis: ctx.redis });
  await auth.ready();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const unused = 'http://127.0.0.1:9';
  const gateway: FastifyInstance = await buildGatewayApp({
    nodeEnv: 'test',
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    trustProxy: false,
    upstreams: {
      'auth-platform': unused,
      'master-data': unused,
      intake: unused,
      'ledger-settlement': unused,
      'payment-tax': `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`,
      analytics: unused,
    },
    loginRateLimit: { max: 100, windowMs: 60_000 },
    connectTimeoutMs: 3_000,
    responseTimeoutMs: 60_000,
    connectionsPerUpstream: 8,
    healthTimeoutMs: 1_500,
    openApiCacheMs: 30_000,
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;

  return {
    ctx,
    auth,
    eventsPrefix,
    async call(method, path, token, body) {
      const res = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: await res.json() };
    },
    async approvals(method, path, token, body) {
      const res = await auth.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body }) });
      return { status: res.statusCode, body: res.json() };
    },
    async close() {
      await gateway.close().catch(() => undefined);
      await auth.close().catch(() => undefined);
      await ctx.close();
      await removePrefix(eventsPrefix);
    },
  };
}

async function removePrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A role with these grants on the given menus. */
export async function grantRole(ctx: TestContext<ServiceApp>, roleCode: string, grants: Record<string, PermCode[]>): Promise<void> {
  await ctx.db.insertInto('role').values({ role_code: roleCode, role_name: roleCode }).onConflict((oc) => oc.column('role_code').doNothing()).execute();
  for (const [menu, perms] of Object.entries(grants)) {
    await sql`
      INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
      SELECT r.role_id, m.menu_id, p.perm_code, 'Y' FROM role r, menu m, unnest(${perms}::text[]) AS p(perm_code)
       WHERE r.role_code = ${roleCode} AND m.menu_code = ${menu}
      ON CONFLICT DO NOTHING`.execute(ctx.db);
  }
}

export async function userWith(ctx: TestContext<ServiceApp>, loginId: string, roleCodes: string[], phone: string | null = null) {
  const row = await ctx.db.insertInto('users').values({ login_id: loginId, password: '!', user_name: `User ${loginId}`, phone }).returning('user_id').executeTakeFirstOrThrow();
  for (const role of roleCodes) {
    await sql`INSERT INTO user_role (user_id, role_id) SELECT ${row.user_id}, role_id FROM role WHERE role_code = ${role}`.execute(ctx.db);
  }
  return { userId: row.user_id, token: await signAccessToken(ctx.app, { userId: row.user_id, loginId, userName: `User ${loginId}`, roleCodes, agentId: null }) };
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
