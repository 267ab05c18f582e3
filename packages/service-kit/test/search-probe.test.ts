import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, defineResource, f, registerResource, type ServiceApp } from '../src/index.js';
import { searchProbeRows } from '../src/search-probe.js';
import { createTestContext, type TestContext } from '../src/testing.js';
import { bearer, createDemoSchema, DEMO_MENU, DEMO_ROLE, grant } from './demo-app.js';

/**
 * A big table (25,000 rows, more than a probe window) searched as a picker does: `searchKeyword` only.
 * Every 4th row is named 'Kim …' (a frequent keyword: 6,250 rows); 'Quokka' names rows 7, 12,000 and 24,999.
 */
const ROWS = 25_000;
const people = defineResource({
  name: 'ProbePerson',
  path: '/api/probe-people',
  table: 'demo_probe_person',
  alias: 'p',
  menu: DEMO_MENU,
  bigTable: true,
  fields: {
    personId: f.id(),
    personName: f.text({ max: 50 }).required().search().sort(),
    code: f.text({ max: 20 }).save().search(),
  },
  defaultSort: 'personId',
  create: false,
  update: false,
  delete: false,
});

let ctx: TestContext<ServiceApp>;
let token: string;
const list = async (query: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/probe-people?${query}`, headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return res.json().data as { list: { personId: number; personName: string }[]; total: number; totalEstimated?: boolean };
};
const range = (from: number, step: number, count: number) => Array.from({ length: count }, (_, i) => from + i * step);

beforeAll(async () => {
  ctx = await createTestContext({
    serviceName: 'search-probe-test',
    buildApp: async (deps) => {
      await createDemoSchema(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_probe_person (
        person_id bigint PRIMARY KEY, person_name varchar(50) NOT NULL, code varchar(20))`.execute(deps.db);
      const app = await createServiceApp({ name: 'search-probe-test', ...deps });
      registerResource(app, people);
      return app;
    },
  });
  await grant(ctx.db, DEMO_ROLE, DEMO_MENU, ['READ']);
  token = await ctx.tokenFor(DEMO_ROLE);
  await sql`INSERT INTO demo_probe_person (person_id, person_name, code)
    SELECT i, CASE WHEN i IN (7, 12000, 24999) THEN 'Quokka ' || i WHEN i % 4 = 0 THEN 'Kim ' || i ELSE 'Lee ' || i END, 'C' || i
    FROM generate_series(1, ${ROWS}) AS i`.execute(ctx.db);
  await sql`ANALYZE demo_probe_person`.execute(ctx.db);
});
afterAll(async () => {
  await ctx?.close();
});

describe('a keyword search on a big table (pickers)', () => {
  it('gives a trigram-served keyword a small window and a shorter one a big window', () => {
    expect(searchProbeRows('Kim')).toBe(2_000);
    expect(searchProbeRows('김민수')).toBe(2_000);
    expect(searchProbeRows('Ki')).toBe(20_000);
    expect(searchProbeRows('김')).toBe(20_000);
  });

  it('answers a frequent keyword from the first rows of the order, with an estimated total', async () => {
    const page = await list('searchKeyword=Kim&pageSize=20');
    expect(page.list.map((r) => r.personId)).toEqual(range(4, 4, 20));
    // 20 matches among the first 80 rows, of 25,000 rows: 6,250 (the true count is 6,250 too)
    expect(page).toMatchObject({ total: 6_250, totalEstimated: true });
  });

  it('pages on inside the window: page 3 is rows 164..240, the total still estimated', async () => {
    const page = await list('searchKeyword=kim&pageSize=20&pageNum=3');
    expect(page.list.map((r) => r.personId)).toEqual(range(164, 4, 20));
    expect(page).toMatchObject({ total: 6_250, totalEstimated: true });
  });

  it('answers a rare keyword through the whole table, with the exact total', async () => {
    const page = await list('searchKeyword=quokka&pageSize=20');
    expect(page.list.map((r) => r.personId)).toEqual([7, 12_000, 24_999]);
    expect(page.total).toBe(3);
    expect(page.totalEstimated).toBeUndefined();
  });

  it('keeps the exact count when the list is sorted by another field', async () => {
    const page = await list('searchKeyword=Kim&pageSize=5&sortField=personName&sortOrder=ASC');
    // 'Kim 100' < 'Kim 1000' < 'Kim 10000' < 'Kim 10004' < 'Kim 10008' as text
    expect(page.list.map((r) => r.personName)).toEqual(['Kim 100', 'Kim 1000', 'Kim 10000', 'Kim 10004', 'Kim 10008']);
    // 6,250 multiples of 4, less row 12,000 (a Quokka)
    expect(page.total).toBe(6_249);
    expect(page.totalEstimated).toBeUndefined();
  });

  it('finds the same first page as the exact path (searchType narrows to one field)', async () => {
    const page = await list('searchKeyword=C1&searchType=code&pageSize=10');
    // codes C1, C10..C19, C100..: the first ten ids whose code contains "C1"
    expect(page.list.map((r) => r.personId)).toEqual([1, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
    expect(page.totalEstimated).toBe(true);
  });
});
