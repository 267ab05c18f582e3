import { Redis } from 'ioredis';
import { z } from 'zod';
import { createDb, createPool, ensureAdminUser, migrate } from '@csp/db';
import { createLogger, loadServiceConfig, runService } from '@csp/service-kit';
import { buildApp, SERVICE_NAME } from './app.js';

/** Process entry: config, connections, migrations, the initial administrator, then listen. */
async function main(): Promise<void> {
  const config = loadServiceConfig(SERVICE_NAME, {
    PORT: z.coerce.number().int().min(0).max(65535).default(8101),
    ADMIN_PASSWORD: z.string().min(1).optional(),
    // Under the git-ignored local data folder unless configured.
    FILE_STORAGE_DIR: z.string().min(1).default('.data/files'),
  });
  const logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL });
  const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: SERVICE_NAME });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', (err) => logger.warn({ err }, 'idle database connection failed'));
  const db = createDb(pool);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 });
  redis.on('error', (err) => logger.warn({ err }, 'redis connection error'));

  // Safe when several instances start together: the migrator holds a database lock.
  const applied = await migrate(pool, { logger });
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  if (config.ADMIN_PASSWORD) {
    const admin = await ensureAdminUser(db, { password: config.ADMIN_PASSWORD });
    if (admin.created) logger.info({ userId: admin.userId }, 'initial administrator created');
  }

  const app = await buildApp({ config, db, pool, redis, logger });
  await runService(app, { port: config.PORT, host: config.HOST });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
