import { randomBytes } from 'node:crypto';
import type { Db } from '@csp/db';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import {
  createQueues,
  getRunStatus,
  startStepWorkers,
  type BatchQueues,
  type RunStatus,
  type StartStepWorkersOptions,
  type StepWorkers,
} from '../src/index.js';
import { FAST_SETTINGS } from './fixtures/settings.js';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export { FAST_SETTINGS };

export const testLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export function randomPrefix(): string {
  return `csp-batch-test-${randomBytes(5).toString('hex')}`;
}

/** Deletes every key under the BullMQ prefix. */
export async function removePrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
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

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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

/** One test database, one BullMQ prefix, producers and any number of worker sets; closes everything. */
export interface Harness {
  tdb: TestDatabase;
  db: Db;
  prefix: string;
  queues: BatchQueues;
  startWorkers(
    options: Pick<StartStepWorkersOptions, 'steps'> & Partial<StartStepWorkersOptions>,
  ): Promise<StepWorkers>;
  stopWorkers(): Promise<void>;
  close(): Promise<void>;
}

export async function createHarness(): Promise<Harness> {
  const tdb = await createTestDatabase();
  // tdb.drop() ends the pool and then drops the database WITH (FORCE); pg-pool resolves end() before
  // its clients have closed, so a client may still receive the FATAL 57P01 and re-emit it on the pool.
  tdb.pool.on('error', () => {});
  const prefix = randomPrefix();
  const queues = createQueues(REDIS_URL, { prefix, settings: FAST_SETTINGS });
  let running: StepWorkers[] = [];
  return {
    tdb,
    db: tdb.db,
    prefix,
    queues,
    async startWorkers(options) {
      const workers = await startStepWorkers({
        connection: REDIS_URL,
        prefix,
        db: tdb.db,
        settings: FAST_SETTINGS,
        logger: testLogger,
        handleSignals: false,
        ...options,
      });
      running.push(workers);
      return workers;
    },
    async stopWorkers() {
      await Promise.all(running.map((w) => w.close()));
      running = [];
    },
    async close() {
      await Promise.all(running.map((w) => w.close()));
      running = [];
      await queues.close();
      await removePrefix(prefix);
      await tdb.drop();
    },
  };
}
