import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import pg from 'pg';
import { bearer, createDemoContext, DEMO_MENU, DEMO_ROLE, grant } from './demo-app.js';
import type { TestContext } from '../src/testing.js';
import { contentDisposition, streamRows, type ServiceApp } from '../src/index.js';

let ctx: TestContext<ServiceApp>;
let token: string;

beforeAll(async () => {
  ctx = await createDemoContext();
  await grant(ctx.db, DEMO_ROLE, DEMO_MENU, ['READ', 'EXPORT']);
  token = await ctx.tokenFor(DEMO_ROLE);
});
afterAll(async () => {
  await ctx?.close();
});

describe('sendSpreadsheet', () => {
  it('streams N rows that parse back with the exceljs reader', async () => {
    const n = 5000;
    const res = await ctx.app.inject({ method: 'GET', url: `/api/demo/sheet?n=${n}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="__ __.xlsx"; filename*=UTF-8''%EC%A0%95%EC%82%B0%20%EB%AA%A9%EB%A1%9D.xlsx`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Items')!;
    expect(sheet.rowCount).toBe(n + 1);
    expect(sheet.getRow(1).values).toEqual([undefined, 'ID', 'Name', 'Amount']);
    expect(sheet.getRow(2).values).toEqual([undefined, 1, '이름 1', '10.50']);
    expect(sheet.getRow(n + 1).values).toEqual([undefined, n, `이름 ${n}`, `${n * 10}.50`]);
  });

  it('an empty export still has its header row', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/demo/sheet?n=0', headers: bearer(token) });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.getWorksheet('Items')!.rowCount).toBe(1);
  });

  it('contentDisposition escapes quotes and RFC 5987 special characters', () => {
    expect(contentDisposition(`a"b'(c).xlsx`)).toBe(`attachment; filename="a_b'(c).xlsx"; filename*=UTF-8''a%22b%27%28c%29.xlsx`);
  });
});

describe('streamRows', () => {
  // A private one-connection pool: a leaked connection would make the follow-up query hang.
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: ctx.config.DATABASE_URL, max: 1 });
  });
  afterAll(async () => {
    await pool.end();
  });

  it('reads every row through a cursor and releases the connection', async () => {
    const compiled = sql<{ n: number }>`select n::int as n from generate_series(1, 2500) as n order by n`.compile(ctx.db);
    let count = 0;
    let last = 0;
    for await (const row of streamRows<{ n: number }>(pool, compiled, 1000)) {
      count += 1;
      last = row.n;
    }
    expect(count).toBe(2500);
    expect(last).toBe(2500);
    expect(pool.idleCount).toBe(pool.totalCount);
  });

  it('stopping early closes the cursor and releases the connection', async () => {
    const compiled = sql<{ n: number }>`select n::int as n from generate_series(1, 100000) as n`.compile(ctx.db);
    let seen = 0;
    for await (const _row of streamRows(pool, compiled, 100)) {
      seen += 1;
      if (seen === 150) break;
    }
    expect(seen).toBe(150);
    expect(pool.idleCount).toBe(1);
    const { rows } = await pool.query<{ open: string }>('select count(*)::text as open from pg_cursors');
    expect(rows[0]!.open).toBe('0');
  });
});
