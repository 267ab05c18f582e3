/**
 * Overhead of metrics and tracing (issue 25) on the monthly settlement run: the same month of one demo
 * book is run alternately by worker processes with telemetry off and on (OTEL_TRACES_EXPORTER=memory:
 * every span kept in an in-memory exporter behind the batch processor OTLP uses; METRICS_PORT set and
 * /metrics scraped every second, 15 x Prometheus' interval), side by side in one bench. Per run: the
 * run's duration (job log) and the CPU time the three worker processes spent during it (from /proc:
 * steadier than wall time on a shared machine); the best run of each mode is compared.
 *   pnpm exec tsx bench/telemetry-overhead-bench.ts            (from the repo root)
 * Env: BENCH_AGENTS (2000), BENCH_CONTRACTS (200000), BENCH_ROUNDS (2: off/on pairs), BENCH_DB
 *      (csp_bench_telemetry, dropped at the end unless BENCH_KEEP=1), BENCH_BASE_URL, REDIS_URL / BENCH_REDIS_DB (14),
 *      BENCH_CPU_PROF=<dir> (V8 CPU profiles of every worker of every run, written when it stops),
 *      BENCH_METRICS_OUT=<file> (one more run with telemetry on, with the ledger-settlement service: /metrics of
 *      the service and of its step worker while the run is RUNNING, written to the file).
 * Target: the whole run with telemetry within 5 % of the run without.
 */
import { ROOT, runFromSource, SOURCE_NODE_ARGS } from './lib/run-from-source.js';
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { benchRedisUrl, clearSettlementQueues, runMonth, seconds, settlementWorkers } from './lib/settlement-workers.js';
import { cpuProfileArgs, loadAverage, processCpuSeconds } from './lib/telemetry-cpu.js';

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
    const PROF = process.env.BENCH_CPU_PROF;
    const METRICS_OUT = process.env.BENCH_METRICS_OUT;
    interface Run {
      ms: number;
      /** CPU seconds of the three worker processes between the launch and the end of the run */
      cpu: number;
    }
    async function oneRun(mode: 'off' | 'on', label: string): Promise<Run> {
      // one launcher per service: each writes its CPU profiles into its own folder
      const workers = SERVICES.map((service) =>
        settlementWorkers({
          databaseUrl: url.toString(),
          redisUrl: REDIS_URL,
          nodeArgs: cpuProfileArgs(PROF, `${label.replace(/\W+/g, '-')}-${mode}-${service}`),
        }),
      );
      const metricsPorts = SERVICES.map((_, i) => 19_464 + i);
      let scrapes = 0;
      let scrapeBytes = 0;
      let scraping = true;
      let scraper: Promise<void> = Promise.resolve();
      try {
        for (const [i, service] of SERVICES.entries()) {
          await workers[i]!.start(
            service,
            mode === 'on' ? { OTEL_TRACES_EXPORTER: 'memory', METRICS_PORT: String(metricsPorts[i]), METRICS_HOST: '127.0.0.1' } : {},
          );
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
        const cpuOf = () => workers.flatMap((w) => w.started).reduce((sum, w) => sum + (processCpuSeconds(w.child.pid) ?? NaN), 0);
        const cpuBefore = cpuOf();
        const { status, wallMs } = await runMonth(db, queues, month, label);
        const cpu = cpuOf() - cpuBefore;
        const ms = Number(status.run.durationMs ?? wallMs);
        const rows = status.steps.reduce((sum, s) => sum + Number(s.successCount ?? 0), 0);
        log(
          `${label} telemetry ${mode.padEnd(3)}: whole run ${seconds(ms)}, workers' CPU ${cpu.toFixed(2)} s (${rows} rows)` +
            `${mode === 'on' ? `, ${scrapes} scrapes, ${Math.round(scrapeBytes / Math.max(scrapes, 1) / 1024)} KiB avg` : ''}; load ${loadAverage()}`,
        );
        return { ms, cpu };
      } finally {
        scraping = false;
        await scraper.catch(() => {});
        await Promise.all(workers.map((w) => w.stopAll()));
      }
    }

    // A first run warms the book (statistics, caches), then off/on pairs alternate (which goes first alternates too).
    await oneRun('off', 'warm-up');
    const off: Run[] = [];
    const on: Run[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const mode of round % 2 === 1 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        (mode === 'off' ? off : on).push(await oneRun(mode, `round ${round}`));
      }
    }
    const best = (xs: Run[]) => ({ ms: Math.min(...xs.map((x) => x.ms)), cpu: Math.min(...xs.map((x) => x.cpu)) });
    const b = { off: best(off), on: best(on) };
    const overhead = b.on.ms / b.off.ms - 1;
    const cpuOverhead = b.on.cpu / b.off.cpu - 1;
    const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
    console.log('');
    console.log(`settlement run telemetry overhead: ${AGENTS} agents / ${CONTRACTS} contracts, ${ROUNDS} rounds, best of each mode; load avg now ${loadAverage()}`);
    console.log('  mode            whole run   workers CPU');
    console.log(`  telemetry off  ${seconds(b.off.ms).padStart(9)}  ${`${b.off.cpu.toFixed(2)} s`.padStart(11)}`);
    console.log(`  telemetry on   ${seconds(b.on.ms).padStart(9)}  ${`${b.on.cpu.toFixed(2)} s`.padStart(11)}`);
    console.log(`  difference     ${pct(overhead).padStart(9)}  ${pct(cpuOverhead).padStart(11)}`);
    log(`whole run overhead ${pct(overhead)} (target <= 5 %) ${overhead <= 0.05 ? 'OK' : 'OVER'}; workers' CPU ${pct(cpuOverhead)}`);
    log(`all runs: off [${off.map((r) => `${seconds(r.ms)}/${r.cpu.toFixed(2)} s CPU`).join(', ')}], on [${on.map((r) => `${seconds(r.ms)}/${r.cpu.toFixed(2)} s CPU`).join(', ')}]`);

    if (METRICS_OUT) {
      await captureMetrics(METRICS_OUT);
      log(`/metrics of the ledger-settlement service and its step worker during one more run (telemetry on): ${METRICS_OUT}`);
    }

    /**
     * The must-show excerpt (issue 25): one more run with telemetry on, outside the comparison, with the
     * ledger-settlement service process next to the workers (its watchdog reads the queues, its relay the
     * outbox) and its run status polled over HTTP as the web page does; the last scrape of the service and
     * of the ledger-settlement worker taken while the run was RUNNING goes to `file`.
     */
    async function captureMetrics(file: string): Promise<void> {
      const workers = settlementWorkers({ databaseUrl: url.toString(), redisUrl: REDIS_URL });
      const telemetry = { OTEL_TRACES_EXPORTER: 'memory', METRICS_HOST: '127.0.0.1' };
      const SERVICE_PORT = 18_104;
      const ports = { service: 19_470, worker: 19_471 };
      const service = spawn(process.execPath, [...SOURCE_NODE_ARGS, 'services/ledger-settlement/src/server.ts'], {
        cwd: ROOT,
        env: { ...process.env, ...telemetry, NODE_ENV: 'development', LOG_LEVEL: 'warn', PORT: String(SERVICE_PORT), HOST: '127.0.0.1',
          METRICS_PORT: String(ports.service), DATABASE_URL: url.toString(), REDIS_URL },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        // at LOG_LEVEL=warn the "listener ready" line is not printed: wait until the ops port answers
        let out = '';
        const collect = (d: Buffer) => void (out = (out + d.toString()).slice(-4000));
        service.stdout!.on('data', collect);
        service.stderr!.on('data', collect);
        for (let waited = 0; ; waited += 250) {
          if (service.exitCode !== null) throw new Error(`ledger-settlement service exited (${service.exitCode}): ${out}`);
          if (await fetch(`http://127.0.0.1:${ports.service}/metrics`).then(() => true, () => false)) break;
          if (waited > 120_000) throw new Error(`ledger-settlement service did not start: ${out}`);
          await new Promise((r) => setTimeout(r, 250));
        }
        await workers.start('intake', telemetry);
        await workers.start('ledger-settlement', { ...telemetry, METRICS_PORT: String(ports.worker) });
        await workers.start('payment-tax', telemetry);
        await clearMonth();
        const token = devAccessToken(await benchAdmin());
        // the scrape with the deepest step queues (the latest of equals): the moment worth showing
        const kept = { service: '', worker: '', waiting: -1 };
        const waitingJobs = (text: string) =>
          [...text.matchAll(/^csp_batch_queue_jobs\{step="\w+",state="waiting"\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
        let running = true;
        const poller = (async () => {
          while (running) {
            const status = await fetch(`http://127.0.0.1:${SERVICE_PORT}/api/batch/settlement/status`, { headers: { authorization: `Bearer ${token}` } });
            await status.arrayBuffer();
            const [serviceText, workerText] = await Promise.all(
              [ports.service, ports.worker].map(async (port) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text()),
            );
            const waiting = waitingJobs(serviceText);
            if (running && waiting >= kept.waiting) Object.assign(kept, { service: serviceText, worker: workerText, waiting });
            await new Promise((r) => setTimeout(r, 1000));
          }
        })();
        const { status } = await runMonth(db, queues, month, 'capture');
        running = false;
        await poller;
        writeFileSync(
          file,
          `### ledger-settlement service /metrics (scrape while run ${status.run.jobLogId} was RUNNING, ${kept.waiting} step jobs waiting)\n${kept.service}\n` +
            `### ledger-settlement step worker /metrics (same moment)\n${kept.worker}`,
        );
      } finally {
        await workers.stopAll();
        await new Promise<void>((resolve) => {
          if (service.exitCode !== null) return resolve();
          service.once('exit', () => resolve());
          service.kill('SIGTERM');
        });
      }
    }

    /** An active SUPER_ADMIN user of the bench database (the services check the user behind a token). */
    async function benchAdmin(): Promise<number> {
      await pool.query(`INSERT INTO role (role_code, role_name) VALUES ('SUPER_ADMIN', 'SUPER_ADMIN') ON CONFLICT (role_code) DO NOTHING`);
      const { rows } = await pool.query<{ user_id: number }>(
        `INSERT INTO users (login_id, password, user_name, status) VALUES ('bench_admin', '!', 'Bench admin', 'ACTIVE')
         ON CONFLICT (login_id) DO UPDATE SET status = 'ACTIVE' RETURNING user_id`,
      );
      const userId = rows[0]!.user_id;
      await pool.query(
        `INSERT INTO user_role (user_id, role_id) SELECT $1, role_id FROM role WHERE role_code = 'SUPER_ADMIN' ON CONFLICT (user_id, role_id) DO NOTHING`,
        [userId],
      );
      return userId;
    }

    /** A SUPER_ADMIN access token signed with the services' development JWT secret (NODE_ENV=development). */
    function devAccessToken(userId: number): string {
      const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: String(userId), uid: userId, loginId: 'bench_admin', userName: 'Bench admin', roleCodes: ['SUPER_ADMIN'], agentId: null, typ: 'access', iat: now, exp: now + 3600 })}`;
      return `${body}.${createHmac('sha256', process.env.JWT_SECRET ?? 'dev-only-jwt-secret-not-for-production-0123456789').update(body).digest('base64url')}`;
    }
  } finally {
    await queues.close();
    await pool.end();
    if (process.env.BENCH_KEEP !== '1') await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.end();
  }
  void ROOT;
}
