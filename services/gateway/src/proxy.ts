import httpProxy from '@fastify/http-proxy';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RawServerBase } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { Pool } from 'undici';
import type { GatewayConfig } from './config.js';
import { failure } from './envelope.js';
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

type AnyRequest = FastifyRequest<any, RawServerBase, any>;
type AnyReply = FastifyReply<any, RawServerBase, any, any>;
type ProxyErrorHandler = (reply: AnyReply, error: { error: Error }) => void;

function upstreamErrorHandler(service: ServiceName): ProxyErrorHandler {
  return (reply, { error }) => {
    if (reply.sent) return;
    // reply-from wraps a response (headers) timeout as FST_REPLY_FROM_GATEWAY_TIMEOUT; everything else
    // (refused, reset, connect timeout, unknown host) means the service is not there.
    const timedOut = (error as { code?: string }).code === 'FST_REPLY_FROM_GATEWAY_TIMEOUT';
    void reply
      .code(timedOut ? 504 : 503)
      .header('content-type', 'application/json; charset=utf-8')
      .send(
        failure('INTERNAL_ERROR', timedOut ? `${service} did not respond in time` : `${service} is unavailable`),
      );
  };
}

/** Request id to the service, and the client address so services can log who called. */
function forwardHeaders(request: AnyRequest, headers: IncomingHttpHeaders): IncomingHttpHeaders {
  headers['x-request-id'] = request.id;
  const forwardedFor = headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwardedFor ? `${String(forwardedFor)}, ${request.ip}` : request.ip;
  headers['x-forwarded-proto'] = request.protocol;
  if (request.host) headers['x-forwarded-host'] = request.host;
  return headers;
}

/** Bodies up to this size are read whole and sent in one write with the headers. */
const BUFFERED_BODY_MAX = 64 * 1024;

/**
 * Most answers are small JSON with a content-length: buffering them costs less CPU than piping a
 * stream (one socket write instead of several). Anything larger, or chunked (spreadsheet exports,
 * downloads), streams through as it arrives.
 */
function sendUpstreamResponse(_request: AnyRequest, reply: AnyReply, res: { stream: NodeJS.ReadableStream }): void {
  const length = Number(reply.getHeader('content-length'));
  if (!(length >= 0 && length <= BUFFERED_BODY_MAX)) {
    void reply.send(res.stream);
    return;
  }
  const chunks: Buffer[] = [];
  res.stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.stream.once('end', () => void reply.send(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
  res.stream.once('error', (err: Error) => void reply.send(err));
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
    undici: pools[service],
    disableRequestLogging: true,
    // A GET on a keep-alive socket the service just closed is retried once; a 503 from a service is not.
    retryMethods: ['GET', 'HEAD', 'OPTIONS'] as ('GET' | 'HEAD' | 'OPTIONS')[],
    replyOptions: {
      retriesCount: 1,
      onError: upstreamErrorHandler(service),
      onResponse: sendUpstreamResponse,
      rewriteRequestHeaders: forwardHeaders,
    },
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
