/**
 * Streaming export of 1,000,000 maintain-ledger rows: GET /api/ledger/maintain/excel against a real
 * ledger-settlement process, measuring wall time, the server's CPU and peak RSS (target < 20 s, < 250 MB).
 *   pnpm exec tsx bench/ledger-export-bench.ts            (from the repo root)
 * Env: BENCH_LEDGER_ROWS (1000000), BENCH_DB (csp_bench_ledger_export), BENCH_PORT (18104),
 *      BENCH_BASE_URL (postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL,
 *      BENCH_KEEP=1 keeps the database (and BENCH_REUSE=1 reuses its data on the next run),
 *      BENCH_CPU_PROF=<dir> writes the server's V8 CPU profile(s) under <dir>/<label>,
 *      BENCH_BASELINE_ROOT=<worktree of an older commit> (+ BENCH_BASELINE_LABEL, BENCH_ROUNDS) runs the same
 *      export from that checkout against the same database, alternating, and prints both rows and the ratios;
 *      or BENCH_BASELINE_ROW='{"label":..,"wallSeconds":..,"serverCpuSeconds":..,"peakRssMb":..}'.
 * The database is created by this script and dropped at the end unless BENCH_KEEP=1.
 */
import { randomBytes } from 'node:crypto';
import type * as Db from '../packages/db/src/index.js';
import { accessToken, compareExports, measureExport } from './lib/export-measure.js';
import { ROOT, runFromSource } from './lib/run-from-source.js';

const ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000);
const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_ledger_export';
const PORT = Number(process.env.BENCH_PORT ?? 18104);
const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEEP = process.env.BENCH_KEEP === '1';
const REUSE = process.env.BENCH_REUSE === '1';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const TARGET = { seconds: 20, rssMb: 250 };
const JWT_SECRET = randomBytes(32).toString('hex');
const ENCRYPT_KEY = randomBytes(16).toString('hex');

if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`);

const dbPackage = () => import('../packages/db/src/index.js');

function dbUrl(name: string): string {
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function log(msg: string): void {
  console.log(`[bench] ${msg}`);
}

async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await run();
  log(`${label}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

async function prepareDatabase(): Promise<number> {
  const { createDb, createPool, ensureAdminUser, migrate } = await dbPackage();
  const admin = createPool({ connectionString: BASE_URL, max: 1 });
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount === 1;
  const reuse = REUSE && exists;
  if (!reuse) {
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DB_NAME}`);
  }
  await admin.end();
  const pool = createPool({ connectionString: dbUrl(DB_NAME), max: 2 });
  try {
    // A reused database stays as it is: its data was made by this bench (the working tree's migrations may be mid-edit).
    if (!reuse) await timed('migrate', () => migrate(pool));
    const count = Number((await pool.query('SELECT count(*) AS n FROM maintain_ledger')).rows[0].n);
    if (reuse && count === ROWS) log(`reusing ${count.toLocaleString('en-US')} maintain-ledger rows`);
    else await timed(`generate ${ROWS.toLocaleString('en-US')} maintain-ledger rows`, () => generate(pool));
    const { userId } = await ensureAdminUser(createDb(pool), { password: randomBytes(12).toString('hex') });
    return userId;
  } finally {
    await pool.end();
  }
}

/** 2,000 agents and ROWS ledger rows of one month, set-based (foreign keys off: consistent by construction). */
async function generate(pool: ReturnType<typeof Db.createPool>): Promise<void> {
  await pool.query('TRUNCATE maintain_ledger, agent, organization RESTART IDENTITY CASCADE');
  await pool.query(`
    INSERT INTO organization (org_name, org_type, org_level) VALUES ('Bench HQ', 'HQ', 1);
    INSERT INTO agent (org_id, grade_id, agent_name, license_no, phone, join_date)
      SELECT 1, 1 + (a % 6), 'Agent ' || a, 'LIC-' || a, '010-0000-' || lpad((a % 10000)::text, 4, '0'), date '2015-01-01' + (a % 3000)
      FROM generate_series(1, 2000) a;`);
  const client = await pool.connect();
  try {
    await client.query('SET session_replication_role = replica');
    await client.query(
      `INSERT INTO maintain_ledger (contract_id, agent_id, policy_no, company_code, product_code, insurance_type, commission_year,
                                    premium, pay_method, company_rate, company_amount, payout_rate, agent_amount, tax_amount,
                                    reported_company_amount, reconcile_status, reconcile_diff, settle_month, status, calc_basis)
       SELECT i, 1 + (i % 2000), 'BENCH' || lpad(i::text, 9, '0'), 'BC' || (1 + i % 5), 'BP' || (1 + i % 50),
              (ARRAY['LIFE','NON_LIFE','ANNUITY','SAVINGS','HEALTH'])[1 + i % 5], 2 + i % 4,
              round((1000 + (i::bigint * 7919) % 300000)::numeric + (i % 100) / 100.0, 2), 'MONTHLY',
              (i % 400) / 100.0, round((1000 + (i::bigint * 7919) % 300000) * 0.05, 2), 60 + (i % 30),
              round((1000 + (i::bigint * 7919) % 300000) * 0.03, 2), round((1000 + (i::bigint * 7919) % 300000) * 0.001, 2),
              CASE WHEN i % 3 = 0 THEN round((1000 + (i::bigint * 7919) % 300000) * 0.05, 2) END,
              CASE WHEN i % 3 = 0 THEN 'MATCHED' ELSE 'PENDING' END, CASE WHEN i % 3 = 0 THEN 0 END,
              '202611', 'CALCULATED',
              CASE WHEN i % 50 = 0 THEN jsonb_build_object('succession', jsonb_build_object('fromAgentId', 1 + (i + 7) % 2000)) END
       FROM generate_series(1, $1::int) i`,
      [ROWS],
    );
  } finally {
    await client.query('RESET session_replication_role');
    client.release();
  }
  await pool.query('ANALYZE');
}

async function dropDatabase(): Promise<void> {
  const { createPool } = await dbPackage();
  const admin = createPool({ connectionString: BASE_URL, max: 1 });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

async function main(): Promise<void> {
  const userId = await prepareDatabase();
  const token = accessToken(JWT_SECRET, userId);
  const env = { DATABASE_URL: dbUrl(DB_NAME), REDIS_URL, JWT_SECRET, ENCRYPT_KEY, BATCH_PREFIX: `bench-ledger-export-${process.pid}` };
  const run = async (label: string, root: string) => {
    const figures = await measureExport({
      label,
      root,
      server: 'services/ledger-settlement/src/server.ts',
      port: PORT,
      env,
      path: '/api/ledger/maintain/excel',
      token,
      ...(CPU_PROF_DIR ? { cpuProfDir: `${CPU_PROF_DIR}/${label}` } : {}),
    });
    log(`${label}: ${JSON.stringify(figures)}`);
    return figures;
  };
  process.exitCode = await compareExports({
    rows: ROWS,
    target: TARGET,
    currentRoot: ROOT,
    run,
    cleanup: async () => {
      if (!KEEP) await dropDatabase();
    },
  });
}

runFromSource(import.meta.url, main).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
