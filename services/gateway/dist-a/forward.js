import { failure } from './envelope.js';
/** Bodies up to this size are read whole and sent with the headers in one write. */
const BUFFERED_BODY_MAX = 64 * 1024;
/** Hop-by-hop headers (RFC 9110 7.6.1) never cross the gateway. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];
function stripHopByHop(headers) {
    const listed = headers.connection;
    if (typeof listed === 'string')
        for (const name of listed.split(','))
            delete headers[name.trim().toLowerCase()];
    for (const name of HOP_BY_HOP)
        delete headers[name];
}
/** What the service receives: the caller's headers, the request id and who the caller is. */
function upstreamHeaders(request) {
    const headers = { ...request.headers };
    stripHopByHop(headers);
    delete headers.host;
    headers['x-request-id'] = request.id;
    const forwardedFor = headers['x-forwarded-for'];
    headers['x-forwarded-for'] = forwardedFor ? `${String(forwardedFor)}, ${request.ip}` : request.ip;
    headers['x-forwarded-proto'] = request.protocol;
    if (request.host)
        headers['x-forwarded-host'] = request.host;
    return headers;
}
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A keep-alive socket the service closed just as we reused it; safe to retry once for reads. */
const STALE_SOCKET = new Set(['UND_ERR_SOCKET', 'ECONNRESET']);
function isTimeout(err) {
    return err.code === 'UND_ERR_HEADERS_TIMEOUT';
}
/**
 * Sends the request to the service over the service's keep-alive pool and relays the answer.
 * @fastify/http-proxy has already matched the prefix and validated the path; this replaces its
 * default @fastify/reply-from handler, which costs noticeably more CPU per request (measured with
 * bench/gateway-bench.mjs). Small answers are buffered (one write), large or chunked ones stream.
 */
export function createForwarder(service, pool) {
    return async function forward(request, reply) {
        const method = request.method;
        const body = IDEMPOTENT.has(method) ? null : (request.body ?? null);
        const options = { path: request.url, method, headers: upstreamHeaders(request), body };
        let res;
        try {
            try {
                res = await pool.request(options);
            }
            catch (err) {
                if (body !== null || !STALE_SOCKET.has(err.code ?? ''))
                    throw err;
                res = await pool.request(options);
            }
        }
        catch (err) {
            request.log.warn({ err, service }, 'upstream request failed');
            const timedOut = isTimeout(err);
            return reply
                .code(timedOut ? 504 : 503)
                .send(failure('INTERNAL_ERROR', timedOut ? `${service} did not respond in time` : `${service} is unavailable`));
        }
        const headers = res.headers;
        stripHopByHop(headers);
        void reply.code(res.statusCode).headers(headers);
        const length = Number(headers['content-length']);
        if (length >= 0 && length <= BUFFERED_BODY_MAX)
            return reply.send(Buffer.from(await res.body.arrayBuffer()));
        return reply.send(res.body);
    };
}
//# sourceMappingURL=forward.js.map