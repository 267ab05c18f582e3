import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createQueues,
  getRunStatus,
  launchRun,
  startStepWorkers,
  type BatchQueues,
  type RunStatus,
  type StepWorkers,
} from '@csp/batch';
import { createDb, createPool } from '@csp/db';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { createLogger } from '@csp/service-kit';
import { intakeSteps } from '@csp/intake/steps';
import { paymentTaxSteps } from '@csp/payment-tax/steps';
import { setChunkSizes } from '../src/calc/chunk-sizes.js';
import { clearRunCache } from '../src/calc/run-cache.js';
import { generateDemoBook } from '@csp/demo-data';
import { ledgerSteps } from '../src/steps/index.js';

/**
 * Infrastructure faults during a real month (all thirteen steps, a generated book), each compared with a
 * clean run of the same month: (2) the Redis server is killed and restarted in the middle of
 * calcMaintain; (3) PostgreSQL drops every connection of the step workers in the middle of calcMaintain.
 * The test owns its redis-server (free port, AOF with appendfsync always: the persistence production
 * Redis needs), so it can kill it without touching the shared one. Short lock/stall settings.
 */
const WORKER_APP = 'fault-infra-worker';
const LOCKS = { lockDuration: 4_000, stalledInterval: 2_000 };
const SETTINGS = { all: { attempts: 3, backoffMs: 200, timeoutMs: 120_000 } };
const logger = createLogger({ name: 'fault-infra', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

let tdb: TestDatabase;
let redisDir: string;
let redisPort: number;
let redisProc: ChildProcess | undefined;
let queues: BatchQueues;
let workers: StepWorkers[] = [];
let workerPool: ReturnType<typeof createPool>;
let month: string;
let clean: Awaited<ReturnType<typeof monthFigures>>;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function startRedis(): Promise<void> {
  const proc = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', redisDir, '--save', '', '--appendonly', 'yes',
      '--appendfsync', 'always', '--maxmemory-policy', 'noeviction'],
    { stdio: 'ignore' },
  );
  redisProc = proc;
  const probe = new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  for (let i = 0; ; i++) {
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') break;
    } catch {
      if (i > 100) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  probe.disconnect();
}

async function killRedis(): Promise<void> {
  const proc = redisProc!;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

const redisUrl = () => `redis://127.0.0.1:${redisPort}`;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

async function runEnd(runId: number, timeoutMs = 240_000): Promise<RunStatus> {
  return waitFor(
    `run ${runId} to end`,
    async () => {
      const s = await getRunStatus(tdb.db, runId);
      return s && (s.run.status === 'COMPLETED' || s.run.status === 'FAILED') ? s : undefined;
    },
    timeoutMs,
    100,
  );
}

/** Every money figure of the month, per agent, plus the ledger row counts and sums. */
async function monthFigures() {
  const q = async (text: string) => (await tdb.pool.query(text, [month])).rows;
  return {
    settle: await q(`SELECT agent_id, recruit_total, maintain_total, override_total, exception_plus, exception_minus,
                            chargeback_total, gross_amount, tax_amount, net_amount, status
                       FROM settle_master WHERE settle_month = $1 ORDER BY agent_id`),
    ledgers: await q(`SELECT 'recruit' AS t, count(*)::int AS n, sum(agent_amount) AS total FROM recruit_ledger WHERE settle_month = $1
                      UNION ALL SELECT 'maintain', count(*)::int, sum(agent_amount) FROM maintain_ledger WHERE settle_month = $1
                      UNION ALL SELECT 'override', count(*)::int, sum(override_amount) FROM override_settle WHERE settle_month = $1
                      UNION ALL SELECT 'chargeback', count(*)::int, sum(cb_amount) FROM chargeback WHERE settle_month = $1`),
  };
}

async function clearMonthOutput(): Promise<void> {
  for (const table of ['override_settle', 'settle_master', 'chargeback', 'maintain_ledger', 'recruit_ledger']) {
    await tdb.pool.query(`DELETE FROM ${table} WHERE settle_month = $1`, [month]);
  }
  clearRunCache();
}

async function startWorkers(): Promise<void> {
  const common = { connection: redisUrl(), db: createDb(workerPool), logger, handleSignals: false, settings: SETTINGS, ...LOCKS };
  workers = [
    await startStepWorkers({ ...common, service: 'intake', steps: intakeSteps }),
    await startStepWorkers({ ...common, service: 'payment-tax', steps: paymentTaxSteps }),
    await startStepWorkers({ ...common, service: 'ledger-settlement', steps: ledgerSteps, concurrency: 2 }),
  ];
}

/** Waits until calcMaintain has checkpointed some chunks but not all, and at least one is RUNNING. */
async function midCalcMaintain(runId: number): Promise<number> {
  return waitFor(
    'calcMaintain to be in the middle of its chunks',
    async () => {
      const { rows } = await tdb.pool.query<{ chunk_no: number; status: string }>(
        `SELECT chunk_no, status FROM batch_chunk WHERE parent_job_log_id = $1 AND step_name = 'calcMaintain'`,
        [runId],
      );
      const completed = rows.filter((r) => r.status === 'COMPLETED').length;
      const running = rows.find((r) => r.status === 'RUNNING');
      return completed >= 2 && completed < rows.length - 3 && running ? completed : undefined;
    },
    120_000,
    5,
  );
}

beforeAll(async () => {
  redisDir = mkdtempSync(join(tmpdir(), 'csp-fault-redis-'));
  redisPort = await freePort();
  await startRedis();
  tdb = await createTestDatabase();
  tdb.pool.on('error', () => {});
  const book = await generateDemoBook(tdb.pool, { agents: 120, contracts: 12_000, seed: 'fault-infra', today: '2025-08-15' });
  month = book.lastClosedMonth;
  setChunkSizes({ contracts: 500, agents: 20 });
  // The workers' own pool, so PostgreSQL can drop exactly their connections.
  workerPool = createPool({ connectionString: tdb.url, max: 8, applicationName: WORKER_APP });
  workerPool.on('error', () => {});
  // As runWorkerProcess does: a dropped connection of a leased client must fail the attempt, not the process.
  workerPool.on('connect', (client) => client.on('error', () => {}));
  queues = createQueues({ port: redisPort, host: '127.0.0.1', maxRetriesPerRequest: null }, { settings: SETTINGS });
  await startWorkers();

  const started = Date.now();
  const run = await launchRun(tdb.db, queues, { settleMonth: month });
  const status = await runEnd(run.jobLogId);
  expect(status.run.status, status.run.errorMessage ?? '').toBe('COMPLETED');
  clean = await monthFigures();
  expect(clean.settle.length).toBeGreaterThanOrEqual(100);
  console.info(`fault-infra: clean reference run ${Date.now() - started} ms`);
}, 300_000);

afterAll(async () => {
  for (const w of workers) await w.close().catch(() => {});
  await queues?.close().catch(() => {});
  await workerPool?.end().catch(() => {});
  redisProc?.kill('SIGKILL');
  await tdb?.drop();
  if (redisDir) rmSync(redisDir, { recursive: true, force: true });
}, 60_000);

describe('infrastructure faults in the middle of calcMaintain', () => {
  it('Redis killed and restarted: the run completes and every figure equals the clean run', async () => {
    const started = Date.now();
    await clearMonthOutput();
    const run = await launchRun(tdb.db, queues, { settleMonth: month });
    await midCalcMaintain(run.jobLogId);
    await killRedis();
    await new Promise((r) => setTimeout(r, 1_000));
    await startRedis();

    const status = await runEnd(run.jobLogId);
    expect(status.run.status, status.run.errorMessage ?? '').toBe('COMPLETED');
    expect(status.steps.map((s) => s.status)).toEqual(Array(13).fill('COMPLETED'));
    expect(await monthFigures()).toEqual(clean);
    console.info(`fault-infra: Redis restart test ${Date.now() - started} ms`);
  }, 300_000);

  it('PostgreSQL drops the workers\' connections: the step retries and the run ends with identical figures', async () => {
    const started = Date.now();
    await clearMonthOutput();
    const run = await launchRun(tdb.db, queues, { settleMonth: month });
    await midCalcMaintain(run.jobLogId);
    // A chunk between its reads and its write transaction holds only idle pool connections, whose loss the pool
    // absorbs without an error; so the fault is struck when a worker is inside a query or a transaction.
    const inFlight = await waitFor(
      'a worker backend inside a query or transaction',
      async () => {
        const { rows: hit } = await tdb.pool.query<{ n: number }>(
          `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = $1 AND state IN ('active', 'idle in transaction')`,
          [WORKER_APP],
        );
        return hit[0]!.n > 0 ? hit[0]!.n : undefined;
      },
      60_000,
      2,
    );
    const { rows: idle } = await tdb.pool.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1`,
      [WORKER_APP],
    );
    const rows = [{ n: inFlight + idle[0]!.n }];
    expect(rows[0]!.n).toBeGreaterThan(0);

    const status = await runEnd(run.jobLogId);
    expect(status.run.status, status.run.errorMessage ?? '').toBe('COMPLETED');
    expect(await monthFigures()).toEqual(clean);
    const { rows: retried } = await tdb.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM batch_chunk WHERE parent_job_log_id = $1 AND step_name = 'calcMaintain' AND attempts >= 2`,
      [run.jobLogId],
    );
    expect(retried[0]!.n).toBeGreaterThan(0);
    console.info(`fault-infra: pg_terminate_backend test ${Date.now() - started} ms (${rows[0]!.n} backends terminated, ${retried[0]!.n} chunks retried)`);
  }, 300_000);
});
