/**
 * Overhead of metrics and tracing (issue 25) on the monthly settlement run: the same month of one demo
 * book is run alternately by worker processes with telemetry off and on (OTEL_TRACES_EXPORTER=memory:
 * every span kept in an in-memory exporter; METRICS_PORT set and /metrics scraped every second, 15 x
 * Prometheus' interval), side by side in one bench, and the fastest run of each mode is compared.
 *   pnpm exec tsx bench/telemetry-overhead-bench.ts            (from the repo root)
 * Env: BENCH_AGENTS (2000), BENCH_CONTRACTS (200000), BENCH_ROUNDS (2: off/on pairs), BENCH_DB
 *      (csp_bench_telemetry, dropped at the end unless BENCH_KEEP=1), BENCH_BASE_URL, REDIS_URL / BENCH_REDIS_DB (14).
 * Target: the whole run with telemetry within 5 % of the run without.
 */
import { ROOT, runFromSource } from './lib/run-from-source.js';
import { benchRedisUrl, clearSettlementQueues, runMonth, seconds, settlementWorkers } from './lib/settlement-workers.js';

await runFromSource(import.meta.url, main);

async function main(): Promise<void> {
  const { createDb, createPool, migrate } = await import('../packages/db/src/index.js');
  const { createQueues } = await import('../packages/batch/src/index.js');
  const { generateDemoBook } = await import('../packages/demo-data/src/generate.js');
  const AGENTS = Number(process.env.BENCH_AGENTS ?? 2_000);
  const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 200_000);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
  const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_telemetry';
  const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const REDIS_URL = benchRedisUrl('14');
  const log = (msg: string) => console.log(`[telemetry-bench] ${msg}`);
  if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`);

  const admin = createPool({ connectionString: BASE_URL, max: 1 });
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const url = new URL(BASE_URL);
  url.pathname = `/${DB_NAME}`;
  const pool = createPool({ connectionString: url.toString(), max: 4, applicationName: 'telemetry-bench' });
  const db = createDb(pool);
  const queues = createQueues(REDIS_URL);
  try {
    await migrate(pool);
    const book = await generateDemoBook(pool, { agents: AGENTS, contracts: CONTRACTS, seed: 'bench', today: new Date().toISOString().slice(0, 10) });
    const month = book.lastClosedMonth;
    log(`demo book: ${book.agents} agents, ${book.contracts} contracts, month ${month}`);
    await clearSettlementQueues(queues);

    const clearMonth = async () => {
      for (const table of ['override_settle', 'settle_master', 'commission_master', 'other_commission_ledger', 'chargeback', 'maintain_ledger', 'recruit_ledger']) {
        await pool.query(`DELETE FROM ${table} WHERE settle_month = $1`, [month]);
      }
      await pool.query('DELETE FROM contract_accounting_entry WHERE settle_month = $1 AND journal_no IS NULL', [month]);
      await pool.query('VACUUM ANALYZE maintain_ledger, recruit_ledger, settle_master, override_settle, chargeback, contract_accounting_entry, other_commission_ledger, commission_master');
    };

    const SERVICES = ['intake', 'ledger-settlement', 'payment-tax'];
    async function oneRun(mode: 'off' | 'on', label: string): Promise<number> {
      const workers = settlementWorkers({ databaseUrl: url.toString(), redisUrl: REDIS_URL });
      const metricsPorts = SERVICES.map((_, i) => 19_464 + i);
      let scrapes = 0;
      let scrapeBytes = 0;
      let scraping = true;
      let scraper: Promise<void> = Promise.resolve();
      try {
        for (const [i, service] of SERVICES.entries()) {
          await workers.start(service, mode === 'on' ? { OTEL_TRACES_EXPORTER: 'memory', METRICS_PORT: String(metricsPorts[i]) } : {});
        }
        await clearMonth();
        if (mode === 'on') {
          scraper = (async () => {
            while (scraping) {
              for (const port of metricsPorts) {
                const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
                scrapes += 1;
                scrapeBytes += text.length;
              }
              await new Promise((r) => setTimeout(r, 1000));
            }
          })();
        }
        const { status, wallMs } = await runMonth(db, queues, month, label);
        const ms = Number(status.run.durationMs ?? wallMs);
        const rows = status.steps.reduce((sum, s) => sum + Number(s.successCount ?? 0), 0);
        log(`${label} telemetry ${mode.padEnd(3)}: whole run ${seconds(ms)} (${rows} rows)${mode === 'on' ? `, ${scrapes} scrapes, last ${Math.round(scrapeBytes / Math.max(scrapes, 1) / 1024)} KiB avg` : ''}`);
        return ms;
      } finally {
        scraping = false;
        await scraper.catch(() => {});
        await workers.stopAll();
      }
    }

    // A first run warms the book (statistics, caches), then off/on pairs alternate.
    await oneRun('off', 'warm-up');
    const off: number[] = [];
    const on: number[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      off.push(await oneRun('off', `round ${round}`));
      on.push(await oneRun('on', `round ${round}`));
    }
    const best = (xs: number[]) => Math.min(...xs);
    const overhead = best(on) / best(off) - 1;
    log(`fastest run: off ${seconds(best(off))}, on ${seconds(best(on))} -> overhead ${(overhead * 100).toFixed(1)} % (target <= 5 %) ${overhead <= 0.05 ? 'OK' : 'OVER'}`);
    log(`all runs: off [${off.map(seconds).join(', ')}], on [${on.map(seconds).join(', ')}]`);
  } finally {
    await queues.close();
    await pool.end();
    if (process.env.BENCH_KEEP !== '1') await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.end();
  }
  void ROOT;
}
