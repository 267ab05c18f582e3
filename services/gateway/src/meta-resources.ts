import type { FastifyInstance } from 'fastify';
import { failure, ok } from './envelope.js';
import type { UpstreamPools } from './proxy.js';
import { SERVICE_NAMES, type ServiceName } from './route-table.js';

type ResourceMeta = { path: string } & Record<string, unknown>;

type Answer = { service: ServiceName; status: number; resources?: ResourceMeta[] };

async function fetchMeta(pools: UpstreamPools, service: ServiceName, authorization: string, requestId: string, timeoutMs: number): Promise<Answer> {
  try {
    const res = await pools[service].request({
      path: '/api/meta/resources',
      method: 'GET',
      headers: { accept: 'application/json', authorization, 'x-request-id': requestId },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      return { service, status: res.statusCode };
    }
    const body = (await res.body.json()) as { data?: { resources?: ResourceMeta[] } };
    return { service, status: 200, resources: body.data?.resources ?? [] };
  } catch {
    return { service, status: 503 };
  }
}

/**
 * `GET /api/meta/resources`: every service's resource metadata in one list (the web client renders
 * plain pages from it). The caller's token goes to each service, which verifies it; a service that
 * is down is named in `unavailable` instead of failing the whole answer.
 */
export function registerMetaResources(app: FastifyInstance, pools: UpstreamPools, timeoutMs: number): void {
  app.get('/api/meta/resources', async (request, reply) => {
    const authorization = request.headers.authorization ?? '';
    if (!/^Bearer\s+\S+/i.test(authorization)) return reply.code(401).send(failure('UNAUTHORIZED'));
    const answers = await Promise.all(SERVICE_NAMES.map((s) => fetchMeta(pools, s, authorization, request.id, timeoutMs)));
    const refused = answers.find((a) => a.status === 401 || a.status === 403);
    if (refused) return reply.code(refused.status).send(failure(refused.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN'));
    const resources = answers.flatMap((a) => a.resources ?? []).sort((x, y) => x.path.localeCompare(y.path));
    const unavailable = answers.filter((a) => a.resources === undefined).map((a) => a.service);
    return ok({ resources, unavailable });
  });
}
