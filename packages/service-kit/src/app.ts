import { resourceMeta } from './meta.js';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type RawServerDefault } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifyMultipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '@csp/db';
import type { ServiceConfig } from './config.js';
import { createFieldCipher, type FieldCipher } from './crypto.js';
import { createLogger } from './logger.js';
import { errorHandler, notFoundHandler } from './error-handler.js';
import { envelope, fail, ok } from './envelope.js';
import { jwtAuth } from './auth.js';
import { guard, publicRoute } from './guard.js';
import { accessLog } from './access-log.js';
import { changeLog } from './change-log.js';
import { openApiTransform, openApiTransformObject } from './openapi.js';
import { rejectBadText } from './text-input.js';
import { observePool, registerHttpMetrics } from './metrics.js';
import { registerTracing } from './tracing.js';
import { readReplica } from './read-db.js';

export type ServiceApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    pool: pg.Pool;
    redis: Redis;
    config: ServiceConfig;
    cipher: FieldCipher;
    serviceName: string;
  }
}

export interface CreateServiceAppOptions {
  name: string;
  config: ServiceConfig;
  db: Db;
  pool: pg.Pool;
  redis: Redis;
  /** A pino logger (see `createLogger`); by default one is built from config.LOG_LEVEL. */
  logger?: FastifyBaseLogger;
  /** Positive permission answers live this long at most (invalidation is pushed via Redis). */
  permissionCacheTtlMs?: number;
  /** Access/change log buffer flush interval (default 500 ms). */
  logFlushIntervalMs?: number;
}

export const UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;
const REQUEST_ID = /^[\w.:-]{1,64}$/;

function requestIdOf(req: IncomingMessage): string {
  const header = req.headers['x-request-id'];
  const value = Array.isArray(header) ? header[0] : header;
  return value && REQUEST_ID.test(value) ? value : randomUUID();
}

async function probe(check: () => Promise<unknown>, timeoutMs = 2000): Promise<'UP' | 'DOWN'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'DOWN'>((resolve) => {
    timer = setTimeout(() => resolve('DOWN'), timeoutMs);
  });
  try {
    return await Promise.race([check().then(() => 'UP' as const), timeout]);
  } catch {
    return 'DOWN';
  } finally {
    clearTimeout(timer);
  }
}

/** Builds a Fastify app with every cross-cutting concern of the platform (see README). */
export async function createServiceApp(options: CreateServiceAppOptions): Promise<ServiceApp> {
  const { name, config } = options;
  const logger = options.logger ?? createLogger({ name, level: config.LOG_LEVEL });

  const app = Fastify({
    loggerInstance: logger,
    genReqId: requestIdOf,
    // Services sit behind the gateway: take the client address from X-Forwarded-For set by a local/private hop.
    trustProxy: ['127.0.0.1', '::1', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
    bodyLimit: 10 * 1024 * 1024,
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send(fail('BAD_REQUEST', error.message));
    },
  }).withTypeProvider<ZodTypeProvider>();

  for (const warning of config.warnings ?? []) app.log.warn(warning);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  // Before schema validation and every handler: NUL / lone surrogates in params, query or body -> E411.
  app.addHook('preValidation', rejectBadText);

  app.decorate('db', options.db);
  app.decorate('pool', options.pool);
  app.decorate('redis', options.redis);
  app.decorate('config', config);
  app.decorate('cipher', createFieldCipher(config.ENCRYPT_KEY));
  app.decorate('serviceName', name);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Before any route: request spans (when tracing is on) and the HTTP histogram see every route.
  await registerTracing(app);
  await registerHttpMetrics(app, name);
  observePool(name, options.pool);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: name, version: '1.0.0' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearerAuth: [] }],
    },
    transform: openApiTransform,
    transformObject: openApiTransformObject,
  });
  await app.register(jwtAuth, { secret: config.JWT_SECRET });
  await app.register(guard, { pool: options.pool, redis: options.redis, cacheTtlMs: options.permissionCacheTtlMs });
  await app.register(accessLog, { db: options.db, serviceName: name, flushIntervalMs: options.logFlushIntervalMs });
  await app.register(changeLog, { db: options.db, flushIntervalMs: options.logFlushIntervalMs });
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES } });
  await app.register(resourceMeta);
  await app.register(readReplica, {
    service: name,
    db: options.db,
    pool: options.pool,
    redis: options.redis,
    logger: app.log,
    readUrl: config.DATABASE_READ_URL,
    maxLagMs: config.DATABASE_READ_MAX_LAG_MS,
    waitMs: config.DATABASE_READ_WAIT_MS,
    checkMs: config.DATABASE_READ_CHECK_MS,
  });

  app.get('/v3/api-docs', { config: { ...publicRoute(), accessLog: false }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  const healthData = z.object({
    status: z.literal('UP'),
    service: z.string(),
    db: z.enum(['UP', 'DOWN']),
    redis: z.enum(['UP', 'DOWN']),
  });
  app.get(
    '/api/health',
    {
      config: { ...publicRoute(), accessLog: false },
      schema: { tags: ['health'], summary: 'Liveness and dependency status', response: { 200: envelope(healthData) } },
    },
    async () => {
      const [db, redis] = await Promise.all([
        probe(() => sql`select 1`.execute(options.db)),
        probe(() => options.redis.ping()),
      ]);
      return ok({ status: 'UP' as const, service: name, db, redis });
    },
  );

  return app;
}

export interface RunServiceOptions {
  port: number;
  host?: string;
  /** Also called on shutdown after the app closed (default: destroy db/pool and quit redis). */
  onClosed?: () => Promise<void>;
}

/** Listens and closes gracefully on SIGINT/SIGTERM (app, then database pool and Redis). */
export async function runService(app: FastifyInstance, options: RunServiceOptions): Promise<void> {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('graceful shutdown timed out');
      process.exit(1);
    }, 30_000);
    force.unref();
    try {
      await app.close();
      if (options.onClosed) await options.onClosed();
      else {
        await app.db.destroy();
        await app.redis.quit();
      }
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: options.port, host: options.host ?? '0.0.0.0' });
}
