import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { streamBatches } from '../src/index.js';

/** streamBatches reads one batch ahead: every row once and in order, the connection back in the pool however it ends. */
describe('streamBatches', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  const series = (n: number) => ({ sql: 'SELECT g AS n, repeat(\'x\', g % 7) AS pad FROM generate_series(1, $1::int) g ORDER BY g', parameters: [n] });

  it('yields every row once, in order, in batches of the asked size (the last one shorter)', async () => {
    const sizes: number[] = [];
    const seen: number[] = [];
    for await (const rows of streamBatches<{ n: number; pad: string }>(database.pool, series(1_234), 100)) {
      sizes.push(rows.length);
      for (const r of rows) seen.push(r.n);
    }
    expect(sizes).toEqual([...Array(12).fill(100), 34]);
    expect(seen).toEqual(Array.from({ length: 1_234 }, (_, i) => i + 1));
    expect(database.pool.totalCount - database.pool.idleCount).toBe(0);
  });

  it('array rows, and an exact multiple of the batch size ends without an empty batch', async () => {
    const batches: unknown[][][] = [];
    for await (const rows of streamBatches<unknown[]>(database.pool, series(300), 100, { rowMode: 'array' })) batches.push(rows);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 100]);
    expect(batches[2]![99]).toEqual([300, 'xxxxxx']); // 300 = 42 * 7 + 6
  });

  it('a consumer that stops early (a read still in flight) leaves the connection usable and back in the pool', async () => {
    let taken = 0;
    for await (const rows of streamBatches<{ n: number }>(database.pool, series(100_000), 500)) {
      taken += rows.length;
      if (taken >= 1_000) break;
    }
    expect(taken).toBe(1_000);
    expect(database.pool.totalCount - database.pool.idleCount).toBe(0);
    // the released connection answers the next query normally (no portal or sync left behind)
    const again = await database.pool.query<{ one: number }>('SELECT 1 AS one');
    expect(again.rows).toEqual([{ one: 1 }]);
    const rest: number[] = [];
    for await (const rows of streamBatches<{ n: number }>(database.pool, series(3), 2)) rest.push(...rows.map((r) => r.n));
    expect(rest).toEqual([1, 2, 3]);
  });

  it('a query that fails rejects the consumer and still releases the connection', async () => {
    const failing = { sql: 'SELECT 1 / (g - 700) AS n FROM generate_series(1, 1000) g', parameters: [] };
    let got = 0;
    await expect(
      (async () => {
        for await (const rows of streamBatches<{ n: number }>(database.pool, failing, 100)) got += rows.length;
      })(),
    ).rejects.toThrow(/division by zero/);
    expect(got).toBeLessThan(700);
    expect(database.pool.totalCount - database.pool.idleCount).toBe(0);
    const again = await database.pool.query<{ one: number }>('SELECT 1 AS one');
    expect(again.rows).toEqual([{ one: 1 }]);
  });
});
