import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  SETTLE_MONTH_TABLES,
  analyzeMonthPartitions,
  archiveMonth,
  archivedMonths,
  ensureMonthPartitions,
  monthsAhead,
  partitionMonths,
  restoreMonth,
} from '../src/partitions.js';
import { createDb } from '../src/pool.js';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

/** Accounting entries carry no foreign key to agents or contracts (V033), so they make rows without a book. */
async function entries(month: string, amounts: string[], firstLedgerId: number): Promise<void> {
  for (const [i, amount] of amounts.entries()) {
    await t.pool.query(
      `INSERT INTO contract_accounting_entry (ledger_type, ledger_id, settle_month, agent_id, debit_account_code, credit_account_code, amount)
       VALUES ('MAINTAIN', $1, $2, 7, '5110', '2110', $3)`,
      [firstLedgerId + i, month, amount],
    );
  }
}

async function countAndSum(from: string, month: string): Promise<{ n: number; total: string | null }> {
  const { rows } = await t.pool.query<{ n: number; total: string | null }>(
    `SELECT count(*)::int AS n, sum(amount)::text AS total FROM ${from} WHERE settle_month = $1`,
    [month],
  );
  return rows[0]!;
}

/** The relations an EXPLAIN of `statement` reads. */
async function scanned(statement: string, params: unknown[]): Promise<string[]> {
  const { rows } = await t.pool.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${statement}`, params);
  const names: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    if (typeof node['Relation Name'] === 'string') names.push(node['Relation Name']);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((rows[0]!['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
  return names.sort();
}

describe('month partitions (V130)', () => {
  it('partitions exactly the month tables, by LIST on settle_month, each with a default partition', async () => {
    const { rows } = await t.pool.query<{ table_name: string; strategy: string; key: string; has_default: boolean }>(
      `SELECT c.relname AS table_name, p.partstrat AS strategy, pg_get_partkeydef(c.oid) AS key,
              p.partdefid <> 0 AS has_default
         FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
        WHERE c.relnamespace = 'public'::regnamespace ORDER BY 1`,
    );
    expect(rows.map((r) => r.table_name)).toEqual([...SETTLE_MONTH_TABLES].sort());
    for (const r of rows) expect(r).toMatchObject({ strategy: 'l', key: 'LIST (settle_month)', has_default: true });
  });

  it('ids stay one sequence per table and the keys hold the month: (id, settle_month) primary keys', async () => {
    const { rows } = await t.pool.query<{ table_name: string; def: string }>(
      `SELECT conrelid::regclass::text AS table_name, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE contype = 'p' AND conrelid = ANY($1::regclass[]) ORDER BY 1`,
      [['maintain_ledger', 'settle_master', 'contract_accounting_entry']],
    );
    expect(rows).toEqual([
      { table_name: 'contract_accounting_entry', def: 'PRIMARY KEY (entry_id, settle_month)' },
      { table_name: 'maintain_ledger', def: 'PRIMARY KEY (ledger_id, settle_month)' },
      { table_name: 'settle_master', def: 'PRIMARY KEY (settle_id, settle_month)' },
    ]);
    const seq = await t.pool.query<{ s: string }>(`SELECT pg_get_serial_sequence('maintain_ledger', 'ledger_id') AS s`);
    expect(seq.rows[0]!.s).toBe('public.maintain_ledger_ledger_id_seq');
  });

  it('ensureMonthPartitions makes each table\'s partition once when four callers race, with the table\'s fillfactor', async () => {
    const pools = [createDb(t.pool), createDb(t.pool), createDb(t.pool), createDb(t.pool)];
    const created = await Promise.all(pools.map((db) => ensureMonthPartitions(db, '203001')));
    expect(created.reduce((a, b) => a + b, 0)).toBe(SETTLE_MONTH_TABLES.length);
    expect(await ensureMonthPartitions(t.db, '203001')).toBe(0);
    for (const table of SETTLE_MONTH_TABLES) expect(await partitionMonths(t.db, table)).toContain('203001');
    const { rows } = await t.pool.query<{ relname: string; reloptions: string[] | null }>(
      `SELECT relname, reloptions FROM pg_class WHERE relname IN ('maintain_ledger_p203001', 'settle_master_p203001') ORDER BY 1`,
    );
    expect(rows).toEqual([
      { relname: 'maintain_ledger_p203001', reloptions: ['fillfactor=50'] },
      { relname: 'settle_master_p203001', reloptions: null },
    ]);
  });

  it('rows written before their month had a partition move out of the default partition into it', async () => {
    await entries('203102', ['10.00', '20.50', '0.25'], 9_100);
    expect(await countAndSum('contract_accounting_entry_pdefault', '203102')).toEqual({ n: 3, total: '30.75' });
    expect(await ensureMonthPartitions(t.db, '203102')).toBe(SETTLE_MONTH_TABLES.length);
    expect(await countAndSum('contract_accounting_entry_pdefault', '203102')).toEqual({ n: 0, total: null });
    expect(await countAndSum('contract_accounting_entry_p203102', '203102')).toEqual({ n: 3, total: '30.75' });
  });

  it('a month query reads its own partition only; a range over months reads those months and the (empty) default', async () => {
    await ensureMonthPartitions(t.db, '203002');
    expect(
      await scanned('SELECT * FROM contract_accounting_entry WHERE settle_month = $1 ORDER BY entry_id LIMIT 20', ['203001']),
    ).toEqual(['contract_accounting_entry_p203001']);
    expect(
      await scanned(`SELECT sum(amount) FROM contract_accounting_entry WHERE settle_month BETWEEN '203001' AND '203002'`, []),
      // a LIST default may hold any unlisted value inside a range, so a range keeps it (empty unless a month was missed)
    ).toEqual(['contract_accounting_entry_p203001', 'contract_accounting_entry_p203002', 'contract_accounting_entry_pdefault']);
  });

  it('archive: the month leaves the live table, stays readable through archive_read, refuses new partitions, and comes back whole', async () => {
    await entries('203001', ['100.00', '0.01'], 9_200);
    const moved = await archiveMonth(t.db, '203001');
    expect(moved.sort()).toEqual(SETTLE_MONTH_TABLES.filter((x) => x !== 'settle_master').sort());
    expect(await archivedMonths(t.db)).toEqual(['203001']);
    expect(await countAndSum('contract_accounting_entry', '203001')).toEqual({ n: 0, total: null });
    expect(await countAndSum('archive_read.contract_accounting_entry', '203001')).toEqual({ n: 2, total: '100.01' });
    // another month through the view still reads one live partition: the archived table's CHECK excludes it
    expect(
      await scanned('SELECT * FROM archive_read.contract_accounting_entry WHERE settle_month = $1', ['203102']),
    ).toEqual(['contract_accounting_entry_p203102']);
    await expect(ensureMonthPartitions(t.db, '203001')).rejects.toMatchObject({ code: '55000' });

    expect((await restoreMonth(t.db, '203001')).sort()).toEqual(moved.sort());
    expect(await archivedMonths(t.db)).toEqual([]);
    expect(await countAndSum('contract_accounting_entry', '203001')).toEqual({ n: 2, total: '100.01' });
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_constraint WHERE conname = 'contract_accounting_entry_p203001_month_ck'`.execute(t.db);
    expect(rows[0]!.n).toBe(0);
  });

  it('analyzeMonthPartitions analyzes the month\'s partitions only (not every month of the parent)', async () => {
    const db = createDb(t.pool);
    await ensureMonthPartitions(db, '202609');
    await ensureMonthPartitions(db, '202610');
    await entries('202609', ['1.00'], 9100);
    await entries('202610', ['2.00', '3.00'], 9200);
    const analyzed = async () =>
      (
        await t.pool.query<{ relname: string }>(
          `SELECT relname FROM pg_stat_user_tables WHERE relname LIKE 'contract_accounting_entry_p2026%' AND last_analyze IS NOT NULL ORDER BY 1`,
        )
      ).rows.map((r) => r.relname);
    const before = await analyzed();
    expect(await analyzeMonthPartitions(db, ['contract_accounting_entry', 'maintain_ledger'], '202610')).toEqual([
      'contract_accounting_entry_p202610',
      'maintain_ledger_p202610',
    ]);
    const after = await analyzed();
    expect(after).toContain('contract_accounting_entry_p202610');
    expect(after.includes('contract_accounting_entry_p202609')).toBe(before.includes('contract_accounting_entry_p202609'));
    await expect(analyzeMonthPartitions(db, ['contract_accounting_entry'], '2026-10')).rejects.toThrow(RangeError);
  });

  it('months: YYYYMM only; monthsAhead crosses the year', async () => {
    await expect(ensureMonthPartitions(t.db, '203013')).rejects.toThrow(RangeError);
    expect(monthsAhead('202511', 3)).toEqual(['202511', '202512', '202601', '202602']);
  });
});
