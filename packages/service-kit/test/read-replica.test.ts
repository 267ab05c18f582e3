import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandby, type Standby } from '@csp/db/testing-standby';
import { createLogger, createServiceApp, metricsText, type ServiceApp, type ServiceConfig } from '../src/index.js';
import { registerResource } from '../src/resource.js';
import { dbReadFallbacks, dbReads, readTarget, rywKey } from '../src/read-db.js';
import { createTestContext, type TestContext, type TestDeps } from '../src/testing.js';
import { bearer, createDemoSchema, DEMO_MENU, demoItems, eventually, grant, LogSink } from './demo-app.js';

/**
 * A real hot standby of the test cluster (pg_basebackup, another port; @csp/db/testing-standby) behind
 * DATABASE_READ_URL. Apps on one test database differ only in their read settings:
 * - `slow`  waits up to 10 s for a user's last write, never gives up for lag (routing, read-your-writes);
 * - `quick` waits 300 ms for a user's last write (read-your-writes falls back to the primary);
 * - `tight` reads the replica only while it lags at most 400 ms (lag fallback);
 * - `plain` has no DATABASE_READ_URL.
 */

const READER = 'READ_REPLICA_READER';
const WRITER = 'READ_REPLICA_WRITER';
const PERMS = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT'];

let standby: Standby;
let ctx: TestContext<ServiceApp>;
const apps: ServiceApp[] = [];
let slow: ServiceApp;
let quick: ServiceApp;
let tight: ServiceApp;
let plain: ServiceApp;
const logs = { slow: new LogSink(), quick: new LogSink(), tight: new LogSink() };
let readerToken: string;
let writerToken: string;
let writerId: number;
let readerId: number;

async function buildReadApp(deps: TestDeps, name: string, env: Partial<ServiceConfig>, sink?: LogSink) {
  const app = await createServiceApp({
    name,
    ...deps,
    config: { ...deps.config, ...env },
    logger: sink ? createLogger({ name, level: 'info', destination: sink }) : undefined,
    logFlushIntervalMs: 100,
  });
  registerResource(app, demoItems);
  await app.ready();
  return app;
}

async function counter(metric: typeof dbReads | typeof dbReadFallbacks, service: string, label: string): Promise<number> {
  const { values } = await metric.get();
  const labels = (v: (typeof values)[number]) => v.labels as Record<string, string | number | undefined>;
  const key = metric === dbReads ? 'target' : 'reason';
  return values.find((v) => labels(v).service === service && labels(v)[key] === label)?.value ?? 0;
}

async function listCodes(app: ServiceApp, token: string): Promise<string[]> {
  const res = await app.inject({ method: 'GET', url: '/api/demo-items?pageSize=100', headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return (res.json().data.list as Array<{ itemCode: string }>).map((r) => r.itemCode).sort();
}

async function insertOnPrimary(code: string, amount: string): Promise<number> {
  const row = await ctx.db
    .insertInto('demo_item' as never)
    .values({ item_code: code, item_name: `Item ${code}`, amount } as never)
    .returning('item_id' as never)
    .executeTakeFirstOrThrow();
  return Number((row as { item_id: number }).item_id);
}

const up = (app: ServiceApp) => eventually(async () => ((await app.readRouting.check()) === 'up' ? true : undefined), 60_000);

beforeAll(async () => {
  standby = await startStandby();
  ctx = await createTestContext({
    serviceName: 'read-slow',
    buildApp: async (deps) => {
      await createDemoSchema(deps.db);
      const readUrl = standby.urlFor(deps.config.DATABASE_URL);
      const checks = { DATABASE_READ_URL: readUrl, DATABASE_READ_CHECK_MS: 100 };
      slow = await buildReadApp(deps, 'read-slow', { ...checks, DATABASE_READ_MAX_LAG_MS: 600_000, DATABASE_READ_WAIT_MS: 10_000 }, logs.slow);
      quick = await buildReadApp(deps, 'read-quick', { ...checks, DATABASE_READ_MAX_LAG_MS: 600_000, DATABASE_READ_WAIT_MS: 300 }, logs.quick);
      tight = await buildReadApp(deps, 'read-tight', { ...checks, DATABASE_READ_MAX_LAG_MS: 400, DATABASE_READ_WAIT_MS: 300 }, logs.tight);
      plain = await buildReadApp(deps, 'read-plain', { DATABASE_READ_URL: '' });
      apps.push(quick, tight, plain);
      return slow;
    },
  });
  await grant(ctx.db, READER, DEMO_MENU, PERMS);
  await grant(ctx.db, WRITER, DEMO_MENU, PERMS);
  readerToken = await ctx.tokenFor(READER);
  writerToken = await ctx.tokenFor(WRITER);
  readerId = (await ctx.userFor(READER)).userId;
  writerId = (await ctx.userFor(WRITER)).userId;
  await standby.waitForDatabase(new URL(ctx.config.DATABASE_URL).pathname.slice(1));
  await standby.catchUp();
  await Promise.all([up(slow), up(quick), up(tight)]);
}, 300_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  await ctx?.close();
  await standby?.destroy();
}, 120_000);

describe('reads off a hot standby (DATABASE_READ_URL)', () => {
  it('serves lists, details and exports from the replica: a row the replica has not replayed is not there', async () => {
    const db = (await readTarget(slow, readerId)).db;
    const recovery = await sql<{ r: boolean }>`select pg_is_in_recovery() as r`.execute(db);
    expect(recovery.rows[0]!.r).toBe(true);
    const onPrimary = await sql<{ r: boolean }>`select pg_is_in_recovery() as r`.execute(ctx.db);
    expect(onPrimary.rows[0]!.r).toBe(false);

    await insertOnPrimary('R-1', '10.00');
    await standby.catchUp();
    await standby.pauseReplay();
    try {
      const hidden = await insertOnPrimary('R-2', '20.00');
      const replicaReads = await counter(dbReads, 'read-slow', 'replica');
      expect(await listCodes(slow, readerToken)).toEqual(['R-1']);
      const detail = await slow.inject({ method: 'GET', url: `/api/demo-items/${hidden}`, headers: bearer(readerToken) });
      expect(detail.statusCode).toBe(404);
      const sheet = await slow.inject({ method: 'GET', url: '/api/demo-items/excel', headers: bearer(readerToken) });
      expect(sheet.statusCode).toBe(200);
      expect(await counter(dbReads, 'read-slow', 'replica')).toBe(replicaReads + 3);
      // the primary has it
      expect(await listCodes(plain, readerToken)).toEqual(['R-1', 'R-2']);
    } finally {
      await standby.resumeReplay();
    }
    await standby.catchUp();
    expect(await listCodes(slow, readerToken)).toEqual(['R-1', 'R-2']);
  });

  it('writes go to the primary, and the writer reads its own write at once through the replica', async () => {
    const before = await counter(dbReads, 'read-slow', 'replica');
    const fallbacks = await counter(dbReadFallbacks, 'read-slow', 'wait');
    const created = await slow.inject({
      method: 'POST',
      url: '/api/demo-items',
      headers: bearer(writerToken),
      payload: { itemCode: 'W-1', itemName: 'Written', amount: '12.50' },
    });
    // an INSERT on the standby fails (read-only transaction): this one landed on the primary
    expect(created.statusCode).toBe(200);
    const id = created.json().data.id as number;
    const row = await sql<{ amount: string }>`select amount from demo_item where item_id = ${id}`.execute(ctx.db);
    expect(row.rows[0]!.amount).toBe('12.50');
    const position = await ctx.redis.get(rywKey(writerId));
    expect(Number(position)).toBeGreaterThan(0);
    expect(await ctx.redis.get(rywKey(readerId))).toBeNull();

    const res = await slow.inject({ method: 'GET', url: `/api/demo-items/${id}`, headers: bearer(writerToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ itemCode: 'W-1', amount: '12.50', version: 0 });
    expect(await counter(dbReads, 'read-slow', 'replica')).toBe(before + 1);
    expect(await counter(dbReadFallbacks, 'read-slow', 'wait')).toBe(fallbacks);
  });

  it('a writer whose write the replica has not replayed within the wait reads the primary; other users still read the replica', async () => {
    const id = await insertOnPrimary('W-2', '30.00');
    await standby.catchUp();
    await standby.pauseReplay();
    try {
      const updated = await quick.inject({
        method: 'PUT',
        url: `/api/demo-items/${id}`,
        headers: bearer(writerToken),
        payload: { itemCode: 'W-2', itemName: 'Item W-2', amount: '31.00', version: 0 },
      });
      expect(updated.statusCode).toBe(200);
      const waits = await counter(dbReadFallbacks, 'read-quick', 'wait');
      const started = Date.now();
      const mine = await quick.inject({ method: 'GET', url: `/api/demo-items/${id}`, headers: bearer(writerToken) });
      const waited = Date.now() - started;
      expect(mine.json().data).toMatchObject({ amount: '31.00', version: 1 });
      expect(waited).toBeGreaterThanOrEqual(290);
      expect(await counter(dbReadFallbacks, 'read-quick', 'wait')).toBe(waits + 1);
      expect(logs.quick.text()).toContain("did not reach the user's last write in time");

      const theirs = await quick.inject({ method: 'GET', url: `/api/demo-items/${id}`, headers: bearer(readerToken) });
      expect(theirs.json().data).toMatchObject({ amount: '30.00', version: 0 });
    } finally {
      await standby.resumeReplay();
    }
  });

  it('a replica lagging past DATABASE_READ_MAX_LAG_MS is left for the primary with a warning, and used again once caught up', async () => {
    await standby.catchUp();
    await up(tight);
    await standby.pauseReplay();
    try {
      await insertOnPrimary('L-1', '40.00');
      await eventually(async () => ((await tight.readRouting.check()) === 'lagging' ? true : undefined), 10_000);
      expect(tight.readRouting.lagMs).toBeGreaterThan(400);
      const lagFallbacks = await counter(dbReadFallbacks, 'read-tight', 'lag');
      expect(await listCodes(tight, readerToken)).toContain('L-1');
      expect(await counter(dbReadFallbacks, 'read-tight', 'lag')).toBe(lagFallbacks + 1);
      expect(logs.tight.text()).toContain('read replica lags past DATABASE_READ_MAX_LAG_MS: reads go to the primary');
      expect(logs.tight.lines.find((l) => String(l.msg).includes('lags past'))?.level).toBe(40);
      expect(await metricsText()).toMatch(/csp_db_read_fallback_total\{service="read-tight",reason="lag"\} [1-9]/);
      // the slow app's limit is far away: it still reads the replica, without the row
      expect(await listCodes(slow, readerToken)).not.toContain('L-1');
    } finally {
      await standby.resumeReplay();
    }
    await standby.catchUp();
    await up(tight);
    expect(logs.tight.text()).toContain('read replica healthy again');
  });

  it('without DATABASE_READ_URL everything reads the primary and no write position is kept', async () => {
    expect(plain.readRouting.enabled).toBe(false);
    expect(plain.readDb).toBe(plain.db);
    expect((await readTarget(plain, readerId)).replica).toBe(false);
    await ctx.redis.del(rywKey(readerId));
    const created = await plain.inject({
      method: 'POST',
      url: '/api/demo-items',
      headers: bearer(readerToken),
      payload: { itemCode: 'P-1', itemName: 'Plain', amount: '1.00' },
    });
    expect(created.statusCode).toBe(200);
    expect(await ctx.redis.get(rywKey(readerId))).toBeNull();
  });

  it('a stopped replica: reads fall back to the primary with a warning, and return once it is back', async () => {
    const downs = await counter(dbReadFallbacks, 'read-slow', 'down');
    await standby.stop('immediate');
    const started = Date.now();
    const codes = await listCodes(slow, readerToken);
    const fallbackMs = Date.now() - started;
    expect(codes).toContain('L-1');
    expect(slow.readRouting.status).toBe('down');
    expect(await counter(dbReadFallbacks, 'read-slow', 'down')).toBeGreaterThan(downs);
    const warning = logs.slow.lines.find((l) => String(l.msg).includes('read replica unreachable'));
    expect(warning?.level).toBe(40);
    expect(fallbackMs).toBeLessThan(2000);

    await standby.start();
    await up(slow);
    expect((await readTarget(slow, readerId)).replica).toBe(true);
  });
});
