import { parseStepList, startStepWorkers } from '@csp/batch';
import { createDb, createPool, migrate } from '@csp/db';
import { createLogger, loadServiceConfig } from '@csp/service-kit';
import { z } from 'zod';
import { SERVICE_NAME } from './app.js';
import { paymentTaxSteps } from './steps/index.js';

// Batch steps 9-12. BATCH_STEPS selects a subset (e.g. BATCH_STEPS=accountingEntryGenerate);
// BATCH_PREFIX must equal the run API's (ledger-settlement) prefix; BATCH_CONCURRENCY jobs per worker.
const config = loadServiceConfig(SERVICE_NAME, {
  BATCH_PREFIX: z.string().min(1).max(50).optional(),
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
});
const logger = createLogger({ name: `${SERVICE_NAME}-worker`, level: config.LOG_LEVEL });
const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: `${SERVICE_NAME}-worker` });
const db = createDb(pool);

try {
  // The migrator holds a database lock, so a worker starting together with the server is safe.
  await migrate(pool, { logger });
  await startStepWorkers({
    connection: config.REDIS_URL,
    ...(config.BATCH_PREFIX ? { prefix: config.BATCH_PREFIX } : {}),
    db,
    logger,
    service: 'payment-tax',
    only: parseStepList(process.env.BATCH_STEPS),
    steps: paymentTaxSteps,
    concurrency: config.BATCH_CONCURRENCY,
    onClose: () => pool.end(),
  });
} catch (err) {
  logger.fatal({ err }, 'payment-tax worker failed to start');
  await pool.end().catch(() => {});
  process.exit(1);
}
