/**
 * Streaming export of 1,000,000 contracts: GET /api/contracts/excel against a real master-data
 * process, measuring wall time, bytes and the server's peak RSS (target < 20 s, < 250 MB).
 *   pnpm exec tsx bench/contracts-export-bench.ts            (from the repo root)
 * Env: BENCH_CONTRACTS (1000000), BENCH_DB (csp_bench_export), BENCH_PORT (18102),
 *      BENCH_BASE_URL (postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL,
 *      BENCH_KEEP=1 keeps the database (and BENCH_REUSE=1 reuses its data on the next run),
 *      BENCH_CPU_PROF=<dir> writes the server's V8 CPU profile there (node --cpu-prof) when it exits,
 *      BENCH_BASELINE_ROOT=<worktree of an older commit> (+ BENCH_BASELINE_LABEL) runs the same export from
 *      that checkout against the same database, alternating with this one BENCH_ROUNDS (1) times, and prints
 *      both rows and the ratios; or BENCH_BASELINE_ROW='{"label":..,"wallSeconds":..,"serverCpuSeconds":..,
 *      "peakRssMb":..}' compares against a row recorded on the same machine.
 * The database is created by this script and dropped at the end unless BENCH_KEEP=1.
 */
import { randomBytes } from 'node:crypto';
import type * as Db from '../packages/db/src/index.js';
import { accessToken, compareExports, measureExport } from './lib/export-measure.js';
import { ROOT, runFromSource } from './lib/run-from-source.js';

const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 1_000_000);
const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_export';
const PORT = Number(process.env.BENCH_PORT ?? 18102);
const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEEP = process.env.BENCH_KEEP === '1';
const REUSE = process.env.BENCH_REUSE === '1';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const TARGET = { seconds: 20, rssMb: 250 };
/** Side by side: a worktree of an older commit (`git worktree add /tmp/c6 c6adc7a`, pnpm install there). */
const JWT_SECRET = randomBytes(32).toString('hex');
const ENCRYPT_KEY = randomBytes(16).toString('hex');

if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`);

// Workspace packages are loaded once runFromSource has the `source` condition in place.
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

/** Creates (or reuses) the bench database and fills it set-based. Returns the admin user id. */
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
    const count = Number((await pool.query('SELECT count(*) AS n FROM contract')).rows[0].n);
    if (reuse && count === CONTRACTS) {
      log(`reusing ${count.toLocaleString('en-US')} contracts`);
    } else {
      await timed(`generate ${CONTRACTS.toLocaleString('en-US')} contracts`, () => generate(pool));
    }
    const { userId } = await ensureAdminUser(createDb(pool), { password: randomBytes(12).toString('hex') });
    return userId;
  } finally {
    await pool.end();
  }
}

async function generate(pool: ReturnType<typeof Db.createPool>): Promise<void> {
  await pool.query('TRUNCATE contract, agent_org_history, agent, organization, product, insurance_company RESTART IDENTITY CASCADE');
  await pool.query(`
    INSERT INTO organization (org_name, org_type, org_level) VALUES ('Bench HQ', 'HQ', 1);
    INSERT INTO organization (parent_org_id, org_name, org_type, org_level)
      SELECT 1, 'Branch ' || b, 'BR', 2 FROM generate_series(1, 10) b;
    INSERT INTO organization (parent_org_id, org_name, org_type, org_level)
      SELECT 2 + (t % 10), 'Team ' || t, 'TM', 3 FROM generate_series(1, 100) t;
    INSERT INTO agent (org_id, grade_id, agent_name, license_no, phone, join_date)
      SELECT 12 + (a % 100), 1 + (a % 6), 'Agent ' || a, 'LIC-' || a, '010-0000-' || lpad((a % 10000)::text, 4, '0'),
             date '2015-01-01' + (a % 3000)
      FROM generate_series(1, 2000) a;
    INSERT INTO insurance_company (company_code, company_name, company_type)
      SELECT 'BC' || c, 'Bench Company ' || c, CASE WHEN c % 2 = 0 THEN 'LIFE' ELSE 'NON_LIFE' END FROM generate_series(1, 5) c;
    INSERT INTO product (company_id, product_code, product_name, insurance_type, product_group)
      SELECT 1 + (p % 5), 'BP' || p, 'Bench Product ' || p, (ARRAY['LIFE','NON_LIFE','ANNUITY','SAVINGS','HEALTH'])[1 + p % 5],
             (ARRAY['LIFE','ANNUITY','SAVINGS','EXCLUDED_AUTO','EXCLUDED_HEALTH'])[1 + p % 5]
      FROM generate_series(1, 50) p;`);
  // One session with foreign-key triggers off (bench data is consistent by construction).
  const client = await pool.connect();
  try {
    await client.query('SET session_replication_role = replica');
    await client.query(
      `INSERT INTO contract (agent_id, product_id, policy_no, contractor_name, insured_name, premium, pay_cycle, pay_period,
                             coverage_period, status, contract_date, effective_date, lapse_date)
       SELECT 1 + (i % 2000), 1 + (i % 50), 'BENCH' || lpad(i::text, 9, '0'), 'Holder ' || (i % 50000), 'Insured ' || (i % 70000),
              round((1000 + (i::bigint * 7919) % 300000)::numeric + (i % 100) / 100.0, 2),
              (ARRAY['MONTHLY','QUARTERLY','SEMI_ANNUAL','ANNUAL','SINGLE'])[1 + i % 5], 10 + i % 20, 20 + i % 60,
              CASE WHEN i % 10 = 0 THEN 'LAPSE' ELSE 'ACTIVE' END,
              date '2018-01-01' + (i % 2500), date '2018-01-02' + (i % 2500),
              CASE WHEN i % 10 = 0 THEN date '2019-01-01' + (i % 2000) END
       FROM generate_series(1, $1::int) i`,
      [CONTRACTS],
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
  const env = { DATABASE_URL: dbUrl(DB_NAME), REDIS_URL, JWT_SECRET, ENCRYPT_KEY };
  const run = async (label: string, root: string) => {
    const figures = await measureExport({
      label,
      root,
      server: 'services/master-data/src/server.ts',
      port: PORT,
      env,
      path: '/api/contracts/excel',
      token,
      ...(CPU_PROF_DIR ? { cpuProfDir: `${CPU_PROF_DIR}/${label}` } : {}),
    });
    log(`${label}: ${JSON.stringify(figures)}`);
    return figures;
  };
  process.exitCode = await compareExports({
    rows: CONTRACTS,
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
