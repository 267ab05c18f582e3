import { parseStepList, startStepWorkers } from '@csp/batch';
import { createDb, createPool, migrate } from '@csp/db';
import { createLogger, loadServiceConfig } from '@csp/service-kit';
import { z } from 'zod';
import { setChunkSizes } from './calc/chunk-sizes.js';
import { ledgerSteps } from './steps/index.js';

/**
 * The ledger-settlement batch worker: steps 4-8 (calcRecruit, calcMaintain, chargebackException,
 * calcOverride, aggregate). BATCH_STEPS=calcMaintain scales one step; SIGTERM/SIGINT close gracefully.
 */
const config = loadServiceConfig('ledger-settlement', {
  PORT: z.coerce.number().default(8104),
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
  DB_POOL_MAX: z.coerce.number().int().min(2).max(100).default(10),
  /** candidate contracts per chunk of calcRecruit/calcMaintain */
  BATCH_CHUNK_CONTRACTS: z.coerce.number().int().min(100).max(50_000).default(4_000),
  /** agent ids per chunk of calcOverride/aggregate */
  BATCH_CHUNK_AGENTS: z.coerce.number().int().min(100).max(50_000).default(2_000),
});
setChunkSizes({ contracts: config.BATCH_CHUNK_CONTRACTS, agents: config.BATCH_CHUNK_AGENTS });
const logger = createLogger({ name: 'ledger-settlement-worker', level: config.LOG_LEVEL });
for (const warning of config.warnings) logger.warn(warning);

const pool = createPool({
  connectionString: config.DATABASE_URL,
  max: config.DB_POOL_MAX,
  applicationName: 'ledger-settlement-worker',
});
const db = createDb(pool);

try {
  await migrate(pool, { logger });
  const workers = await startStepWorkers({
    connection: config.REDIS_URL,
    db,
    logger,
    service: 'ledger-settlement',
    steps: ledgerSteps,
    only: parseStepList(process.env.BATCH_STEPS),
    concurrency: config.BATCH_CONCURRENCY,
    onClose: () => db.destroy(),
  });
  logger.info({ steps: workers.steps }, 'ledger-settlement worker ready');
} catch (err) {
  logger.fatal({ err }, 'ledger-settlement worker failed to start');
  await db.destroy().catch(() => {});
  process.exit(1);
}
