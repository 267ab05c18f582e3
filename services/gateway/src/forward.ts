import type { FastifyReply, FastifyRequest, RawServerBase } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher, Pool } from 'undici';
import { failure } from './envelope.js';
import type { ServiceName } from './route-table.js';

export type AnyRequest = FastifyRequest<any, RawServerBase, any>;
export type AnyReply = FastifyReply<any, RawServerBase, any, any>;

/** Bodies up to this size are read whole and sent with the headers in one write. */
const BUFFERED_BODY_MAX = 64 * 1024;

/** Hop-by-hop headers (RFC 9110 7.6.1) never cross the gateway. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

function stripHopByHop(headers: Record<string, string | string[] | undefined>): void {
  const listed = headers.connection;
  if (typeof listed === 'string') for (const name of listed.split(',')) delete headers[name.trim().toLowerCase()];
  for (const name of HOP_BY_HOP) delete headers[name];
}

/** What the service receives: the caller's headers, the request id and who the caller is. */
function upstreamHeaders(request: AnyRequest): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = { ...request.headers };
  stripHopByHop(headers);
  delete headers.host;
  headers['x-request-id'] = request.id;
  const forwardedFor = headers['x-forwarded-for'];
  headers['x-forwarded-for'] = forwardedFor ? `${String(forwardedFor)}, ${request.ip}` : request.ip;
  headers['x-forwarded-proto'] = request.protocol;
  if (request.host) headers['x-forwarded-host'] = request.host;
  return headers;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A keep-alive socket the service closed just as we reused it; safe to retry once for reads. */
const STALE_SOCKET = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);

function isTimeout(err: unknown): boolean {
  return (err as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT';
}

/**
 * Sends the request to the service over the service's keep-alive pool and relays the answer.
 * @fastify/http-proxy has already matched the prefix and validated the path; this replaces its
 * default @fastify/reply-from handler, which executed ~10 % more instructions per proxied request
 * (callgrind, same load). Small answers are buffered (one write), large or chunked ones stream.
 */
export function createForwarder(service: ServiceName, pool: Pool) {
  return async function forward(request: AnyRequest, reply: AnyReply): Promise<unknown> {
    const method = request.method as Dispatcher.HttpMethod;
    const body = IDEMPOTENT.has(method) ? null : ((request.body as Readable | undefined) ?? null);
    const options: Dispatcher.RequestOptions = { path: request.url, method, headers: upstreamHeaders(request), body };

    let res: Dispatcher.ResponseData;
    try {
      try {
        res = await pool.request(options);
      } catch (err) {
        if (body !== null || !STALE_SOCKET.has((err as { code?: string }).code ?? '')) throw err;
        res = await pool.request(options);
      }
    } catch (err) {
      request.log.warn({ err, service }, 'upstream request failed');
      const timedOut = isTimeout(err);
      return reply
        .code(timedOut ? 504 : 503)
        .send(failure('INTERNAL_ERROR', timedOut ? `${service} did not respond in time` : `${service} is unavailable`));
    }

    const headers = res.headers as Record<string, string | string[] | undefined>;
    stripHopByHop(headers);
    void reply.code(res.statusCode).headers(headers);
    const length = Number(headers['content-length']);
    if (length >= 0 && length <= BUFFERED_BODY_MAX) return reply.send(Buffer.from(await res.body.arrayBuffer()));
    return reply.send(res.body);
  };
}
