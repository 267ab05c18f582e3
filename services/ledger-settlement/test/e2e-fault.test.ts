import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createQueues,
  launchRun,
  getRunStatus,
  startStepWorkers,
  type BatchQueues,
  type RunStatus,
  type StepWorkers,
} from '@csp/batch';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { createLogger } from '@csp/service-kit';
import { intakeSteps } from '@csp/intake/steps';
import { paymentTaxSteps } from '@csp/payment-tax/steps';
import { generateDemoBook, type DemoBookResult } from '@csp/demo-data';
import { ledgerSteps } from '../src/steps/index.js';

/**
 * A ledger-settlement worker process (src/worker.ts, BATCH_STEPS=calcMaintain) is SIGKILLed while it is
 * inside a calcMaintain chunk, then started again: the run completes and every figure equals a clean
 * run's. src/worker.ts takes no BullMQ prefix, so the queues are isolated in their own Redis database
 * (FAULT_REDIS_DB, default 14) under BullMQ's default prefix; its keys are removed afterwards.
 */
const SERVICE_DIR = fileURLToPath(new URL('..', import.meta.url));
const WORKER = fileURLToPath(new URL('../src/worker.ts', import.meta.url));
const REDIS_BASE = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS_URL = `${REDIS_BASE.replace(/\/\d*$/, '')}/${process.env.FAULT_REDIS_DB ?? '14'}`;
const logger = createLogger({ name: 'fault-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

let tdb: TestDatabase;
let queues: BatchQueues;
let inProcess: StepWorkers[] = [];
const children = new Set<ChildProcess>();
let book: DemoBookResult;
let month: string;

function startChild(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', WORKER], {
    cwd: SERVICE_DIR,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      // an inherited ops port (compose sets 9464) would be taken by another process: EADDRINUSE at start
      METRICS_PORT: undefined,
      DATABASE_URL: tdb.url,
      REDIS_URL,
      BATCH_STEPS: 'calcMaintain',
      BATCH_CHUNK_CONTRACTS: '1000',
      // honoured once src/worker.ts passes them to startStepWorkers (short lock -> fast stall recovery)
      BATCH_LOCK_DURATION_MS: '5000',
      BATCH_STALLED_INTERVAL_MS: '2000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('worker ready')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) =>
      reject(new Error(`worker exited before it was ready (${code}): ${output.slice(-2000)}`)),
    );
  });
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** What the run, its chunks and the calcMaintain queue look like (for a failure message). */
async function diagnose(runId: number): Promise<string> {
  const { rows: runRows } = await tdb.pool.query(
    `SELECT step_name, status, error_message FROM batch_job_log WHERE job_log_id = $1 OR parent_job_log_id = $1 ORDER BY job_log_id`,
    [runId],
  );
  const { rows: chunks } = await tdb.pool.query(
    `SELECT status, count(*)::int AS n, max(attempts) AS max_attempts FROM batch_chunk WHERE parent_job_log_id = $1 GROUP BY status`,
    [runId],
  );
  const counts = await queues.queue('calcMaintain').getJobCounts();
  return JSON.stringify({ runRows, chunks, queue: counts });
}

async function runEnd(runId: number, timeoutMs: number): Promise<RunStatus> {
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
    settle:
      await q(`SELECT agent_id, recruit_total, maintain_total, override_total, exception_plus, exception_minus,
                            chargeback_total, gross_amount, tax_amount, net_amount, status
                       FROM settle_master WHERE settle_month = $1 ORDER BY agent_id`),
    ledgers:
      await q(`SELECT 'recruit' AS t, count(*)::int AS n, sum(agent_amount) AS total FROM recruit_ledger WHERE settle_month = $1
                      UNION ALL SELECT 'maintain', count(*)::int, sum(agent_amount) FROM maintain_ledger WHERE settle_month = $1
                      UNION ALL SELECT 'override', count(*)::int, sum(override_amount) FROM override_settle WHERE settle_month = $1
                      UNION ALL SELECT 'chargeback', count(*)::int, sum(cb_amount) FROM chargeback WHERE settle_month = $1`),
  };
}

async function clearMonthOutput(): Promise<void> {
  for (const table of [
    'override_settle',
    'settle_master',
    'chargeback',
    'maintain_ledger',
    'recruit_ledger',
  ]) {
    await tdb.pool.query(`DELETE FROM ${table} WHERE settle_month = $1`, [month]);
  }
}

async function cleanRedis(): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'bull:settlement.*', 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  tdb.pool.on('error', () => {});
  await cleanRedis();
  book = await generateDemoBook(tdb.pool, {
    agents: 200,
    contracts: 50_000,
    seed: 'fault',
    today: '2025-08-15',
  });
  month = book.lastClosedMonth;
  queues = createQueues(REDIS_URL);
  // Default lock settings here: these workers are not killed, and a short lock would let a busy
  // machine (event loop late on renewals) fail their jobs as stalled.
  const common = { connection: REDIS_URL, db: tdb.db, logger, handleSignals: false };
  inProcess = [
    await startStepWorkers({ ...common, service: 'intake', steps: intakeSteps }),
    await startStepWorkers({ ...common, service: 'payment-tax', steps: paymentTaxSteps }),
    await startStepWorkers({
      ...common,
      service: 'ledger-settlement',
      steps: ledgerSteps,
      only: ['calcRecruit', 'calcOtherCommission', 'chargebackException', 'calcOverride', 'aggregate'],
    }),
  ];
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const w of inProcess) await w.close().catch(() => {});
  await queues?.close();
  await cleanRedis();
  await tdb?.drop();
}, 60_000);

describe('a ledger worker killed with SIGKILL in the middle of calcMaintain', () => {
  let clean: Awaited<ReturnType<typeof monthFigures>>;

  it('a clean run of the month gives the reference figures', async () => {
    const child = await startChild();
    const run = await launchRun(tdb.db, queues, { settleMonth: month });
    const status = await runEnd(run.jobLogId, 300_000);
    expect(status.run.status, status.run.errorMessage ?? '').toBe('COMPLETED');
    clean = await monthFigures();
    expect(clean.settle.length).toBeGreaterThanOrEqual(190);
    expect(Number(clean.ledgers.find((l: any) => l.t === 'maintain').n)).toBeGreaterThan(20_000);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }, 360_000);

  it('after the kill and a restart of the worker the run completes with exactly the same figures', async () => {
    await clearMonthOutput();
    let child = await startChild();
    const run = await launchRun(tdb.db, queues, { settleMonth: month });

    // Kill while a chunk is RUNNING and some chunks are already checkpointed.
    const victim = await waitFor(
      'calcMaintain to be in the middle of its chunks',
      async () => {
        const { rows } = await tdb.pool.query<{ chunk_no: number; status: string }>(
          `SELECT chunk_no, status FROM batch_chunk WHERE parent_job_log_id = $1 AND step_name = 'calcMaintain'`,
          [run.jobLogId],
        );
        const completed = rows.filter((r) => r.status === 'COMPLETED').length;
        const running = rows.find((r) => r.status === 'RUNNING');
        return completed >= 3 && completed < rows.length - 3 && running ? running.chunk_no : undefined;
      },
      120_000,
      10,
    );
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const { rows: atKill } = await tdb.pool.query(
      `SELECT count(*) FILTER (WHERE status = 'COMPLETED')::int AS done, count(*)::int AS total
         FROM batch_chunk WHERE parent_job_log_id = $1 AND step_name = 'calcMaintain'`,
      [run.jobLogId],
    );
    expect(atKill[0].done).toBeLessThan(atKill[0].total);

    child = await startChild();
    // BullMQ hands the killed job to the new worker once its lock has expired and a stalled check saw
    // it twice: with the worker's default 30 s lockDuration/stalledInterval that takes 30-60 s.
    const status = await runEnd(run.jobLogId, 480_000).catch(async (err: Error) => {
      throw new Error(`${err.message}: ${await diagnose(run.jobLogId)}`);
    });
    expect(status.run.status, status.run.errorMessage ?? '').toBe('COMPLETED');
    const { rows: redone } = await tdb.pool.query(
      `SELECT status, attempts FROM batch_chunk WHERE parent_job_log_id = $1 AND step_name = 'calcMaintain' AND chunk_no = $2`,
      [run.jobLogId, victim],
    );
    expect(redone[0]).toMatchObject({ status: 'COMPLETED' });
    expect(redone[0].attempts).toBeGreaterThanOrEqual(2);
    expect(await monthFigures()).toEqual(clean);
    child.kill('SIGTERM');
  }, 600_000);
});
