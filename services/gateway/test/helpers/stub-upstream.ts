import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { Readable } from 'node:stream';

export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface StubUpstream {
  name: string;
  url: string;
  seen: SeenRequest[];
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * A real HTTP service standing in for one of ours: records what reached it and answers every path
 * with an envelope naming itself. `/api/health` and `/v3/api-docs` behave like a service-kit app.
 */
export async function startStubUpstream(name: string, docPaths: string[] = []): Promise<StubUpstream> {
  const seen: SeenRequest[] = [];
  const app = Fastify();
  app.get('/api/health', async () => ({ success: true, code: '0000', message: 'Success', data: { status: 'UP' } }));
  app.get('/v3/api-docs', async () => ({
    openapi: '3.0.3',
    info: { title: name, version: '1.0.0' },
    paths: Object.fromEntries(docPaths.map((p) => [p, { get: { tags: [name], responses: { 200: { description: 'ok' } } } }])),
    components: {
      schemas: { ApiResponse: { type: 'object', properties: { success: { type: 'boolean' } } }, [`${name}Only`]: { type: 'string' } },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    },
    tags: [{ name }],
    security: [{ bearerAuth: [] }],
  }));
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.all('/*', async (request, reply) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers, body: request.body });
    const query = request.query as { delayMs?: string; streamBytes?: string; bytes?: string; status?: string };
    if (query.status === '204') return reply.code(204).send();
    const delayMs = Number(query.delayMs ?? 0);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (query.streamBytes) {
      // Chunked, like a spreadsheet export: no content-length, 16 KiB pieces.
      const total = Number(query.streamBytes);
      const pieces = Array.from({ length: Math.ceil(total / 16384) }, (_, i) => Buffer.alloc(Math.min(16384, total - i * 16384), 65 + (i % 26)));
      return reply.header('content-type', 'application/octet-stream').send(Readable.from(pieces));
    }
    if (query.bytes) return reply.header('content-type', 'application/octet-stream').send(Buffer.alloc(Number(query.bytes), 66));
    if (request.url.startsWith('/api/auth/forbidden')) {
      return reply.code(403).send({ success: false, code: 'E403', message: 'Access denied', timestamp: new Date().toISOString() });
    }
    const body = Buffer.isBuffer(request.body) ? { bytes: request.body.length } : request.body;
    return { success: true, code: '0000', message: 'Success', data: { service: name, url: request.url, body } };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { name, url: `http://127.0.0.1:${port}`, seen, app, close: () => app.close() };
}

/** A port nothing listens on (bound and released), so connecting is refused at once. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
