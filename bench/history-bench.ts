/**
 * Years of history (issue 27): BENCH_MONTHS consecutive months settled one after the other on one generated
 * book (the demo generator of settlement-bench.ts), by the step worker processes. Per month: the whole run,
 * calcMaintain, the month's ledger rows, and list latency (first page and page BENCH_DEEP_PAGE, p95 of
 * BENCH_ROUNDS) of the maintain ledger, the settle list and the accounting entries for the month just settled
 * (latest) and for the first month, asked of the services in process (app.inject, no gateway). Ends with the
 * checksum line of the settlement totals (every month's settle rows, gross and net, ledger rows and amounts):
 * the same book and months give the same line whatever the storage does.
 *   pnpm exec tsx bench/history-bench.ts                                  (from the repo root)
 * Env: BENCH_MONTHS (12), BENCH_AGENTS (10000), BENCH_CONTRACTS (1000000), BENCH_SEED (bench), BENCH_TODAY (today),
 *      BENCH_DB (csp_bench_history), BENCH_BASE_URL, REDIS_URL with BENCH_REDIS_DB (14), BENCH_KEEP=1 keeps the
 *      database, BENCH_ROUNDS (10), BENCH_DEEP_PAGE (500).
 * Targets: month N whole run <= 1.1 x month 1 (and calcMaintain alike); every list's first page p95 < 150 ms and
 * page 500 p95 < 300 ms for the latest and the first month.
 */
import { readFileSync } from 'node:fs';
import { runFromSource } from './lib/run-from-source.js';
import { loadAverage, processCpuSeconds } from './lib/telemetry-cpu.js';
import {
  benchRedisUrl,
  clearSettlementQueues,
  runMonth,
  seconds,
  settlementWorkers,
} from './lib/settlement-workers.js';

await runFromSource(import.meta.url, main);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function addMonths(month: string, n: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(4)) - 1 + n;
  return `${Math.floor(index / 12)}${String((index % 12) + 1).padStart(2, '0')}`;
}

async function main(): Promise<void> {
  const { createDb, createPool, migrate, ensureAdminUser } = await import('../packages/db/src/index.js');
  const { createQueues } = await import('../packages/batch/src/index.js');
  const { generateDemoBook } = await import('../packages/demo-data/src/generate.js');
  const { loadServiceConfig, signAccessToken, createLogger } = await import('../packages/service-kit/src/index.js');
  const { createRequire } = await import('node:module');
  const { Redis } = createRequire(new URL('../services/auth-platform/package.json', import.meta.url))('ioredis') as typeof import('ioredis');

  const MONTHS = Number(process.env.BENCH_MONTHS ?? 12);
  const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
  const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 1_000_000);
  const SEED = process.env.BENCH_SEED ?? 'bench';
  const TODAY = process.env.BENCH_TODAY ?? new Date().toISOString().slice(0, 10);
  const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_history';
  const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const REDIS_URL = benchRedisUrl('14');
  const KEEP = process.env.BENCH_KEEP === '1';
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
  const DEEP = Number(process.env.BENCH_DEEP_PAGE ?? 500);
  if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`);
  const log = (msg: string) => console.log(`[bench] ${msg}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${DB_NAME}`;
  const dbUrl = url.toString();

  const admin = createPool({ connectionString: BASE_URL, max: 1 });
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const pool = createPool({ connectionString: dbUrl, max: 4, applicationName: 'history-bench' });
  const db = createDb(pool);
  await migrate(pool);
  const book = await generateDemoBook(pool, { agents: AGENTS, contracts: CONTRACTS, seed: SEED, today: TODAY });
  const last = book.lastClosedMonth;
  const months = Array.from({ length: MONTHS }, (_, i) => addMonths(last, i - MONTHS + 1));
  log(`book: ${book.agents} agents, ${book.contracts} contracts, generated in ${seconds(book.timings.totalMs)}; months ${months[0]} .. ${months.at(-1)}`);
  await ensureAdminUser(db, { password: `bench-${Date.now()}` });

  // ---- the two services whose lists are measured, in process -----------------------------------------------
  const apps: Array<{ inject: (o: { method: 'GET'; url: string; headers: Record<string, string> }) => Promise<{ statusCode: number }>; close: () => Promise<unknown> }> = [];
  const redisClients: Array<{ disconnect: () => void }> = [];
  const byService: Record<string, (typeof apps)[number]> = {};
  let signer: unknown;
  for (const [name, module] of [
    ['ledger-settlement', '../services/ledger-settlement/src/app.js'],
    ['payment-tax', '../services/payment-tax/src/app.js'],
  ] as const) {
    const { buildApp } = (await import(module)) as { buildApp: (deps: unknown) => Promise<any> };
    const config = loadServiceConfig(name, {}, { NODE_ENV: 'test', DATABASE_URL: dbUrl, REDIS_URL, LOG_LEVEL: 'warn' });
    const svcPool = createPool({ connectionString: dbUrl, max: 4, applicationName: `history-bench-${name}` });
    const redis = new Redis(REDIS_URL, { keyPrefix: 'bench-history:', maxRetriesPerRequest: null });
    redisClients.push(redis);
    const app = await build(buildApp, { config, db: createDb(svcPool), pool: svcPool, redis, logger: createLogger({ name, level: 'warn' }), batchPrefix: 'bench-history' });
    apps.push(app);
    byService[name] = app;
    signer ??= app;
  }
  async function build(buildApp: (deps: unknown) => Promise<any>, deps: unknown) {
    const app = await buildApp(deps);
    await app.ready();
    return app;
  }
  const who = await pool.query<{ user_id: number; login_id: string; user_name: string }>(
    `SELECT u.user_id, u.login_id, u.user_name FROM users u JOIN user_role ur ON ur.user_id = u.user_id
       JOIN role r ON r.role_id = ur.role_id WHERE r.role_code = 'SUPER_ADMIN' ORDER BY u.user_id LIMIT 1`,
  );
  const u = who.rows[0]!;
  const token = signAccessToken(signer as never, { userId: u.user_id, loginId: u.login_id, userName: u.user_name, roleCodes: ['SUPER_ADMIN'], agentId: null });
  const headers = { authorization: `Bearer ${token}` };
  const LISTS: Array<[string, string]> = [
    ['ledger-settlement', '/api/ledger/maintain'],
    ['ledger-settlement', '/api/settle'],
    ['payment-tax', '/api/accounting-entries'],
  ];
  /** p95 (ms) of the first page and of page DEEP of each list for one month: the worst list of each. */
  async function listP95(month: string): Promise<{ first: number; deep: number; detail: string[] }> {
    let first = 0;
    let deep = 0;
    const detail: string[] = [];
    for (const [service, path] of LISTS) {
      const app = byService[service]!;
      const p95Of = async (query: string) => {
        const target = `${path}?pageSize=20&settleMonth=${month}${query}`;
        const warm = await app.inject({ method: 'GET', url: target, headers });
        if (warm.statusCode !== 200) throw new Error(`${target}: HTTP ${warm.statusCode}`);
        const times: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          const started = performance.now();
          await app.inject({ method: 'GET', url: target, headers });
          times.push(performance.now() - started);
        }
        return percentile(times.sort((x, y) => x - y), 95);
      };
      const f = await p95Of('');
      const d = await p95Of(`&pageNum=${DEEP}`);
      first = Math.max(first, f);
      deep = Math.max(deep, d);
      detail.push(`${path} ${f.toFixed(0)}/${d.toFixed(0)}`);
    }
    return { first, deep, detail };
  }

  // ---- the months, one after the other -----------------------------------------------------------------------
  const workers = settlementWorkers({ databaseUrl: dbUrl, redisUrl: REDIS_URL });
  const queues = createQueues(REDIS_URL);
  await clearSettlementQueues(queues);
  const table: string[] = [];
  const results: Array<{ month: string; runMs: number; maintainMs: number; cpuS: number; ledgerRows: number; maintainRows: number }> = [];
  /** CPU seconds so far of the worker processes and of this database's PostgreSQL backends (those alive now). */
  const backendPids = async () =>
    (await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [DB_NAME])).rows.map((r) => r.pid);
  const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0);
  const machineCpu = () => {
    // /proc/stat first line: user nice system idle iowait irq softirq ...; busy = all but idle and iowait.
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return (f.reduce((a, b) => a + b, 0) - f[3]! - f[4]!) / 100;
  };
  try {
    for (const service of ['intake', 'ledger-settlement', 'payment-tax']) await workers.start(service);
    for (const month of months) {
      const workerPids = workers.started.map((w) => w.child.pid!).filter(Boolean);
      const pgBefore = new Map((await backendPids()).map((pid) => [pid, processCpuSeconds(pid) ?? 0]));
      const workersBefore = cpuOf(workerPids);
      const machineBefore = machineCpu();
      const { status, wallMs } = await runMonth(db, queues, month, month);
      const workersCpu = cpuOf(workerPids) - workersBefore;
      const machineBusy = machineCpu() - machineBefore;
      // Backends that started during the run count from zero; those that ended during it are lost (pools keep theirs).
      const pgCpu = (await backendPids()).reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0) - (pgBefore.get(pid) ?? 0), 0);
      const load = loadAverage();
      const runMs = Number(status.run.durationMs ?? wallMs);
      const maintainMs = Number(status.steps.find((s) => s.stepName === 'calcMaintain')?.durationMs ?? 0);
      await pool.query('ANALYZE');
      const rows = await pool.query<{ n: number }>(
        `SELECT ((SELECT count(*) FROM recruit_ledger WHERE settle_month = $1) + (SELECT count(*) FROM maintain_ledger WHERE settle_month = $1))::int AS n`,
        [month],
      );
      const latest = await listP95(month);
      const first = month === months[0] ? latest : await listP95(months[0]!);
      const maintainRows = Number(status.steps.find((st) => st.stepName === 'calcMaintain')?.successCount ?? 0);
      results.push({ month, runMs, maintainMs, cpuS: workersCpu + pgCpu, ledgerRows: rows.rows[0]!.n, maintainRows });
      const line =
        `| ${month} | ${rows.rows[0]!.n} | ${seconds(runMs)} | ${seconds(maintainMs)} | ` +
        `${workersCpu.toFixed(1)} + ${pgCpu.toFixed(1)} s | ${machineBusy.toFixed(0)} s | ${load} | ` +
        `${latest.first.toFixed(0)} / ${latest.deep.toFixed(0)} | ${first.first.toFixed(0)} / ${first.deep.toFixed(0)} |`;
      table.push(line);
      // Where a month's time goes: growth with equal rows is storage; growth with the rows is the book's work.
      const stepLine = status.steps
        .filter((st) => Number(st.durationMs ?? 0) >= 50)
        .map((st) => `${st.stepName} ${seconds(Number(st.durationMs))} (${st.successCount} rows)`)
        .join(', ');
      log(`month ${month} steps: ${stepLine}`);
      log(`month ${month}: whole run ${seconds(runMs)}, calcMaintain ${seconds(maintainMs)}, CPU workers ${workersCpu.toFixed(1)} s + postgres ${pgCpu.toFixed(1)} s, machine busy ${machineBusy.toFixed(0)} CPU-s, load ${load}; lists (first/page ${DEEP} p95 ms) latest ${latest.detail.join(', ')}; first month ${first.detail.join(', ')}`);
    }
  } finally {
    await workers.stopAll();
    await clearSettlementQueues(queues);
    await queues.close();
  }

  console.log(
    `\n| month | ledger rows | whole run | calcMaintain | run CPU workers + postgres | machine busy CPU | load avg 1/5/15 | ` +
      `latest month lists p95 first / page ${DEEP} ms | first month lists p95 first / page ${DEEP} ms |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const line of table) console.log(line);
  const one = results[0]!;
  const n = results.at(-1)!;
  log(
    `month ${results.length} / month 1: whole run x${(n.runMs / one.runMs).toFixed(2)}, calcMaintain x${(n.maintainMs / one.maintainMs).toFixed(2)} ` +
      `(target <= 1.10) ${n.runMs <= 1.1 * one.runMs ? 'OK' : 'MISSED'}; run CPU (workers + postgres) x${(n.cpuS / one.cpuS).toFixed(2)}`,
  );
  // The generated book grows every month (new business: the month's ledger rows rise ~2.4 % a month), so part of
  // month N's time is more work, not older storage; per ledger row is the storage's share.
  const perRow = (ms: number, rows: number) => ms / Math.max(rows, 1);
  log(
    `per ledger row, month ${results.length} / month 1 (book ${n.ledgerRows} / ${one.ledgerRows} rows = x${(n.ledgerRows / one.ledgerRows).toFixed(2)}): ` +
      `whole run x${(perRow(n.runMs, n.ledgerRows) / perRow(one.runMs, one.ledgerRows)).toFixed(2)}, ` +
      `calcMaintain x${(perRow(n.maintainMs, n.maintainRows) / perRow(one.maintainMs, one.maintainRows)).toFixed(2)}`,
  );
  const sums = await pool.query<{ months: number; rows: number; gross: string; net: string; ledger: number; amount: string }>(
    `SELECT count(DISTINCT settle_month)::int AS months, count(*)::int AS rows, sum(gross_amount)::text AS gross,
            sum(net_amount)::text AS net,
            ((SELECT count(*) FROM recruit_ledger) + (SELECT count(*) FROM maintain_ledger))::int AS ledger,
            ((SELECT coalesce(sum(agent_amount), 0) FROM recruit_ledger) + (SELECT coalesce(sum(agent_amount), 0) FROM maintain_ledger))::text AS amount
       FROM settle_master`,
  );
  const s = sums.rows[0]!;
  log(`checksum: months ${s.months}, settle rows ${s.rows}, gross ${s.gross}, net ${s.net}, ledger rows ${s.ledger}, ledger agent_amount ${s.amount}`);

  for (const app of apps) await app.close();
  for (const r of redisClients) r.disconnect();
  await db.destroy();
  if (!KEEP) await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
  process.exit(0);
}
