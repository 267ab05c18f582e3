/**
 * What-if simulation (issue 26) against the real month run, side by side in one bench run, on the demo book:
 *   warm-up  one real run of the month (the book arrives without ledger rows);
 *   then BENCH_ROUNDS (2) rounds, alternating: the real run of the month (worker processes, one per service,
 *   one worker per step), a whole-book simulation (payout +5 points for grade 1), an org-scoped simulation (the
 *   largest top-level organization's subtree).
 * Printed per round: wall time; CPU seconds of the node process doing the work (real: the ledger-settlement
 * worker's ledger steps, from /proc; simulation: this process, process.cpuUsage); PostgreSQL's CPU is not
 * separable from the other work on the machine and is not counted on either side.
 * The real side is the sum of the ledger steps 4-9 (what the simulation runs); the whole run is printed too.
 * Target: whole-book simulation <= 1.5 x the real ledger steps; the org-scoped one proportionally less.
 * BENCH_ATTRIBUTION=1 adds per round a whole-book simulation of two changes (the payout change, then grade 2's rule
 * of the same type and year +5 points): the steps run once per change for the amount moved per change, so about
 * twice the one-change time; its amounts are printed and checked to add up to the gross difference.
 *   pnpm exec tsx bench/simulation-bench.ts            (from the repo root)
 * Env: BENCH_AGENTS (2000), BENCH_CONTRACTS (200000; the issue's book is 1000000 x 10000), BENCH_SEED (bench),
 *      BENCH_DB (csp_hs_bench_simulation), BENCH_BASE_URL, REDIS_URL + BENCH_REDIS_DB (14), BENCH_KEEP=1 keeps the db,
 *      BENCH_ROUNDS (2).
 */
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { runFromSource } from './lib/run-from-source.js';
import { benchRedisUrl, clearSettlementQueues, runMonth, seconds, settlementWorkers } from './lib/settlement-workers.js';

const LEDGER_STEPS = ['calcRecruit', 'calcMaintain', 'calcOtherCommission', 'chargebackException', 'calcOverride', 'aggregate'];

await runFromSource(import.meta.url, main);


function cpuSeconds(child: ChildProcess): number {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const { createDb, createPool, migrate } = await import('../packages/db/src/index.js');
  const { createQueues } = await import('../packages/batch/src/index.js');
  const { generateDemoBook } = await import('../packages/demo-data/src/generate.js');
  const { runSimulation } = await import('../services/ledger-settlement/src/simulations/simulation.job.js');
  const { createLogger } = await import('../packages/service-kit/src/index.js');

  const AGENTS = Number(process.env.BENCH_AGENTS ?? 2_000);
  const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 200_000);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
  const DB_NAME = process.env.BENCH_DB ?? 'csp_hs_bench_simulation';
  const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const REDIS_URL = benchRedisUrl('14');
  if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`);
  const log = (msg: string) => console.log(`[bench] ${msg}`);

  const admin = createPool({ connectionString: BASE_URL, max: 1 });
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${DB_NAME}`;
  const dbUrl = url.toString();
  const pool = createPool({ connectionString: dbUrl, max: 4, applicationName: 'simulation-bench' });
  const db = createDb(pool);
  await migrate(pool);
  const book = await generateDemoBook(pool, {
    agents: AGENTS,
    contracts: CONTRACTS,
    seed: process.env.BENCH_SEED ?? 'bench',
    today: process.env.BENCH_TODAY ?? new Date().toISOString().slice(0, 10),
  });
  const month = book.lastClosedMonth;
  log(`demo book: ${book.agents} agents, ${book.contracts} contracts, month ${month}, loaded in ${seconds(book.timings.totalMs)}`);
  log(`machine: ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')} load (1/5/15 min), ${(await import('node:os')).cpus().length} cores`);

  // the proposed change: payout +5 points for every grade-1 row; the org scope: the largest top-level org's subtree
  const { rows: target } = await pool.query<{ rule_id: number; payout_pct: string; insurance_type: string; commission_year: number; effective_from: string }>(
    `SELECT rule_id, payout_pct::text, insurance_type, commission_year, effective_from::text FROM payout_rule
      WHERE grade_id = (SELECT min(grade_id) FROM grade) AND effective_to IS NULL ORDER BY rule_id LIMIT 1`,
  );
  const rule = target[0]!;
  const ATTRIBUTION = process.env.BENCH_ATTRIBUTION === '1';
  const { rows: target2 } = await pool.query<{ rule_id: number; grade_id: number; payout_pct: string; effective_from: string }>(
    `SELECT rule_id, grade_id, payout_pct::text, effective_from::text FROM payout_rule
      WHERE grade_id > (SELECT min(grade_id) FROM grade) AND insurance_type = $1 AND commission_year = $2 AND effective_to IS NULL
      ORDER BY grade_id, rule_id LIMIT 1`,
    [rule.insurance_type, rule.commission_year],
  );
  const changes = [{ ...rule, grade_id: 1 }, ...(ATTRIBUTION && target2[0] ? [target2[0]] : [])].map((r, i) => ({
    seq: i + 1,
    rule_table: 'payout_rule',
    action: 'REPLACE' as const,
    target_id: r.rule_id,
    values: JSON.stringify({
      gradeId: r.grade_id,
      insuranceType: rule.insurance_type,
      commissionYear: rule.commission_year,
      payoutPct: (Number(r.payout_pct) + 5).toFixed(2),
      // from the day after the rule starts: every contract priced by it from then on
      effectiveFrom: new Date(Date.parse(r.effective_from) + 86_400_000).toISOString().slice(0, 10),
    }),
    label: `bench ${i + 1}`,
  }));
  const { rows: orgs } = await pool.query<{ org_id: number; n: string }>(
    `WITH RECURSIVE t AS (SELECT org_id AS root, org_id FROM organization
         WHERE parent_org_id IN (SELECT org_id FROM organization WHERE parent_org_id IS NULL)
       UNION ALL SELECT t.root, o.org_id FROM t JOIN organization o ON o.parent_org_id = t.org_id)
     SELECT root AS org_id, count(a.agent_id)::text AS n FROM t JOIN agent a ON a.org_id = t.org_id GROUP BY root ORDER BY count(a.agent_id) DESC LIMIT 1`,
  );
  const org = orgs[0]!;
  log(`change: payout_rule ${rule.rule_id} (${rule.insurance_type} year ${rule.commission_year}) ${rule.payout_pct} % -> +5 points; org scope ${org.org_id} (a second-level subtree) with ${org.n} agents`);

  async function newSimulation(scope: 'ALL' | 'ORG', changeCount: number): Promise<number> {
    const sim = await db
      .insertInto('simulation')
      .values({ name: `bench ${scope}`, base_month: month, scope_type: scope, scope_org_id: scope === 'ORG' ? org.org_id : null, status: 'QUEUED' })
      .returning('simulation_id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('simulation_change')
      .values(changes.slice(0, changeCount).map((c) => ({ ...c, simulation_id: sim.simulation_id })))
      .execute();
    return sim.simulation_id;
  }

  const workers = settlementWorkers({ databaseUrl: dbUrl, redisUrl: REDIS_URL });
  const queues = createQueues(REDIS_URL);
  await clearSettlementQueues(queues);
  const logger = createLogger({ name: 'simulation-bench', level: 'warn' });
  const rows: { round: number; what: string; wallMs: number; cpuS: number; note: string }[] = [];
  try {
    for (const service of ['intake', 'ledger-settlement', 'payment-tax']) await workers.start(service, { SIMULATION_WORKER: 'false' });
    const ledgerWorker = workers.started.find((w) => w.name === 'ledger-settlement')!.child;
    log('warm-up: real run of the month');
    await runMonth(db, queues, month, 'warm-up');

    for (let round = 1; round <= ROUNDS; round++) {
      const cpu0 = cpuSeconds(ledgerWorker);
      const real = await runMonth(db, queues, month, `real ${round}`);
      const cpuReal = cpuSeconds(ledgerWorker) - cpu0;
      const ledgerMs = real.status.steps.filter((s) => LEDGER_STEPS.includes(s.stepName)).reduce((a, s) => a + Number(s.durationMs ?? 0), 0);
      rows.push({ round, what: 'real: ledger steps 4-9', wallMs: ledgerMs, cpuS: cpuReal, note: `whole run ${seconds(Number(real.status.run.durationMs ?? real.wallMs))}` });

      const runs = [['ALL', 1], ['ORG', 1], ...(changes.length > 1 ? [['ALL', changes.length]] : [])] as const;
      for (const [scope, changeCount] of runs) {
        const id = await newSimulation(scope, changeCount);
        const c0 = process.cpuUsage();
        const t0 = Date.now();
        const timings = await runSimulation({ db, connectionString: dbUrl, logger }, id);
        const wallMs = Date.now() - t0;
        const c = process.cpuUsage(c0);
        const sim = await db.selectFrom('simulation').select(['status', 'error_message']).where('simulation_id', '=', id).executeTakeFirstOrThrow();
        if (sim.status !== 'DONE') throw new Error(`simulation ${id} ${sim.status}: ${sim.error_message}`);
        const { rows: t } = await pool.query<{ n: string; up: string; diff: string }>(
          `SELECT count(*)::text AS n, count(*) FILTER (WHERE gross_after > gross_before)::text AS up,
                  sum(gross_after - gross_before)::text AS diff FROM simulation_agent_result WHERE simulation_id = $1`,
          [id],
        );
        let moved = '';
        if (changeCount > 1) {
          const { rows: m } = await pool.query<{ amounts: string; adds_up: boolean }>(
            `SELECT string_agg(amount_moved::text, ' + ' ORDER BY seq) AS amounts,
                    sum(amount_moved) = (SELECT sum(gross_after - gross_before) FROM simulation_agent_result WHERE simulation_id = $1) AS adds_up
             FROM simulation_change WHERE simulation_id = $1`,
            [id],
          );
          if (!m[0]!.adds_up) throw new Error(`simulation ${id}: amounts moved ${m[0]!.amounts} do not add up to ${t[0]!.diff}`);
          moved = `moved ${m[0]!.amounts}; `;
        }
        const what = changeCount > 1 ? `simulation ${scope} ${changeCount} chg` : `simulation ${scope}`;
        rows.push({ round, what, wallMs, cpuS: (c.user + c.system) / 1e6, note: `${t[0]!.n} agents, ${t[0]!.up} up, gross diff ${t[0]!.diff}; ${moved}` + Object.entries(timings).map(([k, v]) => `${k} ${seconds(v)}`).join(', ') });
      }
    }
  } finally {
    await workers.stopAll();
    await queues.close();
  }

  console.log('\n  round  what                       wall       node CPU   note');
  for (const r of rows) {
    console.log(`  ${String(r.round).padStart(5)}  ${r.what.padEnd(25)}  ${seconds(r.wallMs).padStart(8)}  ${r.cpuS.toFixed(1).padStart(8)} s  ${r.note}`);
  }
  const best = (what: string, pick: (r: (typeof rows)[number]) => number) => Math.min(...rows.filter((r) => r.what === what).map(pick));
  const realWall = best('real: ledger steps 4-9', (r) => r.wallMs);
  const allWall = best('simulation ALL', (r) => r.wallMs);
  const orgWall = best('simulation ORG', (r) => r.wallMs);
  const realCpu = best('real: ledger steps 4-9', (r) => r.cpuS);
  const allCpu = best('simulation ALL', (r) => r.cpuS);
  const orgCpu = best('simulation ORG', (r) => r.cpuS);
  log(`best of ${ROUNDS}: whole-book simulation / real ledger steps: wall x${(allWall / realWall).toFixed(2)}, node CPU x${(allCpu / realCpu).toFixed(2)} (target <= 1.5) ${allWall <= 1.5 * realWall ? 'OK' : 'MISSED'}`);
  log(`best of ${ROUNDS}: org-scoped (${org.n} agents) / real: wall x${(orgWall / realWall).toFixed(2)}, node CPU x${(orgCpu / realCpu).toFixed(2)}`);
  if (changes.length > 1) {
    const twoWall = best(`simulation ALL ${changes.length} chg`, (r) => r.wallMs);
    log(`best of ${ROUNDS}: whole-book, ${changes.length} changes (one run each) / one change: wall x${(twoWall / allWall).toFixed(2)}; / real: x${(twoWall / realWall).toFixed(2)}`);
  }
  log(`load now: ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  await pool.end();
  if (process.env.BENCH_KEEP !== '1') await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
}
