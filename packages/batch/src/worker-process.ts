import { createDb, createPool, migrate } from '@csp/db';
import { pino } from 'pino';
import { z } from 'zod';
import type { StepDefinition } from './define-step.js';
import { parseStepList, type StepService } from './steps.js';
import { startStepWorkers, type StepWorkers } from './worker.js';

/** Environment of a worker process: one schema for every service hosting steps. */
const workerEnv = z.object({
  DATABASE_URL: z.string().min(1).default('postgres://postgres@127.0.0.1:5432/commission'),
  REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
  LOG_LEVEL: z.string().default('info'),
  /** Must equal the run API's (ledger-settlement server) prefix. */
  BATCH_PREFIX: z.string().min(1).max(50).optional(),
  /** Comma-separated step names: run only these (scale one step with more processes). */
  BATCH_STEPS: z.string().optional(),
  /** Chunks a worker runs at once, every step alike; unset: each step's own default (StepDefinition.concurrency). */
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  DB_POOL_MAX: z.coerce.number().int().min(2).max(100).default(10),
  /** Shorter values make a killed worker's job come back sooner (BullMQ stall recovery ~2 x interval). */
  BATCH_LOCK_DURATION_MS: z.coerce.number().int().min(1000).optional(),
  BATCH_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).optional(),
});
export type WorkerEnv = z.infer<typeof workerEnv>;
/** The variables every worker process reads (docker compose consistency test). */
export const WORKER_ENV_KEYS: readonly string[] = Object.keys(workerEnv.shape);

export interface WorkerProcessOptions {
  service: StepService;
  steps: readonly StepDefinition[];
  /** Service-specific settings read from the same environment before the workers start. */
  configure?(env: NodeJS.ProcessEnv): void;
}

/**
 * The body of every service's `src/worker.ts`: read and validate the environment, migrate (under the
 * migrator's lock, so starting with the server is safe), start the selected step workers; SIGTERM/SIGINT
 * close them gracefully. Logs '<service> worker ready' once listening.
 */
export async function runWorkerProcess(
  options: WorkerProcessOptions,
  env = process.env,
): Promise<StepWorkers> {
  const config = workerEnv.parse(env);
  options.configure?.(env);
  const name = `${options.service}-worker`;
  const logger = pino({ name, level: config.LOG_LEVEL });
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DB_POOL_MAX,
    applicationName: name,
  });
  // A connection PostgreSQL drops while a step holds it (failover, pg_terminate_backend) emits 'error'
  // on the leased client, which has no listener of its own: without this the process would crash
  // instead of failing that attempt and retrying it.
  pool.on('connect', (client) => {
    client.on('error', (err) => logger.warn({ err }, 'database connection lost; the step attempt will be retried'));
  });
  const db = createDb(pool);
  try {
    await migrate(pool, { logger });
    const workers = await startStepWorkers({
      connection: config.REDIS_URL,
      ...(config.BATCH_PREFIX ? { prefix: config.BATCH_PREFIX } : {}),
      db,
      logger,
      service: options.service,
      steps: [...options.steps],
      only: parseStepList(config.BATCH_STEPS),
      ...(config.BATCH_CONCURRENCY !== undefined ? { concurrency: config.BATCH_CONCURRENCY } : {}),
      ...(config.BATCH_LOCK_DURATION_MS ? { lockDuration: config.BATCH_LOCK_DURATION_MS } : {}),
      ...(config.BATCH_STALLED_INTERVAL_MS ? { stalledInterval: config.BATCH_STALLED_INTERVAL_MS } : {}),
      onClose: () => db.destroy(),
    });
    logger.info({ steps: workers.steps }, `${options.service} worker ready`);
    return workers;
  } catch (err) {
    logger.fatal({ err }, `${options.service} worker failed to start`);
    await db.destroy().catch(() => {});
    process.exit(1);
  }
}
