import { randomBytes } from 'node:crypto';
import {
  createQueues,
  defineStep,
  getRunStatus,
  launchRun,
  startStepWorkers,
  STEP_NAMES,
  type BatchQueues,
  type RunStatus,
  type StepDefinition,
  type StepName,
  type StepSettingsOverrides,
  type StepWorkers,
} from '@csp/batch';
import type { Db } from '@csp/db';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { createLogger } from '@csp/service-kit';
import { Redis } from 'ioredis';
import { clearRunCache } from '../src/calc/run-cache.js';
import { ledgerSteps } from '../src/steps/index.js';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SETTINGS: StepSettingsOverrides = { all: { attempts: 2, backoffMs: 50, timeoutMs: 60_000 } };
const logger = createLogger({ name: 'ledger-steps-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** The steps of other services do nothing here: this package tests steps 4-8. */
function noopStep(name: StepName): StepDefinition {
  return defineStep({ name, run: async () => ({ total: 0, success: 0, error: 0 }) });
}

export function allSteps(replace: Partial<Record<StepName, StepDefinition>> = {}): StepDefinition[] {
  const ours = new Map(ledgerSteps.map((s) => [s.name, s]));
  return STEP_NAMES.map((name) => replace[name] ?? ours.get(name) ?? noopStep(name));
}

export interface Harness {
  tdb: TestDatabase;
  db: Db;
  queues: BatchQueues;
  startWorkers(steps: StepDefinition[], only?: StepName[]): Promise<StepWorkers>;
  stopWorkers(): Promise<void>;
  /** Launches a settlement run of the month and waits for its end. */
  runMonth(settleMonth: string): Promise<RunStatus>;
  close(): Promise<void>;
}

async function removePrefix(prefix: string): Promise<void> {
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

export async function createHarness(): Promise<Harness> {
  const tdb = await createTestDatabase();
  tdb.pool.on('error', () => {});
  const prefix = `csp-ledger-test-${randomBytes(5).toString('hex')}`;
  const queues = createQueues(REDIS_URL, { prefix, settings: SETTINGS });
  let running: StepWorkers[] = [];
  const h: Harness = {
    tdb,
    db: tdb.db,
    queues,
    async startWorkers(steps, only) {
      const workers = await startStepWorkers({
        connection: REDIS_URL,
        prefix,
        db: tdb.db,
        steps,
        only,
        settings: SETTINGS,
        logger,
        handleSignals: false,
      });
      running.push(workers);
      return workers;
    },
    async stopWorkers() {
      await Promise.all(running.map((w) => w.close()));
      running = [];
    },
    async runMonth(settleMonth) {
      clearRunCache();
      const run = await launchRun(tdb.db, queues, { settleMonth });
      const deadline = Date.now() + 60_000;
      for (;;) {
        const status = await getRunStatus(tdb.db, run.jobLogId);
        if (status && (status.run.status === 'COMPLETED' || status.run.status === 'FAILED')) return status;
        if (Date.now() > deadline) throw new Error(`run ${run.jobLogId} did not end`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      await h.stopWorkers();
      await queues.close();
      await removePrefix(prefix);
      await tdb.drop();
    },
  };
  return h;
}

/** Step counts of a finished run, by step name. */
export function stepCounts(status: RunStatus, step: StepName) {
  const s = status.steps.find((x) => x.stepName === step);
  if (!s) throw new Error(`no step row ${step}`);
  return { status: s.status, total: s.totalCount, success: s.successCount, error: s.errorCount, skipped: s.skippedCount };
}
