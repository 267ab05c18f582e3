import httpProxy from '@fastify/http-proxy';
import type { FastifyInstance, HookHandlerDoneFunction } from 'fastify';
import { Pool } from 'undici';
import type { GatewayConfig } from './config.js';
import { failure } from './envelope.js';
import { createForwarder, type AnyReply, type AnyRequest } from './forward.js';
import { loginRateLimitRouteConfig } from './rate-limit.js';
import { PUBLIC_PREFIXES, ROUTE_TABLE, SERVICE_NAMES, type ServiceName } from './route-table.js';

export type UpstreamPools = Record<ServiceName, Pool>;

/**
 * One keep-alive undici pool per upstream, shared by every prefix of that service. Connecting fails
 * fast (a stopped service answers 503 at once); the response timeout is long because exports stream.
 */
export function createUpstreamPools(config: GatewayConfig): UpstreamPools {
  return Object.fromEntries(
    SERVICE_NAMES.map((service) => [
      service,
      new Pool(config.upstreams[service], {
        connections: config.connectionsPerUpstream,
        pipelining: 1,
        keepAliveTimeout: 30_000,
        connect: { timeout: config.connectTimeoutMs },
        headersTimeout: config.responseTimeoutMs,
        bodyTimeout: config.responseTimeoutMs,
      }),
    ]),
  ) as UpstreamPools;
}

const BEARER = /^bearer\s+\S/i;

/**
 * Early E401 for a protected path without any Bearer token: no JWT verification here (services do
 * that), just saves a round trip for requests that cannot succeed.
 */
function requireBearer(request: AnyRequest, reply: AnyReply, done: HookHandlerDoneFunction): void {
  if (request.method === 'OPTIONS' || BEARER.test(request.headers.authorization ?? '')) {
    done();
    return;
  }
  void reply.code(401).send(failure('UNAUTHORIZED'));
}

function isPublic(prefix: string): boolean {
  return PUBLIC_PREFIXES.some((p) => prefix === p || prefix.startsWith(`${p}/`));
}

/** One @fastify/http-proxy registration per prefix of the route table (longest first). */
export async function registerProxies(app: FastifyInstance, config: GatewayConfig, pools: UpstreamPools): Promise<void> {
  const base = (service: ServiceName) => ({
    upstream: config.upstreams[service],
    // http-proxy matches the prefix, validates the path and passes bodies through as streams; the
    // forwarder sends the request over the service's pool.
    undici: pools[service],
    handler: createForwarder(service, pools[service]),
  });

  // The login route gets its own registration so that the rate limit applies to it alone.
  await app.register(httpProxy, {
    ...base('auth-platform'),
    prefix: '/api/auth/login',
    rewritePrefix: '/api/auth/login',
    routes: ['/'],
    httpMethods: ['POST'],
    config: loginRateLimitRouteConfig(config),
  });

  for (const route of ROUTE_TABLE) {
    await app.register(httpProxy, {
      ...base(route.service),
      prefix: route.prefix,
      rewritePrefix: route.prefix,
      ...(isPublic(route.prefix) ? {} : { preHandler: requireBearer }),
    });
  }

  app.addHook('onClose', async () => {
    await Promise.all(Object.values(pools).map((pool) => pool.close()));
  });
}
