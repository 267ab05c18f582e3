/**
 * Monthly settlement batch on a generated book: 10,000 agents, 1,000,000 contracts (demo generator),
 * one month run by worker processes (each service's src/worker.ts: one BullMQ worker per step):
 *   run 0  the first run on the freshly loaded book (cold: empty ledger tables without statistics);
 *   run 1  the month recomputed from scratch (its output deleted, tables analyzed): the target figures;
 *   floor  one set-based INSERT ... SELECT of as many ledger rows into a scratch copy of maintain_ledger;
 *   run 2  like run 1 with a second calcMaintain worker process: the speed-up of that step.
 *   pnpm exec tsx bench/settlement-bench.ts            (from the repo root)
 * Env: BENCH_AGENTS (10000), BENCH_CONTRACTS (1000000), BENCH_SEED (bench), BENCH_TODAY (today, UTC),
 *      BENCH_DB (csp_bench_settlement), BENCH_BASE_URL (postgres://postgres@127.0.0.1:5432/postgres),
 *      REDIS_URL (redis://127.0.0.1:6379) with BENCH_REDIS_DB (15): the queues live in that Redis database
 *      under BullMQ's default prefix (the ledger worker takes no prefix); its settlement queues are obliterated.
 *      BENCH_KEEP=1 keeps the database; BENCH_REUSE=1 reuses its book (BENCH_MONTH: run that month of it); BENCH_QUICK=1 runs only run 1 and the floor;
 *      BENCH_WORKER_NODE_ARGS adds node options to the worker processes (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 * Targets: whole run < 90 s with one worker per step; run / floor <= 3; a second calcMaintain worker helps.
 * The demo book carries the rules of every commission type (issue 16), so calcOtherCommission does real work:
 * its time, its rows per type and the whole run against 1.5 x 22 s (the run before the step existed) are printed.
 *
 * Linearity (issue 10): BENCH_COMPARE=1 runs run 1 on two books one after the other (BENCH_COMPARE_BOOKS,
 * default "1000000x10000,5000000x50000": contracts x agents; databases csp_bench_settle_<contracts>, kept and
 * reused when present) and prints both books' step tables side by side with the ratios. Targets for 5x the book:
 * the whole run <= 5.5 x the small book's, each step <= 6 x (scaled with the books' ratio for other sizes).
 * BENCH_COMPARE_REPEAT (1): runs per book; each step and the whole run then count with their fastest run.
 * BENCH_RESULT_FILE: where a run writes its step durations as JSON (used by the compare mode).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ROOT, runFromSource } from './lib/run-from-source.js';
import {
  benchRedisUrl,
  clearMonth,
  clearSettlementQueues,
  printSteps,
  runMonth as runSettlementMonth,
  seconds,
  settlementWorkers,
} from './lib/settlement-workers.js';

const SELF = fileURLToPath(import.meta.url);

await runFromSource(import.meta.url, () => (process.env.BENCH_COMPARE === '1' ? compare() : main()));

/** What one run 1 wrote to BENCH_RESULT_FILE. */
interface RunResult {
  contracts: number;
  agents: number;
  runMs: number;
  steps: { stepName: string; ms: number; skipped: boolean }[];
}

/** Each step's and the whole run's fastest figure over repeated runs of one book. */
function fastestOf(runs: RunResult[]): RunResult {
  const first = runs[0]!;
  return {
    ...first,
    runMs: Math.min(...runs.map((r) => r.runMs)),
    steps: first.steps.map((step) => ({
      ...step,
      ms: Math.min(...runs.map((r) => r.steps.find((x) => x.stepName === step.stepName)?.ms ?? step.ms)),
    })),
  };
}

/** BENCH_COMPARE=1: run 1 on each book of BENCH_COMPARE_BOOKS (a child process each), then the side-by-side table. */
async function compare(): Promise<void> {
  const { mkdtempSync, readFileSync: read } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const books = (process.env.BENCH_COMPARE_BOOKS ?? '1000000x10000,5000000x50000').split(',').map((b) => {
    const [contracts, agents] = b.split('x').map(Number);
    if (!Number.isSafeInteger(contracts) || !Number.isSafeInteger(agents)) throw new Error(`bad book ${b}`);
    return { contracts: contracts!, agents: agents! };
  });
  if (books.length !== 2) throw new Error('BENCH_COMPARE_BOOKS names two books');
  const dir = mkdtempSync(join(tmpdir(), 'settlement-bench-'));
  const results: RunResult[] = [];
  // BENCH_COMPARE_REPEAT: runs of each book; each step and the whole run count with their fastest run (the one
  // least disturbed by the machine: on 2 shared cores one run of the 1M book varies by about 10 %).
  const repeat = Math.max(1, Number(process.env.BENCH_COMPARE_REPEAT ?? 1));
  for (const book of books) {
    const runs: RunResult[] = [];
    for (let n = 1; n <= repeat; n++) {
      const file = join(dir, `${book.contracts}-${n}.json`);
      console.log(`[bench] ---- book of ${book.contracts} contracts and ${book.agents} agents, run ${n} of ${repeat} ----`);
      const code = await new Promise<number>((resolve) => {
        const child = spawn(process.execPath, process.execArgv.concat(SELF), {
          cwd: ROOT,
          stdio: 'inherit',
          env: {
            ...process.env,
            BENCH_COMPARE: '0',
            BENCH_CONTRACTS: String(book.contracts),
            BENCH_AGENTS: String(book.agents),
            BENCH_DB: process.env.BENCH_DB_PREFIX ? `${process.env.BENCH_DB_PREFIX}_${book.contracts}` : `csp_bench_settle_${book.contracts}`,
            BENCH_KEEP: '1',
            BENCH_REUSE: '1',
            BENCH_QUICK: '1',
            BENCH_RESULT_FILE: file,
          },
        });
        child.on('exit', (c) => resolve(c ?? 1));
      });
      if (code !== 0) throw new Error(`the bench of ${book.contracts} contracts failed (${code})`);
      runs.push(JSON.parse(read(file, 'utf8')) as RunResult);
    }
    if (repeat > 1) {
      console.log(`[bench] whole runs of the ${book.contracts}-contract book: ${runs.map((r) => `${(r.runMs / 1000).toFixed(1)} s`).join(', ')}`);
    }
    results.push(fastestOf(runs));
  }
  const [small, large] = results as [RunResult, RunResult];
  const scale = large.contracts / small.contracts;
  const limits = { run: 1.1 * scale, step: 1.2 * scale };
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const ratioOf = (a: number, b: number) => (a > 0 ? b / a : 0);
  console.log(
    `[bench] linearity: ${large.contracts} contracts / ${large.agents} agents against ${small.contracts} / ${small.agents} ` +
      `(x${scale}); targets: whole run <= x${limits.run.toFixed(1)}, each step <= x${limits.step.toFixed(1)}`,
  );
  console.log(`  step                      ${String(small.contracts).padStart(9)}  ${String(large.contracts).padStart(9)}    ratio`);
  let missed = 0;
  for (const step of small.steps) {
    const other = large.steps.find((x) => x.stepName === step.stepName);
    if (!other || (step.skipped && other.skipped)) continue;
    const ratio = ratioOf(step.ms, other.ms);
    const ok = ratio <= limits.step;
    if (!ok) missed++;
    console.log(
      `  ${step.stepName.padEnd(24)}  ${s(step.ms).padStart(9)}  ${s(other.ms).padStart(9)}  ${('x' + ratio.toFixed(2)).padStart(7)}  ${ok ? 'OK' : 'MISSED'}`,
    );
  }
  const runRatio = ratioOf(small.runMs, large.runMs);
  console.log(
    `  ${'whole run'.padEnd(24)}  ${s(small.runMs).padStart(9)}  ${s(large.runMs).padStart(9)}  ${('x' + runRatio.toFixed(2)).padStart(7)}  ${runRatio <= limits.run ? 'OK' : 'MISSED'}`,
  );
  console.log(`[bench] steps over x${limits.step.toFixed(1)}: ${missed}`);
}

async function main(): Promise<void> {
  const { createDb, createPool, migrate } = await import('../packages/db/src/index.js');
  const { createQueues } = await import('../packages/batch/src/index.js');
  const { generateDemoBook } = await import('../packages/demo-data/src/generate.js');

  const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
  const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 1_000_000);
  const SEED = process.env.BENCH_SEED ?? 'bench';
  const TODAY = process.env.BENCH_TODAY ?? new Date().toISOString().slice(0, 10);
  const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_settlement';
  const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const REDIS_URL = benchRedisUrl('15');
  const KEEP = process.env.BENCH_KEEP === '1';
  const REUSE = process.env.BENCH_REUSE === '1';
  const QUICK = process.env.BENCH_QUICK === '1';
  const TARGET = { runSeconds: 90, floorRatio: 3, withOtherTypesSeconds: 1.5 * 22 };
  if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`);

  const log = (msg: string) => console.log(`[bench] ${msg}`);
  const dbUrl = (name: string) => {
    const url = new URL(BASE_URL);
    url.pathname = `/${name}`;
    return url.toString();
  };

  // ---- database and book ---------------------------------------------------------------------
  const admin = createPool({ connectionString: BASE_URL, max: 1 });
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount! > 0;
  if (exists && !REUSE) await admin.query(`DROP DATABASE ${DB_NAME} WITH (FORCE)`);
  if (!exists || !REUSE) await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const url = dbUrl(DB_NAME);
  const pool = createPool({ connectionString: url, max: 4, applicationName: 'settlement-bench' });
  const db = createDb(pool);
  await migrate(pool);
  const agentsPresent = Number((await pool.query('SELECT count(*) AS n FROM agent')).rows[0].n);
  let month: string;
  if (REUSE && agentsPresent > 0) {
    const { rows } = await pool.query(`SELECT to_char(max(contract_date), 'YYYYMM') AS m FROM contract`);
    // BENCH_MONTH: another month of the same book (e.g. the month after, to scan a retroactive rule revision)
    month = process.env.BENCH_MONTH ?? rows[0].m;
    log(`reusing the book in ${DB_NAME} (${agentsPresent} agents), month ${month}`);
  } else {
    const book = await generateDemoBook(pool, {
      agents: AGENTS,
      contracts: CONTRACTS,
      seed: SEED,
      today: TODAY,
    });
    month = book.lastClosedMonth;
    log(
      `demo book: ${book.agents} agents, ${book.contracts} contracts (${book.lapses} lapsed, ${book.successions} successions) ` +
        `generated and loaded in ${seconds(book.timings.totalMs)} (contracts ${seconds(book.timings.contractsMs)})`,
    );
  }

  // ---- worker processes ----------------------------------------------------------------------
  const workers = settlementWorkers({
    databaseUrl: url,
    redisUrl: REDIS_URL,
    nodeArgs: (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean),
  });
  /** CPU seconds (user + system) a child has used so far, from /proc (Linux; 100 ticks per second). */
  const cpuSeconds = (child: ChildProcess): number => {
    try {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return 0;
    }
  };
  const cpuOfWorkers = () => new Map(workers.started.map(({ child }) => [child, cpuSeconds(child)]));
  const printCpu = (before: Map<ChildProcess, number>, wallMs: number) => {
    const parts = workers.started.map(
      ({ name, child }) => `${name} ${(cpuSeconds(child) - (before.get(child) ?? 0)).toFixed(1)} s`,
    );
    log(`worker CPU during the run (wall ${seconds(wallMs)}): ${parts.join(', ')}`);
  };

  const queues = createQueues(REDIS_URL);
  await clearSettlementQueues(queues);
  try {
    for (const service of ['intake', 'ledger-settlement', 'payment-tax']) await workers.start(service);
    log(
      `workers: intake, ledger-settlement, payment-tax (one process each, one worker per step, concurrency 1)`,
    );

    /**
     * Where the ledger workers' database sessions spend the run: pg_stat_activity sampled every 100 ms,
     * by state (active / idle in transaction = the worker computing inside its chunk transaction / idle),
     * wait event and statement.
     */
    function sampleSessions() {
      const counts = new Map<string, number>();
      let total = 0;
      let stopped = false;
      const loop = (async () => {
        while (!stopped) {
          const { rows } = await pool.query<{ label: string }>(
            `SELECT state || coalesce(' / ' || wait_event_type || ':' || wait_event, '') ||
                    CASE WHEN state = 'active' THEN ' / ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 70) ELSE '' END AS label
               FROM pg_stat_activity
              WHERE datname = current_database() AND application_name = 'ledger-settlement-worker' AND state <> 'idle'`,
          );
          for (const r of rows) counts.set(r.label, (counts.get(r.label) ?? 0) + 1);
          total += 1;
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      return async () => {
        stopped = true;
        await loop;
        const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
        log(`ledger worker sessions, share of ${total} samples (busy sessions only):`);
        for (const [label, n] of top)
          console.log(`  ${((n * 100) / total).toFixed(0).padStart(3)} %  ${label}`);
      };
    }

    /** The month run to its end, with the worker processes' CPU and the ledger sessions sampled meanwhile. */
    async function runMonth(label: string) {
      const cpuBefore = cpuOfWorkers();
      const stopSampling = sampleSessions();
      let result: Awaited<ReturnType<typeof runSettlementMonth>>;
      try {
        result = await runSettlementMonth(db, queues, month, label);
      } finally {
        await stopSampling();
      }
      printCpu(cpuBefore, result.wallMs);
      return result;
    }

    /** calcOtherCommission's time and what it wrote, per type, with the month's other_total. */
    async function printOtherCommission(status: Awaited<ReturnType<typeof runMonth>>['status']): Promise<void> {
      const step = status.steps.find((s) => s.stepName === 'calcOtherCommission');
      const { rows } = await pool.query<{ commission_type: string; n: string; amount: string }>(
        `SELECT commission_type, count(*) AS n, sum(agent_amount)::text AS amount FROM other_commission_ledger
          WHERE settle_month = $1 GROUP BY commission_type ORDER BY commission_type`,
        [month],
      );
      const { rows: totals } = await pool.query<{ other: string; master: string; incentives: string }>(
        `SELECT (SELECT coalesce(sum(other_total), 0)::text FROM settle_master WHERE settle_month = $1) AS other,
                (SELECT count(*)::text FROM commission_master WHERE settle_month = $1) AS master,
                (SELECT count(*)::text FROM incentive_result WHERE settle_month = $1 AND status = 'APPROVED') AS incentives`,
        [month],
      );
      log(
        `calcOtherCommission: ${seconds(Number(step?.durationMs ?? 0))}, ${step?.successCount ?? 0} rows in ${step?.chunkCount ?? 0} chunks: ` +
          rows.map((r) => `${r.commission_type} ${r.n} (${r.amount})`).join(', '),
      );
      log(
        `other_total of the month ${totals[0]!.other}; commission_master rows ${totals[0]!.master}; approved incentive results ${totals[0]!.incentives}`,
      );
      // The month's totals, to check that a change of how a step reads or writes leaves every amount as it was.
      const { rows: sums } = await pool.query<{ rows: string; gross: string; net: string; override: string; os_linked: string }>(
        `SELECT count(*)::text AS rows, sum(gross_amount)::text AS gross, sum(net_amount)::text AS net, sum(override_total)::text AS override,
                (SELECT count(*) FROM override_settle o WHERE o.settle_month = $1 AND o.settle_id IS NOT NULL)::text AS os_linked
           FROM settle_master WHERE settle_month = $1`,
        [month],
      );
      log(
        `settle_master of the month: ${sums[0]!.rows} rows, gross ${sums[0]!.gross}, net ${sums[0]!.net}, override ${sums[0]!.override}; override rows linked ${sums[0]!.os_linked}`,
      );
    }

    // ---- run 0: the first run on a freshly loaded book (ledger tables empty, no statistics) ------
    if (!QUICK) {
      log(`run 0 (cold: first run into empty ledger tables): settle month ${month}`);
      const cold = await runMonth('run 0');
      printSteps(cold.status, 'rates');
      log(`whole run 0: ${seconds(Number(cold.status.run.durationMs ?? cold.wallMs))}`);
    }

    // ---- run 1: one worker per step, the month recomputed from scratch on analyzed tables -------
    await clearMonth(pool, month);
    log('run 1 (one worker per step; the month from scratch, tables analyzed)');
    const one = await runMonth('run 1');
    printSteps(one.status, 'rates');
    const runMs = Number(one.status.run.durationMs ?? one.wallMs);
    log(
      `whole run 1: ${seconds(runMs)} (target < ${TARGET.runSeconds} s) ${runMs < TARGET.runSeconds * 1000 ? 'OK' : 'MISSED'}; ` +
        `with the other commission types on: target < ${TARGET.withOtherTypesSeconds} s ${runMs < TARGET.withOtherTypesSeconds * 1000 ? 'OK' : 'MISSED'}`,
    );
    await printOtherCommission(one.status);
    if (process.env.BENCH_RESULT_FILE) {
      const { writeFileSync } = await import('node:fs');
      const result: RunResult = {
        contracts: Number((await pool.query('SELECT count(*) AS n FROM contract')).rows[0].n),
        agents: agentsPresent || AGENTS,
        runMs,
        steps: one.status.steps.map((x) => ({ stepName: x.stepName, ms: Number(x.durationMs ?? 0), skipped: Boolean(x.skipped) })),
      };
      writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(result));
    }

    // ---- floor ---------------------------------------------------------------------------------
    const { rows: counts } = await pool.query(
      `SELECT (SELECT count(*) FROM recruit_ledger WHERE settle_month = $1) + (SELECT count(*) FROM maintain_ledger WHERE settle_month = $1) AS n`,
      [month],
    );
    const ledgerRows = Number(counts[0].n);
    await pool.query('DROP TABLE IF EXISTS bench_floor_ledger');
    await pool.query('CREATE TABLE bench_floor_ledger (LIKE maintain_ledger INCLUDING ALL)');
    // LIKE copies no foreign keys: add maintain_ledger's so the floor checks what the real insert checks.
    const { rows: fks } = await pool.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = 'maintain_ledger'::regclass AND contype = 'f' ORDER BY conname`,
    );
    for (const fk of fks) await pool.query(`ALTER TABLE bench_floor_ledger ADD ${fk.def}`);
    const floorStarted = performance.now();
    await pool.query(
      `INSERT INTO bench_floor_ledger (contract_id, agent_id, policy_no, company_code, product_code, insurance_type, commission_year,
         premium, pay_method, company_rate, company_amount, payout_rate, agent_amount, tax_amount, settle_month, calc_basis)
       SELECT c.contract_id, c.agent_id, c.policy_no, ic.company_code, p.product_code, p.insurance_type, 2, c.premium, c.pay_cycle,
              10, round(c.premium * 10 / 100, 2), 50, round(round(c.premium * 10 / 100, 2) * 50 / 100, 2),
              round(round(round(c.premium * 10 / 100, 2) * 50 / 100, 2) * 3.3 / 100, 2), $1,
              jsonb_build_object('step', 'calcMaintain', 'rateDate', c.contract_date, 'commissionYear', 2, 'premium', c.premium,
                                 'companyRate', jsonb_build_object('ratePct', '10'), 'payoutRule', jsonb_build_object('payoutPct', '50'))
         FROM contract c JOIN product p ON p.product_id = c.product_id JOIN insurance_company ic ON ic.company_id = p.company_id
        ORDER BY c.contract_id
        LIMIT $2`,
      [month, ledgerRows],
    );
    const floorMs = performance.now() - floorStarted;
    await pool.query('DROP TABLE bench_floor_ledger');
    const ledgerStepsMs = one.status.steps
      .filter((s) => s.stepName === 'calcRecruit' || s.stepName === 'calcMaintain')
      .reduce((sum, s) => sum + Number(s.durationMs ?? 0), 0);
    log(
      `floor: one INSERT ... SELECT of ${ledgerRows} ledger rows into a scratch copy of maintain_ledger: ${seconds(floorMs)}`,
    );
    log(
      `ratio: whole run / floor = ${(runMs / floorMs).toFixed(2)} (target <= ${TARGET.floorRatio}) ${runMs / floorMs <= TARGET.floorRatio ? 'OK' : 'MISSED'}; ` +
        `calcRecruit + calcMaintain / floor = ${(ledgerStepsMs / floorMs).toFixed(2)}`,
    );

    // ---- run 2: a second calcMaintain worker -----------------------------------------------------
    if (QUICK) return;
    await clearMonth(pool, month);
    await workers.start('ledger-settlement', { BATCH_STEPS: 'calcMaintain' });
    log('run 2: the same month from scratch with a second calcMaintain worker process');
    const two = await runMonth('run 2');
    printSteps(two.status, 'rates');
    const maintainOf = (s: typeof one.status) =>
      Number(s.steps.find((x) => x.stepName === 'calcMaintain')!.durationMs ?? 0);
    const m1 = maintainOf(one.status);
    const m2 = maintainOf(two.status);
    log(
      `calcMaintain (run 1 vs run 2): 1 worker ${seconds(m1)}, 2 workers ${seconds(m2)}, speed-up x${(m1 / m2).toFixed(2)} ` +
        `${m2 < m1 ? 'OK' : 'MISSED'}; whole run 2: ${seconds(Number(two.status.run.durationMs ?? two.wallMs))}`,
    );
  } finally {
    await workers.stopAll();
    await clearSettlementQueues(queues);
    await queues.close();
    await db.destroy();
    if (!KEEP) {
      await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
      log(`dropped ${DB_NAME}`);
    }
    await admin.end();
  }
}
