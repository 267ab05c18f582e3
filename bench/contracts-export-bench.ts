/**
 * Streaming export of 1,000,000 contracts: GET /api/contracts/excel against a real master-data
 * process, measuring wall time, bytes and the server's peak RSS (target < 20 s, < 300 MB).
 *   pnpm exec tsx bench/contracts-export-bench.ts            (from the repo root)
 * Env: BENCH_CONTRACTS (1000000), BENCH_DB (csp_bench_export), BENCH_PORT (18102),
 *      BENCH_BASE_URL (postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL,
 *      BENCH_KEEP=1 keeps the database (and BENCH_REUSE=1 reuses its data on the next run),
 *      BENCH_CPU_PROF=<dir> writes the server's V8 CPU profile there (node --cpu-prof) when it exits.
 * The database is created by this script and dropped at the end unless BENCH_KEEP=1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { loadavg } from 'node:os';
import type * as Db from '../packages/db/src/index.js';
import { ROOT, SOURCE_NODE_ARGS, runFromSource } from './lib/run-from-source.js';

const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 1_000_000);
const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_export';
const PORT = Number(process.env.BENCH_PORT ?? 18102);
const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEEP = process.env.BENCH_KEEP === '1';
const REUSE = process.env.BENCH_REUSE === '1';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const TARGET = { seconds: 20, rssMb: 300 };
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
    await timed('migrate', () => migrate(pool));
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

/** HS256 access token with the claims the service kit verifies (same secret as the server). */
function accessToken(userId: number): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    sub: String(userId),
    uid: userId,
    loginId: 'admin',
    userName: 'Administrator',
    roleCodes: ['SUPER_ADMIN'],
    agentId: null,
    typ: 'access',
    iat: now,
    exp: now + 3600,
  };
  const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${unsigned}.${createHmac('sha256', JWT_SECRET).update(unsigned).digest('base64url')}`;
}

function startServer(): ChildProcess {
  const profile = CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, ...SOURCE_NODE_ARGS, 'services/master-data/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl(DB_NAME),
      REDIS_URL,
      JWT_SECRET,
      ENCRYPT_KEY,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

async function waitHealthy(child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become healthy within 60 s');
}

/** user + system CPU seconds of a process so far (clock ticks of /proc/<pid>/stat, 100 per second). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Downloads to nowhere, counting bytes. */
function download(token: string): Promise<{ status: number; bytes: number; contentType: string }> {
  return new Promise((resolve, reject) => {
    const req = get(
      { host: '127.0.0.1', port: PORT, path: '/api/contracts/excel', headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, contentType: String(res.headers['content-type']) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
  });
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
  const child = startServer();
  let exitCode = 1;
  try {
    await timed('server start', () => waitHealthy(child));
    const pid = child.pid!;
    const idleRss = rssMb(pid);
    let peakRss = idleRss;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, rssMb(pid));
      } catch {
        // process gone
      }
    }, 100);

    const cpuBefore = cpuSeconds(pid);
    const start = performance.now();
    const result = await download(accessToken(userId));
    const seconds = (performance.now() - start) / 1000;
    const serverCpu = cpuSeconds(pid) - cpuBefore;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, rssMb(pid));

    if (result.status !== 200 || !result.contentType.includes('spreadsheetml')) {
      throw new Error(`export failed: HTTP ${result.status} ${result.contentType}`);
    }
    const ok = seconds < TARGET.seconds && peakRss < TARGET.rssMb;
    console.log(
      JSON.stringify(
        {
          rows: CONTRACTS,
          wallSeconds: Number(seconds.toFixed(2)),
          serverCpuSeconds: Number(serverCpu.toFixed(2)),
          loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
          bytes: result.bytes,
          mbPerSecond: Number((result.bytes / 1024 / 1024 / seconds).toFixed(1)),
          idleRssMb: Math.round(idleRss),
          peakRssMb: Math.round(peakRss),
          target: TARGET,
          withinTarget: ok,
        },
        null,
        2,
      ),
    );
    exitCode = ok ? 0 : 2;
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (!KEEP) await dropDatabase();
  }
  process.exitCode = exitCode;
}

runFromSource(import.meta.url, main).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
