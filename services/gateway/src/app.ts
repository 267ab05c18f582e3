import cors from '@fastify/cors';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { randomUUID } from 'node:crypto';
import { registerHttpMetrics, registerTracing } from '@csp/service-kit/ops';
import { registerApiDocs } from './api-docs.js';
import type { GatewayConfig } from './config.js';
import { failure } from './envelope.js';
import { createBatchQueues } from './batch-queues.js';
import { registerHealthRoute } from './health.js';
import { registerMetaResources } from './meta-resources.js';
import { registerOpsQueues } from './ops-queues.js';
import { createOpenApiSource } from './openapi-merge.js';
import { createUpstreamPools, registerProxies } from './proxy.js';
import { registerRateLimit } from './rate-limit.js';
import { registerWebStatic } from './web-static.js';

export interface GatewayAppOptions {
  logger?: FastifyServerOptions['logger'];
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The gateway: routes `/api/<prefix>` to the owning service (src/route-table.ts), answers
 * `/api/health`, `/v3/api-docs` and `/swagger-ui` itself, and turns every failure of its own into
 * the spec envelope. It never touches the database and never checks permissions.
 */
export async function buildGatewayApp(config: GatewayConfig, options: GatewayAppOptions = {}): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    logger: options.logger ?? false,
    trustProxy: config.trustProxy,
    // Services access-log every request under the same request id; per-request lines here would
    // only double the log volume and cost throughput.
    logController: new LogController({ disableRequestLogging: true }),
    // The header is read in genReqId (not via requestIdHeader, which would accept any value as is).
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    return503OnClosing: true,
  });

  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  // Request spans (only when tracing is on; the forwarder passes their context on) and the HTTP histogram
  // (only when /metrics is served: nobody could read it otherwise).
  await registerTracing(app);
  if (config.metricsPort !== undefined) await registerHttpMetrics(app, 'gateway');

  app.setErrorHandler((error: FastifyError & { statusCode?: number }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.code(429).send(failure('BAD_REQUEST', error.message));
    if (status === 404) return reply.code(404).send(failure('NOT_FOUND'));
    if (status >= 400 && status < 500) return reply.code(400).send(failure('BAD_REQUEST', error.message));
    request.log.error({ err: error }, 'gateway error');
    return reply.code(500).send(failure('INTERNAL_ERROR'));
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(failure('NOT_FOUND', `No service answers ${request.method} ${request.url.split('?', 1)[0]}`)),
  );

  if (config.nodeEnv !== 'production') {
    await app.register(cors, {
      origin: true,
      exposedHeaders: ['x-request-id', 'content-disposition', 'retry-after'],
      maxAge: 600,
    });
  }

  await registerRateLimit(app);

  const pools = createUpstreamPools(config);
  const openApi = createOpenApiSource({
    pools,
    cacheMs: config.openApiCacheMs,
    timeoutMs: Math.max(config.healthTimeoutMs, 3_000),
    log: app.log,
  });

  const batchQueues = config.redisUrl ? createBatchQueues(app, config.redisUrl, config.batchPrefix) : undefined;
  registerHealthRoute(app, config, pools, batchQueues);
  if (batchQueues) await registerOpsQueues(app, config, pools, batchQueues);
  await registerApiDocs(app, openApi);
  registerMetaResources(app, pools, config.healthTimeoutMs);
  await registerProxies(app, config, pools);
  await registerWebStatic(app);

  return app;
}
