import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, defineResource, f, registerResource, type ServiceApp } from '../src/index.js';
import { MONTH_ESTIMATE_MIN_ROWS } from '../src/list-page.js';
import { createTestContext, type TestContext } from '../src/testing.js';
import { bearer, createDemoSchema, DEMO_MENU, DEMO_ROLE, grant } from './demo-app.js';

/** A big month-partitioned table (like the ledgers of V130): `<table>_p<YYYYMM>` partitions of settle_month. */
const lines = defineResource({
  name: 'MonthLine',
  path: '/api/month-lines',
  table: 'demo_month_line',
  alias: 'l',
  menu: DEMO_MENU,
  fields: {
    lineId: f.id(),
    settleMonth: f.month().filter(),
    agentId: f.ref().filter(),
    amount: f.money(),
  },
  defaultSort: '-lineId',
  bigTable: true,
});

const BIG = '202501';
const SMALL = '202502';
const BIG_ROWS = MONTH_ESTIMATE_MIN_ROWS + 500;

let ctx: TestContext<ServiceApp>;
let token: string;
const list = async (query: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/month-lines?${query}`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { total: number; totalEstimated?: boolean; list: { lineId: number; settleMonth: string }[] };
};

beforeAll(async () => {
  ctx = await createTestContext({
    serviceName: 'month-estimate-test',
    buildApp: async (deps) => {
      await createDemoSchema(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_month_line (
        line_id bigserial, settle_month char(6) NOT NULL, agent_id bigint NOT NULL, amount numeric(15,2) NOT NULL,
        PRIMARY KEY (line_id, settle_month)) PARTITION BY LIST (settle_month)`.execute(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_month_line_p202501 PARTITION OF demo_month_line FOR VALUES IN ('202501')`.execute(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_month_line_p202502 PARTITION OF demo_month_line FOR VALUES IN ('202502')`.execute(deps.db);
      const app = await createServiceApp({ name: 'month-estimate-test', ...deps });
      registerResource(app, lines);
      return app;
    },
  });
  await grant(ctx.db, DEMO_ROLE, DEMO_MENU, ['READ']);
  token = await ctx.tokenFor(DEMO_ROLE);
  await sql`INSERT INTO demo_month_line (settle_month, agent_id, amount)
            SELECT ${BIG}, 1 + g % 100, 10.00 FROM generate_series(1, ${BIG_ROWS}) g`.execute(ctx.db);
  await sql`INSERT INTO demo_month_line (settle_month, agent_id, amount) VALUES (${SMALL}, 1, 1), (${SMALL}, 2, 2), (${SMALL}, 1, 3)`.execute(ctx.db);
  await sql`ANALYZE demo_month_line_p202501, demo_month_line_p202502`.execute(ctx.db);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('a big month-partitioned list filtered by its month alone', () => {
  it("totals a big month by its partition's estimate, says so, and still shows the month's newest rows", async () => {
    const { rows } = await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'demo_month_line_p202501'`.execute(ctx.db);
    const estimate = Math.round(rows[0]!.n);
    // ANALYZE's estimate of an insert-only partition is (near) exact
    expect(Math.abs(estimate - BIG_ROWS)).toBeLessThan(BIG_ROWS / 100);
    const page = await list(`settleMonth=${BIG}&pageSize=20`);
    expect(page.totalEstimated).toBe(true);
    expect(page.total).toBe(estimate);
    expect(page.list).toHaveLength(20);
    expect(page.list.every((l) => l.settleMonth === BIG)).toBe(true);
    const newest = await sql<{ id: string }>`SELECT max(line_id)::text AS id FROM demo_month_line WHERE settle_month = ${BIG}`.execute(ctx.db);
    expect(page.list[0]!.lineId).toBe(Number(newest.rows[0]!.id));
  });

  it('counts a small month exactly', async () => {
    const page = await list(`settleMonth=${SMALL}`);
    expect(page.totalEstimated).toBeUndefined();
    expect(page.total).toBe(3);
  });

  it('counts exactly when another filter joins the month', async () => {
    const page = await list(`settleMonth=${BIG}&agentId=7&pageSize=5`);
    expect(page.totalEstimated).toBeUndefined();
    // agent ids 1 + g % 100: agent 7 holds g = 6, 106, ... up to BIG_ROWS
    expect(page.total).toBe(Math.floor((BIG_ROWS - 6) / 100) + 1);
  });

  it('counts exactly a month that has no partition of its own', async () => {
    const page = await list('settleMonth=202612');
    expect(page).toMatchObject({ total: 0 });
    expect(page.totalEstimated).toBeUndefined();
  });
});
