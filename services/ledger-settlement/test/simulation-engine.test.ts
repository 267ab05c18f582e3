import { sql } from 'kysely';
import { testLogger as logger } from '@csp/batch/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setChunkSizes } from '../src/calc/chunk-sizes.js';
import { runSimulation } from '../src/simulations/simulation.job.js';
import { summaryOf } from '../src/simulations/simulation.service.js';
import { allSteps, createHarness, type Harness } from './steps-harness.js';
import { seedBook } from './steps-book.js';

const MONTH = '202501';
let h: Harness;

beforeAll(async () => {
  setChunkSizes({ contracts: 2, agents: 3, writeBatch: 1 });
  h = await createHarness();
  await seedBook(h.tdb.pool);
  await h.startWorkers(allSteps());
}, 60_000);

afterAll(async () => {
  setChunkSizes({ contracts: 4_000, agents: 2_000, writeBatch: 1_000 });
  await h?.close();
});

/** md5 of every row of every real table (the simulation's own tables excluded), table by table. */
async function checksums(): Promise<Record<string, string>> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND c.relname NOT LIKE 'simulation%' ORDER BY 1`.execute(h.db);
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ sum: string | null }>`
      SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM ${sql.table(name)} t`.execute(h.db);
    out[name] = rows[0]!.sum ?? '';
  }
  return out;
}

async function createSimulation(scope: { type: 'ALL' | 'ORG' | 'AGENTS'; orgId?: number; agents?: number[] }) {
  const sim = await h.db
    .insertInto('simulation')
    .values({
      name: 'FC payout 65 %',
      base_month: MONTH,
      scope_type: scope.type,
      scope_org_id: scope.orgId ?? null,
      scope_agent_ids: scope.agents ?? [],
      status: 'QUEUED',
    })
    .returning('simulation_id')
    .executeTakeFirstOrThrow();
  // payout rule 1 (grade 1 FC, LIFE, year 1) 60 % -> 65 % from 2025-01-01
  await h.db
    .insertInto('simulation_change')
    .values({
      simulation_id: sim.simulation_id,
      seq: 1,
      rule_table: 'payout_rule',
      action: 'REPLACE',
      target_id: 1,
      values: JSON.stringify({ gradeId: 1, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '65', effectiveFrom: '2025-01-01' }),
      label: 'payout_rule #1 60 -> 65',
    })
    .execute();
  return sim.simulation_id;
}

async function results(simulationId: number) {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT agent_id, gross_before, gross_after, (gross_after - gross_before)::numeric(18,2)::text AS gross_diff,
           net_before, net_after
    FROM simulation_agent_result WHERE simulation_id = ${simulationId} ORDER BY agent_id`.execute(h.db);
  return rows;
}

const r = (agent: number, gb: string, ga: string, diff: string, nb: string, na: string) => ({
  agent_id: agent, gross_before: gb, gross_after: ga, gross_diff: diff, net_before: nb, net_after: na,
});

// Payout rule 1 at 65 % (agent amount = the rounded company amount x payout, rounded):
//  9001 (1001) 10000.00 x 65 % = 6500.00 (+500.00); 9002 (1001) 6666.67 x 65 % = 4333.3355 -> 4333.34 (+333.34);
//  9003 is HEALTH (rule 7): unchanged; 9009 (1005) 1200.00 -> 780.00 (+60.00); 9010 (1008) 2400.00 -> 1560.00 (+120.00)
//  1001: gross 14246.67 + 833.34 = 15080.01; tax 497.64033 -> 497.64; net 14582.37
//  overrides: 1001's base 14280.00 -> 15113.34: rule 1 5 % = 755.667 -> 755.67 (+41.67); rule 2 stays capped at 100.00;
//             1008's base 1440.00 -> 1560.00: rule 1 78.00 (+6.00), rule 2 31.20 (+2.40)
//  1003: 755.67 + 30.00 + 264.00 + 78.00 = 1127.67 (+47.67); tax 37.21; net 1090.46
//  1004: 100.00 + 31.20 = 131.20 (+2.40); tax 4.33; net 126.87
//  1005: 780.00; tax 25.74; net 754.26      1008: 1560.00; tax 51.48; net 1508.52      1002, 1007: unchanged
const ALL = [
  r(1001, '14246.67', '15080.01', '833.34', '13776.53', '14582.37'),
  r(1002, '6550.00', '6550.00', '0.00', '6333.85', '6333.85'),
  r(1003, '1080.00', '1127.67', '47.67', '1044.36', '1090.46'),
  r(1004, '128.80', '131.20', '2.40', '124.55', '126.87'),
  r(1005, '720.00', '780.00', '60.00', '696.24', '754.26'),
  r(1007, '0.00', '0.00', '0.00', '0.00', '0.00'),
  r(1008, '1440.00', '1560.00', '120.00', '1392.48', '1508.52'),
];

describe('a what-if simulation on the real ledger steps', () => {
  it('moves exactly the hand-computed amounts of the FC agents and their override receivers, and nothing else', async () => {
    expect((await h.runMonth(MONTH)).run.status).toBe('COMPLETED');
    const before = await checksums();
    const id = await createSimulation({ type: 'ALL' });

    await runSimulation({ db: h.db, connectionString: h.tdb.url, logger }, id);

    const sim = await h.db.selectFrom('simulation').selectAll().where('simulation_id', '=', id).executeTakeFirstOrThrow();
    expect(sim.error_message).toBeNull();
    expect(sim.status).toBe('DONE');
    expect(sim.processed).toBe(sim.total);
    expect(await results(id)).toEqual(ALL);
    expect(await checksums()).toEqual(before);
    const { rows: schemas } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_namespace WHERE nspname LIKE 'sim\\_%'`.execute(h.db);
    expect(schemas[0]!.n).toBe(0);
  });

  it('re-run after an edit of its change, a simulation prices with the edited rule (no cached master data)', async () => {
    const id = await createSimulation({ type: 'AGENTS', agents: [1001] });
    await runSimulation({ db: h.db, connectionString: h.tdb.url, logger }, id);
    expect((await results(id))[0]).toMatchObject({ agent_id: 1001, gross_after: '15080.01' });
    await h.db
      .updateTable('simulation_change')
      .set({ values: JSON.stringify({ gradeId: 1, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '70', effectiveFrom: '2025-01-01' }) })
      .where('simulation_id', '=', id)
      .execute();
    await runSimulation({ db: h.db, connectionString: h.tdb.url, logger }, id);
    // 9001 7000.00 (+1000.00), 9002 6666.67 x 70 % = 4666.669 -> 4666.67 (+666.67): 14246.67 + 1666.67
    expect((await results(id))[0]).toMatchObject({ agent_id: 1001, gross_after: '15913.34' });
  });

  it('runs concurrently with a real run of the same month, both exact', async () => {
    const id = await createSimulation({ type: 'ALL' });
    const [real] = await Promise.all([h.runMonth(MONTH), runSimulation({ db: h.db, connectionString: h.tdb.url, logger }, id)]);
    expect(real.run.status).toBe('COMPLETED');
    expect(await results(id)).toEqual(ALL);
    const { rows } = await sql<{ agent_id: number; gross_amount: string; net_amount: string }>`
      SELECT agent_id, gross_amount, net_amount FROM settle_master WHERE settle_month = ${MONTH} ORDER BY agent_id`.execute(h.db);
    expect(rows).toEqual(ALL.map((x) => ({ agent_id: x.agent_id, gross_amount: x.gross_before, net_amount: x.net_before })));
    const { rows: runs } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM batch_job_log WHERE job_log_id < 0`.execute(h.db);
    expect(runs[0]!.n).toBe(0);
  });

  it('computes a CONFIRMED agent too (its real month stays confirmed)', async () => {
    await sql`UPDATE settle_master SET status = 'CONFIRMED', confirmed_at = now() WHERE agent_id = 1008 AND settle_month = ${MONTH}`.execute(h.db);
    const before = await checksums();
    const id = await createSimulation({ type: 'AGENTS', agents: [1008] });
    await runSimulation({ db: h.db, connectionString: h.tdb.url, logger }, id);
    expect(await results(id)).toEqual([r(1008, '1440.00', '1560.00', '120.00', '1392.48', '1508.52')]);
    expect(await checksums()).toEqual(before);
  });

  it('scoped to an organization subtree, reports only the subtree agents', async () => {
    // org 110 (Branch) holds 1004 and, through team 111, 1001-1003 and 1006-1008; org 201's 1005 is outside
    const id = await createSimulation({ type: 'ORG', orgId: 110 });
    await runSimulation({ db: h.db, connectionString: h.tdb.url, logger }, id);
    expect(await results(id)).toEqual(ALL.filter((x) => x.agent_id !== 1005));
  });
});

// Several changes: a waterfall in seq order, each change priced on top of the earlier ones.
interface ChangeRow {
  rule_table: string;
  action: 'ADD' | 'REPLACE' | 'END';
  target_id: number;
  values: Record<string, unknown>;
  label: string;
}
const PAYOUT_65: ChangeRow = {
  rule_table: 'payout_rule',
  action: 'REPLACE',
  target_id: 1,
  values: { gradeId: 1, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '65', effectiveFrom: '2025-01-01' },
  label: 'payout_rule #1 60 -> 65',
};
// override rule 1 (FC -> TM leader, no cap) 5 % -> 6 % from 2025-01-01
const OVERRIDE_6: ChangeRow = {
  rule_table: 'override_rule',
  action: 'REPLACE',
  target_id: 1,
  values: { overridePct: '6', effectiveFrom: '2025-01-01' },
  label: 'override_rule #1 5 -> 6',
};

async function createWithChanges(scope: { type: 'ALL' | 'ORG'; orgId?: number }, changes: ChangeRow[]) {
  const sim = await h.db
    .insertInto('simulation')
    .values({ name: 'two changes', base_month: MONTH, scope_type: scope.type, scope_org_id: scope.orgId ?? null, scope_agent_ids: [], status: 'QUEUED' })
    .returning('simulation_id')
    .executeTakeFirstOrThrow();
  await h.db
    .insertInto('simulation_change')
    .values(changes.map((c, i) => ({ ...c, simulation_id: sim.simulation_id, seq: i + 1, values: JSON.stringify(c.values) })))
    .execute();
  return sim.simulation_id;
}

async function amountsMoved(simulationId: number): Promise<(string | null)[]> {
  const rows = await h.db.selectFrom('simulation_change').select('amount_moved').where('simulation_id', '=', simulationId).orderBy('seq').execute();
  return rows.map((r) => r.amount_moved);
}

// Both changes, whatever their order (the per-agent result does not depend on it):
//  override rule 1 at 6 %: 1001's base 15113.34 x 6 % = 906.8004 -> 906.80; 1008's base 1560.00 -> 93.60
//  1003: 906.80 + 30.00 + 264.00 + 93.60 = 1294.40 (+214.40); tax 1294.40 x 3.3 % = 42.7152 -> 42.72; net 1251.68
//  the others as with the payout change alone; total difference 1063.41 + 166.73 = 1230.14
const BOTH = ALL.map((x) => (x.agent_id === 1003 ? r(1003, '1080.00', '1294.40', '214.40', '1044.36', '1251.68') : x));

describe('a simulation of several changes, amount moved per change', () => {
  it('attributes payout then override: 1063.41 by the payout change, 166.73 by the override on top of it', async () => {
    // payout alone (ALL above): 833.34 + 47.67 + 2.40 + 60.00 + 120.00 = 1063.41
    // override 5 -> 6 % on the bases after the payout change: 1001 906.80 - 755.67 = 151.13, 1008 93.60 - 78.00 = 15.60
    const before = await checksums();
    const one = await createWithChanges({ type: 'ALL' }, [PAYOUT_65]);
    await runSimulation({ db: h.db, connectionString: h.tdb.url, logger }, one);
    const id = await createWithChanges({ type: 'ALL' }, [PAYOUT_65, OVERRIDE_6]);

    await runSimulation({ db: h.db, connectionString: h.tdb.url, logger }, id);

    const sim = await h.db.selectFrom('simulation').selectAll().where('simulation_id', '=', id).executeTakeFirstOrThrow();
    expect(sim.error_message).toBeNull();
    expect(sim.status).toBe('DONE');
    expect(await amountsMoved(one)).toEqual(['1063.41']);
    expect(await amountsMoved(id)).toEqual(['1063.41', '166.73']);
    expect(await results(id)).toEqual(BOTH);
    const summary = await summaryOf(h.db, id);
    expect(summary.totals.grossDiff).toBe('1230.14');
    expect(summary.changes.map((c) => [c.ruleTable, c.amountMoved])).toEqual([
      ['payout_rule', '1063.41'],
      ['override_rule', '166.73'],
    ]);
    // progress counts both runs: twice the work units of the one-change simulation
    const single = await h.db.selectFrom('simulation').selectAll().where('simulation_id', '=', one).executeTakeFirstOrThrow();
    expect(single.processed).toBe(single.total);
    expect(sim.processed).toBe(sim.total);
    expect(sim.total).toBe(2 * single.total);
    expect(await checksums()).toEqual(before);
  });

  it('attributes in seq order: the override first moves 157.20, the payout on top of it 1072.94, same total', async () => {
    // override alone, on the real bases: 1001 14280.00 x 6 % = 856.80 - 714.00 = 142.80; 1008 1440.00 x 6 % = 86.40 - 72.00 = 14.40
    // payout on top: 833.34 + 60.00 + 120.00 on the FC agents; override 1 at 6 %: 906.80 - 856.80 = 50.00 and
    //   93.60 - 86.40 = 7.20; override 2 of 1008 (2 %, cap 100): 31.20 - 28.80 = 2.40 -> 1072.94
    const before = await checksums();
    const id = await createWithChanges({ type: 'ALL' }, [OVERRIDE_6, PAYOUT_65]);
    await runSimulation({ db: h.db, connectionString: h.tdb.url, logger }, id);
    expect(await amountsMoved(id)).toEqual(['157.20', '1072.94']);
    expect(await results(id)).toEqual(BOTH);
    expect((await summaryOf(h.db, id)).totals.grossDiff).toBe('1230.14');
    expect(await checksums()).toEqual(before);
  });

  it('scoped to an organization, attributes only the scope: 1005 (outside org 110) is not counted', async () => {
    // payout change without 1005's +60.00: 1003.41; override change: 166.73 (1005 has no receiver)
    const id = await createWithChanges({ type: 'ORG', orgId: 110 }, [PAYOUT_65, OVERRIDE_6]);
    await runSimulation({ db: h.db, connectionString: h.tdb.url, logger }, id);
    expect(await amountsMoved(id)).toEqual(['1003.41', '166.73']);
    expect(await results(id)).toEqual(BOTH.filter((x) => x.agent_id !== 1005));
    expect((await summaryOf(h.db, id)).totals.grossDiff).toBe('1170.14');
  });
});
