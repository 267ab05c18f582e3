/**
 * Analytics on the 1,000,000-contract book after a month's settlement run:
 *   1. the KPI refresh of the settled month (agent rows, chargeback exposure over every in-force contract,
 *      organization roll-ups, year-to-date rows, 13/25-month retention of the cohorts measured in the
 *      month with anomaly detection): the first refresh and a repeat (target < 10 s);
 *   2. p50/p95 of every analytics endpoint through the gateway (real analytics and gateway processes,
 *      sequential requests after a warm-up; target p95 < 200 ms), and one report export.
 *   pnpm exec tsx bench/analytics-bench.ts            (from the repo root)
 * The book: BENCH_DB (csp_bench_analytics) must hold a settled month. When it does not exist, this script
 * first runs bench/settlement-bench.ts into it (BENCH_KEEP=1 BENCH_QUICK=1: demo book of BENCH_AGENTS /
 * BENCH_CONTRACTS, one run, queues in Redis database BENCH_REDIS_DB, default 11); a book without a settled
 * month is settled the same way (BENCH_REUSE=1). Several minutes on a shared 2-core machine.
 * BENCH_DROP=1 drops the database at the end (kept by default: it is costly to build).
 * Env: BENCH_BASE_URL (postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL, BENCH_ANALYTICS_PORT (18106),
 *      BENCH_GATEWAY_PORT (18080), BENCH_REQUESTS (50 per endpoint), BENCH_WARMUP (5).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { ROOT, SOURCE_NODE_ARGS, runFromSource } from './lib/run-from-source.js';
import { waitHealthy } from './lib/wait-healthy.js';

await runFromSource(import.meta.url, main);

interface EndpointResult {
  name: string;
  method: string;
  url: string;
  status: number;
  p50: number;
  p95: number;
  max: number;
}

async function main(): Promise<void> {
  const { createDb, createPool, ensureAdminUser, migrate } = await import('../packages/db/src/index.js');
  const { refreshMonth } = await import('../services/analytics/src/refresh/refresh.service.js');
  const { shiftSettleMonth } = await import('../packages/domain/src/index.js');

  const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_analytics';
  const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const ANALYTICS_PORT = Number(process.env.BENCH_ANALYTICS_PORT ?? 18106);
  const GATEWAY_PORT = Number(process.env.BENCH_GATEWAY_PORT ?? 18080);
  const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50);
  const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
  const TARGET = { refreshSeconds: 10, p95Ms: 200 };
  const JWT_SECRET = randomBytes(32).toString('hex');
  const ENCRYPT_KEY = randomBytes(16).toString('hex');
  if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`);

  const log = (msg: string) => console.log(`[bench] ${msg}`);
  const dbUrl = (name: string) => {
    const url = new URL(BASE_URL);
    url.pathname = `/${name}`;
    return url.toString();
  };

  // ---- the book ------------------------------------------------------------------------------
  const admin = createPool({ connectionString: BASE_URL, max: 1 });
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount === 1;
  await admin.end();
  const pool = createPool({ connectionString: dbUrl(DB_NAME), max: 4, applicationName: 'analytics-bench' });
  const settledMonth = async () =>
    (await pool.query<{ settle_month: string; n: number }>(
      `SELECT settle_month, count(*)::int AS n FROM settle_master GROUP BY settle_month ORDER BY settle_month DESC LIMIT 1`,
    )).rows[0];
  if (!exists || !(await settledMonth())) {
    // settlement-bench's queues live in one Redis database under BullMQ's default prefix: a database of
    // their own keeps them apart from another bench running at the same time.
    const settle = { BENCH_DB: DB_NAME, BENCH_KEEP: '1', BENCH_QUICK: '1', BENCH_REDIS_DB: process.env.BENCH_REDIS_DB ?? '11' };
    if (exists) {
      // a book without a settled month (an interrupted build): settle it, after failing a run left active
      await pool.query(`UPDATE batch_job_log SET status = 'FAILED', error_message = 'abandoned (analytics-bench)' WHERE status IN ('REQUESTED', 'RUNNING')`);
      log(`${DB_NAME} has no settled month: running bench/settlement-bench.ts on its book (BENCH_REUSE=1)`);
      await runChild([...SOURCE_NODE_ARGS, 'bench/settlement-bench.ts'], { ...settle, BENCH_REUSE: '1' });
    } else {
      log(`${DB_NAME} does not exist: building the book with bench/settlement-bench.ts (BENCH_QUICK=1, BENCH_KEEP=1)`);
      await runChild([...SOURCE_NODE_ARGS, 'bench/settlement-bench.ts'], settle);
    }
  }
  const db = createDb(pool);
  await migrate(pool);
  const latest = await settledMonth();
  if (!latest) throw new Error(`${DB_NAME} has no settled month: drop it and run this script again`);
  const month = latest.settle_month;
  const { rows: sizes } = await pool.query<{ contracts: number; agents: number; orgs: number; ledger: number }>(
    `SELECT (SELECT count(*) FROM contract)::int AS contracts, (SELECT count(*) FROM agent)::int AS agents,
            (SELECT count(*) FROM organization)::int AS orgs,
            ((SELECT count(*) FROM recruit_ledger) + (SELECT count(*) FROM maintain_ledger))::int AS ledger`,
  );
  log(`book: ${JSON.stringify(sizes[0])}; settled month ${month} (${latest.n} settle rows)`);

  // ---- 1. KPI refresh ------------------------------------------------------------------------
  const refreshes = [];
  for (const label of ['first refresh', 'repeat refresh']) {
    const started = performance.now();
    const result = await refreshMonth(db, { settleMonth: month, trigger: 'MANUAL' });
    const ms = performance.now() - started;
    refreshes.push({ label, seconds: Number((ms / 1000).toFixed(2)), ...result });
    log(`${label}: ${(ms / 1000).toFixed(2)} s (agents ${result.agentRows}, orgs ${result.orgRows}, exposure ${result.exposureRows}, retention ${result.retentionRows}, alerts ${result.alertRows})`);
    log(`  parts (ms): ${JSON.stringify(result.timings)}`);
  }
  await pool.query('ANALYZE kpi_agent_monthly, kpi_org_monthly, kpi_chargeback_exposure, kpi_cumulative, kpi_retention');

  // ---- 2. endpoints through the gateway --------------------------------------------------------
  const { userId } = await ensureAdminUser(db, { password: randomBytes(12).toString('hex') });
  const token = accessToken(userId, JWT_SECRET);
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl(DB_NAME),
    REDIS_URL,
    JWT_SECRET,
    ENCRYPT_KEY,
    LOG_LEVEL: 'warn',
  };
  const children: ChildProcess[] = [];
  const start = (script: string, extra: Record<string, string>) => {
    const child = spawn(process.execPath, [...SOURCE_NODE_ARGS, script], { cwd: ROOT, env: { ...env, ...extra }, stdio: ['ignore', 'inherit', 'inherit'] });
    children.push(child);
    return child;
  };
  const results: EndpointResult[] = [];
  try {
    const analytics = start('services/analytics/src/server.ts', { PORT: String(ANALYTICS_PORT), KPI_REFRESH_POLL_MS: '0' });
    await waitHealthy(analytics, `http://127.0.0.1:${ANALYTICS_PORT}/api/health`, { timeoutMs: 90_000 });
    const gateway = start('services/gateway/src/server.ts', { PORT: String(GATEWAY_PORT), ANALYTICS_URL: `http://127.0.0.1:${ANALYTICS_PORT}` });
    await waitHealthy(gateway, `http://127.0.0.1:${GATEWAY_PORT}/api/health`, { anyAnswer: true, timeoutMs: 90_000 });
    const base = `http://127.0.0.1:${GATEWAY_PORT}`;

    const { rows: picks } = await pool.query<{ branch: number; agent_kpi_id: number; cohort13: string }>(
      `SELECT (SELECT org_id FROM organization WHERE org_type = 'BR' ORDER BY org_id LIMIT 1) AS branch,
              (SELECT agent_kpi_id FROM kpi_agent_monthly WHERE settle_month = $1 ORDER BY agent_kpi_id LIMIT 1) AS agent_kpi_id,
              $2::text AS cohort13`,
      [month, shiftSettleMonth(month, -13)],
    );
    const { branch, agent_kpi_id: agentKpiId, cohort13 } = picks[0]!;
    const m = `settleMonthFrom=${month}&settleMonthTo=${month}`;
    const endpoints: Array<{ name: string; method: 'GET' | 'POST'; url: string; body?: object }> = [
      { name: 'KPI monthly', method: 'GET', url: '/api/kpi/monthly' },
      { name: 'KPI organization (month)', method: 'GET', url: `/api/kpi/organization?${m}` },
      { name: 'KPI organization (branch subtree)', method: 'GET', url: `/api/kpi/organization?${m}&orgId=${branch}` },
      { name: 'KPI retention (cohort, orgs)', method: 'GET', url: `/api/kpi/retention?cohortMonthFrom=${cohort13}&cohortMonthTo=${cohort13}&scope=ORG` },
      { name: 'KPI cumulative (agents by gross)', method: 'GET', url: `/api/kpi/cumulative?settleMonth=${month}&scope=AGENT&sortField=grossTotal&sortOrder=DESC` },
      { name: 'KPI refreshes', method: 'GET', url: '/api/kpi/refreshes' },
      { name: 'agent summary (month)', method: 'GET', url: `/api/reports/agent-summary?${m}` },
      { name: 'agent summary (branch, grade 1)', method: 'GET', url: `/api/reports/agent-summary?${m}&orgId=${branch}&gradeId=1` },
      { name: 'agent summary (by net desc)', method: 'GET', url: `/api/reports/agent-summary?${m}&sortField=netAmount&sortOrder=DESC` },
      { name: 'agent summary (search)', method: 'GET', url: `/api/reports/agent-summary?${m}&searchKeyword=12` },
      { name: 'agent summary (detail)', method: 'GET', url: `/api/reports/agent-summary/${agentKpiId}` },
      { name: 'org summary (month)', method: 'GET', url: `/api/reports/org-summary?${m}` },
      { name: 'chargeback risk (by total risk)', method: 'GET', url: `/api/reports/chargeback-risk?${m}&sortField=totalRisk&sortOrder=DESC` },
      { name: 'chargeback risk by org', method: 'GET', url: `/api/reports/chargeback-risk/orgs?${m}` },
      { name: 'retention anomalies (open)', method: 'GET', url: '/api/retention-anomalies?status=OPEN' },
      { name: 'retention anomalies detect', method: 'POST', url: '/api/retention-anomalies/detect', body: { cohortMonth: cohort13, horizon: 13 } },
      { name: 'forecast generate (MA3, all orgs)', method: 'POST', url: '/api/forecast-kpi/generate', body: { baseMonth: month, method: 'MA3' } },
      { name: 'forecast list', method: 'GET', url: `/api/forecast-kpi?forecastMonthFrom=${shiftSettleMonth(month, 1)}` },
    ];
    for (const e of endpoints) {
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const t0 = performance.now();
        const res = await fetch(base + e.url, {
          method: e.method,
          headers: { authorization: `Bearer ${token}`, ...(e.body ? { 'content-type': 'application/json' } : {}) },
          ...(e.body ? { body: JSON.stringify(e.body) } : {}),
        });
        await res.arrayBuffer();
        status = res.status;
        if (i >= WARMUP) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const q = (p: number) => Number(times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!.toFixed(1));
      results.push({ name: e.name, method: e.method, url: e.url, status, p50: q(50), p95: q(95), max: q(100) });
      log(`${e.name.padEnd(36)} ${status}  p50 ${String(q(50)).padStart(7)} ms  p95 ${String(q(95)).padStart(7)} ms`);
    }

    const exportStarted = performance.now();
    const exported = await fetch(`${base}/api/reports/agent-summary/excel?${m}`, { headers: { authorization: `Bearer ${token}` } });
    const bytes = (await exported.arrayBuffer()).byteLength;
    log(`export agent summary of the month: HTTP ${exported.status}, ${bytes} bytes in ${((performance.now() - exportStarted) / 1000).toFixed(2)} s`);
  } finally {
    for (const child of children.reverse()) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await db.destroy();
    if (process.env.BENCH_DROP === '1') {
      const drop = createPool({ connectionString: BASE_URL, max: 1 });
      await drop.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
      await drop.end();
    }
  }

  const refreshOk = refreshes.every((r) => r.seconds < TARGET.refreshSeconds);
  const slow = results.filter((r) => r.p95 >= TARGET.p95Ms || r.status !== 200);
  console.log(
    JSON.stringify(
      {
        settleMonth: month,
        loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
        refresh: refreshes.map((r) => ({ label: r.label, seconds: r.seconds, timingsMs: r.timings })),
        endpoints: results.map(({ name, status, p50, p95, max }) => ({ name, status, p50, p95, max })),
        target: TARGET,
        withinTarget: refreshOk && slow.length === 0,
        missed: slow.map((r) => r.name),
      },
      null,
      2,
    ),
  );
  process.exitCode = refreshOk && slow.length === 0 ? 0 : 2;
}

function runChild(args: string[], extraEnv: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...extraEnv }, stdio: 'inherit' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.at(-1)} exited with ${code}`))));
  });
}

/** HS256 access token with the claims the service kit verifies (same secret as the servers). */
function accessToken(userId: number, secret: string): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const payload = { sub: String(userId), uid: userId, loginId: 'admin', userName: 'Administrator', roleCodes: ['SUPER_ADMIN'], agentId: null, typ: 'access', iat: now, exp: now + 3600 };
  const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}
