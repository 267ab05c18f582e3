import { randomBytes } from 'node:crypto';
import type { Db } from '@csp/db';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { defineStep, type StepDefinition } from './define-step.js';
import { createQueues, type BatchQueues } from './queues.js';
import { getRunStatus, launchRun } from './run.js';
import { STEP_NAMES, type StepSettingsOverrides } from './steps.js';
import type { RunStatus } from './views.js';
import { startStepWorkers, type StartStepWorkersOptions, type StepWorkers } from './worker.js';

/**
 * Test harness for batch steps: one fresh database, one random BullMQ prefix, producers and any number of
 * worker sets; `close()` removes everything. Used by this package's tests and by every service hosting steps.
 */

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Short backoffs so retry tests take milliseconds. */
export const FAST_SETTINGS: StepSettingsOverrides = {
  all: { attempts: 3, backoffMs: 50, timeoutMs: 15_000 },
};

export const testLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false>,
  { timeoutMs = 20_000, intervalMs = 25, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** Waits until the run is COMPLETED or FAILED and returns its status. */
export async function waitForRunEnd(db: Db, runId: number, timeoutMs = 20_000): Promise<RunStatus> {
  return waitFor(
    async () => {
      const status = await getRunStatus(db, runId);
      return status && (status.run.status === 'COMPLETED' || status.run.status === 'FAILED')
        ? status
        : undefined;
    },
    { timeoutMs, what: `run ${runId} to end` },
  );
}

/** Deletes every key under a BullMQ prefix. */
export async function removeRedisPrefix(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/** Definitions that do nothing, for every step not in `own`, so a run of one service's steps can complete. */
export function noopStepsExcept(own: readonly StepDefinition[]): StepDefinition[] {
  const owned = new Set(own.map((s) => s.name));
  return STEP_NAMES.filter((name) => !owned.has(name)).map((name) =>
    defineStep({ name, run: async () => ({ total: 0, success: 0, error: 0 }) }),
  );
}

/** The step row of a run by name. */
export function stepOf(status: RunStatus, name: string) {
  const step = status.steps.find((s) => s.stepName === name);
  if (!step) throw new Error(`no step row ${name}`);
  return step;
}

export interface BatchHarness {
  tdb: TestDatabase;
  db: Db;
  prefix: string;
  queues: BatchQueues;
  startWorkers(
    options: Pick<StartStepWorkersOptions, 'steps'> & Partial<StartStepWorkersOptions>,
  ): Promise<StepWorkers>;
  stopWorkers(): Promise<void>;
  /** Launches a run of the month and waits for its end. */
  runMonth(settleMonth: string, companyCode?: string, timeoutMs?: number): Promise<RunStatus>;
  close(): Promise<void>;
}

export async function createBatchHarness(
  options: { name?: string; settings?: StepSettingsOverrides } = {},
): Promise<BatchHarness> {
  const settings = options.settings ?? FAST_SETTINGS;
  const tdb = await createTestDatabase();
  const prefix = `csp-${options.name ?? 'batch'}-test-${randomBytes(5).toString('hex')}`;
  const queues = createQueues(TEST_REDIS_URL, { prefix, settings });
  let running: StepWorkers[] = [];
  return {
    tdb,
    db: tdb.db,
    prefix,
    queues,
    async startWorkers(workerOptions) {
      const workers = await startStepWorkers({
        connection: TEST_REDIS_URL,
        prefix,
        db: tdb.db,
        settings,
        logger: testLogger,
        handleSignals: false,
        ...workerOptions,
      });
      running.push(workers);
      return workers;
    },
    async stopWorkers() {
      await Promise.all(running.map((w) => w.close()));
      running = [];
    },
    async runMonth(settleMonth, companyCode, timeoutMs = 30_000) {
      const run = await launchRun(tdb.db, queues, { settleMonth, ...(companyCode ? { companyCode } : {}) });
      return waitForRunEnd(tdb.db, run.jobLogId, timeoutMs);
    },
    async close() {
      await Promise.all(running.map((w) => w.close()));
      running = [];
      await queues.close();
      await removeRedisPrefix(prefix);
      await tdb.drop();
    },
  };
}
