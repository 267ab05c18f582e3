import { Redis } from 'ioredis';
import { createDb, createPool, migrate } from '@csp/db';
import { createLogger, loadServiceConfig, runService } from '@csp/service-kit';
import { z } from 'zod';
import { buildApp, SERVICE_NAME } from './app.js';

// Owns the process: config (refuses to start when invalid), migrations, listen, graceful close.
const config = loadServiceConfig(SERVICE_NAME, {
  PORT: z.coerce.number().int().min(0).max(65535).default(8105),
});
const logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL });

const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: SERVICE_NAME });
const db = createDb(pool);
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });

try {
  const applied = await migrate(pool, { logger });
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const app = await buildApp({ config, db, pool, redis, logger });
  await runService(app, { port: config.PORT, host: config.HOST });
} catch (err) {
  logger.fatal({ err }, 'payment-tax failed to start');
  await db.destroy().catch(() => {});
  redis.disconnect();
  process.exit(1);
}
