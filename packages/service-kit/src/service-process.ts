import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { z } from 'zod';
import { createDb, createPool, migrate, type Db } from '@csp/db';
import { runService } from './app.js';
import { loadServiceConfig, type ServiceConfig } from './config.js';
import { createLogger } from './logger.js';
import { opsEnvShape, startMetricsServer } from './metrics.js';
import { startTracing } from './tracing.js';

/** The common settings, PORT and the service's own settings. */
export type ServiceProcessConfig<Extra extends z.ZodRawShape> = ServiceConfig & { PORT: number } & z.output<
    z.ZodObject<Extra>
  >;

export interface ServiceProcessDeps<Extra extends z.ZodRawShape> {
  config: ServiceProcessConfig<Extra>;
  db: Db;
  pool: pg.Pool;
  redis: Redis;
  logger: FastifyBaseLogger;
}

export interface ServiceProcessOptions<Extra extends z.ZodRawShape> {
  name: string;
  defaultPort: number;
  /** Service-specific settings, validated together with the common ones. */
  config?: Extra;
  /** After migrations, before the app is built (e.g. the initial administrator). */
  afterMigrate?(deps: ServiceProcessDeps<Extra>): Promise<void>;
  buildApp(deps: ServiceProcessDeps<Extra>): Promise<FastifyInstance>;
}

/**
 * The body of every service's `src/server.ts`: validated config (refuses to start when invalid),
 * connections, migrations (under the migrator's lock, so instances starting together are safe), the app,
 * listen, graceful close on SIGINT/SIGTERM.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- no extra settings by default
export async function runServiceProcess<Extra extends z.ZodRawShape = {}>(
  options: ServiceProcessOptions<Extra>,
): Promise<void> {
  const config = loadServiceConfig(options.name, {
    PORT: z.coerce.number().int().min(0).max(65535).default(options.defaultPort),
    ...opsEnvShape,
    ...(options.config ?? ({} as Extra)),
  }) as unknown as ServiceProcessConfig<Extra> & { METRICS_PORT?: number; METRICS_HOST: string };
  await startTracing(options.name);
  const logger = createLogger({ name: options.name, level: config.LOG_LEVEL });
  const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: options.name });
  const db = createDb(pool);
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  redis.on('error', (err) => logger.warn({ err }, 'redis connection error'));
  const deps: ServiceProcessDeps<Extra> = { config, db, pool, redis, logger };
  try {
    const applied = await migrate(pool, { logger });
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    await options.afterMigrate?.(deps);
    const app = await options.buildApp(deps);
    await runService(app, { port: config.PORT, host: config.HOST });
    if (config.METRICS_PORT !== undefined) {
      const metrics = await startMetricsServer(config.METRICS_PORT, config.METRICS_HOST);
      logger.info({ port: metrics.port }, 'metrics listener ready');
    }
  } catch (err) {
    logger.fatal({ err }, `${options.name} failed to start`);
    await db.destroy().catch(() => {});
    redis.disconnect();
    process.exit(1);
  }
}
