/**
 * Intake throughput against a real intake process:
 *  1. a generated 700,000-row XLSX imported through POST /api/upload/{templateCode} into `contract`
 *     (BENCH_IMPORT_TARGET=maintain_ledger: into the maintain ledger of seeded contracts instead)
 *     (wall time and the intake process's peak RSS; targets < 30 s, < 300 MB; spec 8's legacy figure
 *     is about 3 minutes), progress polled from the upload history row while it runs;
 *  2. a 600,000-row carrier CSV received through POST /api/receive/upload and transformed (steps 2-3)
 *     through POST /api/receive/process for one carrier and month (wall time of each).
 *   pnpm exec tsx bench/intake-bench.ts            (from the repo root)
 * Env: BENCH_IMPORT_ROWS (700000; 0 skips phase 1), BENCH_CARRIER_ROWS (600000), BENCH_BAD_ROWS (100),
 *      BENCH_DB (csp_bench_intake), BENCH_PORT (18103), BENCH_BASE_URL
 *      (postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL, BENCH_KEEP=1 keeps the database,
 *      BENCH_CPU_PROF=<dir> writes the intake process's V8 CPU profile there (node --cpu-prof) when it exits.
 * The database is created by this script and dropped at the end unless BENCH_KEEP=1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { createWriteStream, openAsBlob, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import { ROOT, SOURCE_NODE_ARGS, runFromSource } from './lib/run-from-source.js';
import { processCpuSeconds } from './lib/telemetry-cpu.js';
import { waitHealthy } from './lib/wait-healthy.js';

const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 700_000);
const CARRIER_ROWS = Number(process.env.BENCH_CARRIER_ROWS ?? 600_000);
/** contract (7 indexes incl. three trigram GIN indexes, FKs to agent and product) or maintain_ledger. */
const IMPORT_TARGET = process.env.BENCH_IMPORT_TARGET === 'maintain_ledger' ? 'maintain_ledger' : 'contract';
/** Contracts seeded: the carrier file's, and for a maintain_ledger import one per imported row. */
const SEEDED_CONTRACTS =
  IMPORT_TARGET === 'maintain_ledger' ? Math.max(CARRIER_ROWS, IMPORT_ROWS) : CARRIER_ROWS;
const BAD_ROWS = Number(process.env.BENCH_BAD_ROWS ?? 100);
const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_intake';
const PORT = Number(process.env.BENCH_PORT ?? 18103);
const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEEP = process.env.BENCH_KEEP === '1';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const TARGET = { importSeconds: 30, importRssMb: 300 };
const JWT_SECRET = randomBytes(32).toString('hex');
const ENCRYPT_KEY = randomBytes(16).toString('hex');
const MONTH = '202501';
const COMPANY = 'BC1';
const AGENTS = 2000;
const PRODUCTS = 50;

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

/** Fresh database: carriers, products, agents, and the contracts the carrier file refers to. */
async function prepareDatabase(): Promise<number> {
  const { createDb, createPool, ensureAdminUser, migrate } = await dbPackage();
  const admin = createPool({ connectionString: BASE_URL, max: 1 });
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  const pool = createPool({ connectionString: dbUrl(DB_NAME), max: 2 });
  try {
    await timed('migrate', () => migrate(pool));
    await timed(
      `seed ${AGENTS} agents, ${PRODUCTS} products, ${SEEDED_CONTRACTS.toLocaleString('en-US')} contracts`,
      async () => {
        await pool.query(`
        INSERT INTO organization (org_name, org_type, org_level) VALUES ('Bench HQ', 'HQ', 1);
        INSERT INTO agent (org_id, grade_id, agent_name, license_no, join_date)
          SELECT 1, 1 + (a % 6), 'Agent ' || a, 'LIC-' || a, date '2015-01-01' + (a % 3000) FROM generate_series(1, ${AGENTS}) a;
        INSERT INTO insurance_company (company_code, company_name, company_type) VALUES ('${COMPANY}', 'Bench Life', 'LIFE');
        INSERT INTO product (company_id, product_code, product_name, insurance_type)
          SELECT 1, 'BP' || p, 'Bench Product ' || p, 'LIFE' FROM generate_series(1, ${PRODUCTS}) p;
        INSERT INTO contract (agent_id, product_id, policy_no, premium, contract_date)
          SELECT 1 + (i % ${AGENTS}), 1 + (i % ${PRODUCTS}), 'CR' || lpad(i::text, 9, '0'), 1000 + (i % 300000), date '2025-01-01' + (i % 28)
          FROM generate_series(1, ${SEEDED_CONTRACTS}) i;
        ANALYZE;`);
      },
    );
    const { userId } = await ensureAdminUser(createDb(pool), { password: randomBytes(12).toString('hex') });
    return userId;
  } finally {
    await pool.end();
  }
}

interface ImportRow {
  policy: string;
  agent: number;
  product: string;
  premium: string;
  date: string;
  holder: string;
  month: string;
  year: number;
}

const IMPORT_COLUMNS = {
  contract: [
    { header: 'Policy', key: 'policy' },
    { header: 'Agent', key: 'agent' },
    { header: 'Product', key: 'product' },
    { header: 'Premium', key: 'premium', numeric: true },
    { header: 'Date', key: 'date' },
    { header: 'Holder', key: 'holder' },
  ],
  maintain_ledger: [
    { header: 'Policy', key: 'policy' },
    { header: 'Month', key: 'month' },
    { header: 'Year', key: 'year' },
    { header: 'Commission', key: 'premium', numeric: true },
    { header: 'Reported', key: 'premium', numeric: true },
  ],
} as const;

const TEMPLATE_COLUMNS = {
  contract: [
    { sourceColumn: 'A', sourceHeader: 'Policy', targetField: 'policy_no', transformRule: 'TRIM' },
    { sourceColumn: 'B', targetField: 'agent_id' },
    { sourceColumn: 'C', targetField: 'product_code' },
    { sourceColumn: 'D', targetField: 'premium', targetType: 'AMOUNT' },
    { sourceColumn: 'E', targetField: 'contract_date', transformRule: 'DATE', transformArgs: 'yyyyMMdd' },
    { sourceColumn: 'F', targetField: 'contractor_name' },
  ],
  maintain_ledger: [
    { sourceColumn: 'A', sourceHeader: 'Policy', targetField: 'policy_no', transformRule: 'TRIM' },
    { sourceColumn: 'B', targetField: 'settle_month' },
    { sourceColumn: 'C', targetField: 'commission_year' },
    { sourceColumn: 'D', targetField: 'company_amount', targetType: 'AMOUNT' },
    { sourceColumn: 'E', targetField: 'reported_company_amount', targetType: 'AMOUNT' },
  ],
};

/** The workbook: IMPORT_ROWS rows, every (IMPORT_ROWS / BAD_ROWS)-th one with an amount that is no number. */
async function writeImportFile(path: string): Promise<void> {
  const { writeSpreadsheet } = await import('../packages/service-kit/src/index.js');
  const every = BAD_ROWS > 0 ? Math.floor(IMPORT_ROWS / BAD_ROWS) : Infinity;
  function* rows(): Generator<ImportRow> {
    for (let i = 1; i <= IMPORT_ROWS; i++) {
      yield {
        policy:
          IMPORT_TARGET === 'contract'
            ? `IM${String(i).padStart(9, '0')}`
            : `CR${String(i).padStart(9, '0')}`,
        agent: 1 + (i % AGENTS),
        product: `BP${1 + (i % PRODUCTS)}`,
        premium: i % every === 0 ? 'n/a' : `${1000 + (i % 300000)}.${String(i % 100).padStart(2, '0')}`,
        date: `2024${String(1 + (i % 12)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}`,
        holder: `Holder ${i % 50000}`,
        month: MONTH,
        year: 2 + (i % 4),
      };
    }
  }
  const pass = new PassThrough();
  await Promise.all([
    writeSpreadsheet(pass, {
      sheetName: 'Import',
      columns: [...IMPORT_COLUMNS[IMPORT_TARGET]],
      rows: rows(),
    }),
    pipeline(pass, createWriteStream(path)),
  ]);
}

/** The carrier's monthly file: one recruit record per seeded contract. */
async function writeCarrierFile(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('POLICY,PREM,COMM\n');
  for (let i = 1; i <= CARRIER_ROWS; i++) {
    const line = `CR${String(i).padStart(9, '0')},${1000 + (i % 300000)},${(i % 9000) + 10}.${String(i % 100).padStart(2, '0')}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
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
    exp: now + 7200,
  };
  const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${unsigned}.${createHmac('sha256', JWT_SECRET).update(unsigned).digest('base64url')}`;
}

function startServer(storageDir: string): ChildProcess {
  return spawn(
    process.execPath,
    [...(CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []), ...SOURCE_NODE_ARGS, 'services/intake/src/server.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        // as the launcher and docker-compose start intake
        NODE_OPTIONS: '--max-semi-space-size=4',
        NODE_ENV: 'production',
        PORT: String(PORT),
        HOST: '127.0.0.1',
        DATABASE_URL: dbUrl(DB_NAME),
        REDIS_URL,
        JWT_SECRET,
        ENCRYPT_KEY,
        FILE_STORAGE_DIR: storageDir,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
}

/** user + system CPU seconds of a process so far. */
const cpuSeconds = (pid: number): number => processCpuSeconds(pid) ?? NaN;

let statPool: { query: (text: string, values: unknown[]) => Promise<{ rows: { pid: number }[] }>; end: () => Promise<void> } | undefined;

/** CPU seconds per backend process of the bench database (pg_stat_activity + /proc). */
async function backendCpu(): Promise<Map<number, number>> {
  if (!statPool) {
    const { createPool } = await dbPackage();
    statPool = createPool({ connectionString: dbUrl(DB_NAME), max: 1 });
  }
  const { rows } = await statPool.query(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [DB_NAME],
  );
  const result = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      result.set(pid, cpuSeconds(pid));
    } catch {
      // ended meanwhile
    }
  }
  return result;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** CPU seconds of the service and of the database's backends at a moment of a phase (ms since its start). */
interface CpuSample {
  ms: number;
  server: number;
  postgres: number;
}

/** Peak RSS of a phase: VmRSS sampled every 100 ms while `run` is under way. */
interface Measured<T> {
  result: T;
  seconds: number;
  peakRssMb: number;
  serverCpuSeconds: number;
  postgresCpuSeconds: number;
  /** Every ~100 ms: CPU used since the phase started, to split a request's CPU at its steps' boundaries. */
  samples: CpuSample[];
}

/** A phase: wall time, peak RSS (VmRSS every 100 ms), CPU of the service and of the database's backends. */
async function measured<T>(pid: number, run: () => Promise<T>): Promise<Measured<T>> {
  let peak = rssMb(pid);
  const cpuBefore = cpuSeconds(pid);
  const pgBefore = await backendCpu();
  // A backend that ends during the phase (the service's pool closes idle connections) keeps its last reading.
  const lastSeen = new Map<number, number>();
  const pgUsed = (now: Map<number, number>) => {
    for (const [backend, cpu] of now) lastSeen.set(backend, cpu);
    let sum = 0;
    for (const [backend, cpu] of lastSeen) sum += cpu - (pgBefore.get(backend) ?? 0);
    return sum;
  };
  const samples: CpuSample[] = [{ ms: 0, server: 0, postgres: 0 }];
  const start = performance.now();
  let sampling = false;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      // process gone
    }
    if (sampling) return;
    sampling = true;
    backendCpu()
      .then((pg) => {
        samples.push({ ms: performance.now() - start, server: cpuSeconds(pid) - cpuBefore, postgres: pgUsed(pg) });
      })
      .catch(() => undefined)
      .finally(() => {
        sampling = false;
      });
  }, 100);
  try {
    const result = await run();
    const seconds = (performance.now() - start) / 1000;
    const serverCpu = cpuSeconds(pid) - cpuBefore;
    const pgCpu = pgUsed(await backendCpu());
    samples.push({ ms: seconds * 1000, server: serverCpu, postgres: pgCpu });
    return {
      result,
      seconds,
      peakRssMb: Math.max(peak, rssMb(pid)),
      serverCpuSeconds: Number(serverCpu.toFixed(2)),
      postgresCpuSeconds: Number(pgCpu.toFixed(2)),
      samples,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** CPU used by the phase up to `ms` (the last sample at or before it). */
function cpuAt(samples: readonly CpuSample[], ms: number): CpuSample {
  let hit = samples[0]!;
  for (const s of samples) if (s.ms <= ms) hit = s;
  return hit;
}

interface StepResult {
  step: string;
  total: number;
  success: number;
  error: number;
  skipped: number;
  durationMs: number;
}

/** Wall and CPU of each step of a /api/receive/process answer (steps back to back from the request's start). */
function stepTable(m: Measured<{ steps: StepResult[] }>) {
  let at = 0;
  let before = cpuAt(m.samples, 0);
  return m.result.steps.map((s) => {
    at += s.durationMs;
    const last = s === m.result.steps[m.result.steps.length - 1];
    const after = last ? m.samples[m.samples.length - 1]! : cpuAt(m.samples, at);
    const row = {
      step: s.step,
      rows: s.total,
      success: s.success,
      error: s.error,
      wallSeconds: Number((s.durationMs / 1000).toFixed(2)),
      serverCpuSeconds: Number((after.server - before.server).toFixed(2)),
      postgresCpuSeconds: Number((after.postgres - before.postgres).toFixed(2)),
    };
    before = after;
    return row;
  });
}

async function api(token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as { success: boolean; code?: string; message?: string; data?: any };
  if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${json.code} ${json.message}`);
  return json.data;
}

async function uploadFile(
  token: string,
  path: string,
  filePath: string,
  fileName: string,
  fields: Record<string, string> = {},
): Promise<any> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', await openAsBlob(filePath), fileName);
  const res = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const json = (await res.json()) as { success: boolean; code?: string; message?: string; data?: any };
  if (!json.success) throw new Error(`POST ${path}: ${res.status} ${json.code} ${json.message}`);
  return json.data;
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

/** Phase 1: the spreadsheet imported through the upload API. */
async function importPhase(pid: number, token: string, importFile: string) {
  const template = await api(token, 'POST', '/api/upload-templates', {
    templateCode: 'BENCH_IMPORT',
    templateName: `Bench ${IMPORT_TARGET}`,
    category: 'BENCH',
    targetTable: IMPORT_TARGET,
    companyCode: COMPANY,
  });
  await api(token, 'PUT', `/api/upload-templates/${template.id}/columns`, {
    columns: TEMPLATE_COLUMNS[IMPORT_TARGET],
  });
  const progress = setInterval(() => {
    api(token, 'GET', `/api/upload-templates/${template.id}/history?pageSize=1`)
      .then((page) => {
        const h = page.list[0];
        if (h) log(`  import progress: ${h.processedCount.toLocaleString('en-US')} rows (${h.status})`);
      })
      .catch(() => undefined);
  }, 5000);
  const imported = await measured(pid, () =>
    uploadFile(token, '/api/upload/BENCH_IMPORT', importFile, 'import.xlsx'),
  ).finally(() => clearInterval(progress));
  log(
    `import: ${imported.seconds.toFixed(1)} s, peak RSS ${Math.round(imported.peakRssMb)} MB, ${imported.result.successCount} ok, ${imported.result.errorCount} rejected`,
  );
  return imported;
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'intake-bench-'));
  const importFile = join(work, 'import.xlsx');
  const carrierFile = join(work, 'carrier.csv');
  const userId = await prepareDatabase();
  if (IMPORT_ROWS > 0)
    await timed(`write ${IMPORT_ROWS.toLocaleString('en-US')}-row xlsx`, () => writeImportFile(importFile));
  await timed(`write ${CARRIER_ROWS.toLocaleString('en-US')}-row carrier csv`, () =>
    writeCarrierFile(carrierFile),
  );
  log(
    `xlsx ${IMPORT_ROWS > 0 ? ((await stat(importFile)).size / 1024 / 1024).toFixed(1) : '-'} MB, csv ${((await stat(carrierFile)).size / 1024 / 1024).toFixed(1)} MB`,
  );

  const child = startServer(join(work, 'files'));
  let exitCode = 1;
  try {
    await timed('server start', () => waitHealthy(child, `http://127.0.0.1:${PORT}/api/health`, { timeoutMs: 60_000 }));
    const pid = child.pid!;
    const token = accessToken(userId);
    const idleRss = rssMb(pid);

    // ---- 1. spreadsheet import into contract
    const imported = IMPORT_ROWS > 0 ? await importPhase(pid, token, importFile) : undefined;

    // ---- 2. carrier CSV received and transformed
    await api(token, 'POST', '/api/mapping/profiles', { companyCode: COMPANY, dataFormat: 'CSV' });
    const map = (targetField: string, sourceField: string, sortOrder: number) =>
      api(token, 'POST', `/api/mapping/${COMPANY}/fields`, {
        targetTable: 'recruit_ledger',
        targetField,
        sourceField,
        sortOrder,
        isRequired: targetField !== 'premium',
      });
    await map('policy_no', 'POLICY', 1);
    await map('premium', 'PREM', 2);
    await map('company_amount', 'COMM', 3);
    const received = await measured(pid, () =>
      uploadFile(token, '/api/receive/upload', carrierFile, 'carrier.csv', {
        companyCode: COMPANY,
        settleMonth: MONTH,
        dataType: 'RECRUIT',
      }),
    );
    log(
      `receive upload: ${received.seconds.toFixed(1)} s, ${received.result.rowCount} raw rows, peak RSS ${Math.round(received.peakRssMb)} MB`,
    );
    const processed = await measured(pid, () =>
      api(token, 'POST', '/api/receive/process', { companyCode: COMPANY, settleMonth: MONTH }),
    );
    log(`process (steps 2-3): ${processed.seconds.toFixed(1)} s`);
    const steps = stepTable(processed);
    console.table(steps);
    const status = await api(token, 'GET', `/api/receive/status?settleMonth=${MONTH}&companyCode=${COMPANY}`);

    const importOk =
      imported === undefined ||
      (imported.seconds < TARGET.importSeconds && imported.peakRssMb < TARGET.importRssMb);
    console.log(
      JSON.stringify(
        {
          loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
          idleRssMb: Math.round(idleRss),
          import: imported && {
            target: IMPORT_TARGET,
            rows: IMPORT_ROWS,
            wallSeconds: Number(imported.seconds.toFixed(2)),
            rowsPerSecond: Math.round(IMPORT_ROWS / imported.seconds),
            peakRssMb: Math.round(imported.peakRssMb),
            serverCpuSeconds: imported.serverCpuSeconds,
            postgresCpuSeconds: imported.postgresCpuSeconds,
            totalCount: imported.result.totalCount,
            successCount: imported.result.successCount,
            errorCount: imported.result.errorCount,
            errorFileId: imported.result.errorFileId,
            goal: { seconds: TARGET.importSeconds, rssMb: TARGET.importRssMb },
            withinTarget: importOk,
          },
          carrier: {
            rows: CARRIER_ROWS,
            uploadSeconds: Number(received.seconds.toFixed(2)),
            uploadPeakRssMb: Math.round(received.peakRssMb),
            uploadServerCpuSeconds: received.serverCpuSeconds,
            uploadPostgresCpuSeconds: received.postgresCpuSeconds,
            processSeconds: Number(processed.seconds.toFixed(2)),
            processPeakRssMb: Math.round(processed.peakRssMb),
            processServerCpuSeconds: processed.serverCpuSeconds,
            processPostgresCpuSeconds: processed.postgresCpuSeconds,
            steps,
            status: status.carriers[0],
          },
        },
        null,
        2,
      ),
    );
    exitCode = importOk ? 0 : 2;
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(work, { recursive: true, force: true });
    await statPool?.end();
    if (!KEEP) await dropDatabase();
  }
  process.exitCode = exitCode;
}

await runFromSource(import.meta.url, main);
