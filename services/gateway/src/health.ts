import type { BatchQueues } from '@csp/batch/queues';
import type { FastifyInstance } from 'fastify';
import { batchHealth, type BatchHealth } from './batch-queues.js';
import type { GatewayConfig } from './config.js';
import { ok } from './envelope.js';
import type { UpstreamPools } from './proxy.js';
import { SERVICE_NAMES, type ServiceName } from './route-table.js';

export interface UpstreamHealth {
  name: ServiceName;
  status: 'UP' | 'DOWN';
  latencyMs: number;
}

export interface GatewayHealth {
  status: 'UP' | 'DEGRADED';
  services: UpstreamHealth[];
  /** The settlement batch: Redis and the live workers of every step queue. */
  batch?: BatchHealth;
}

async function probe(pools: UpstreamPools, name: ServiceName, timeoutMs: number): Promise<UpstreamHealth> {
  const started = performance.now();
  let up = false;
  try {
    const res = await pools[name].request({
      path: '/api/health',
      method: 'GET',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body.dump();
    up = res.statusCode === 200;
  } catch {
    up = false;
  }
  return { name, status: up ? 'UP' : 'DOWN', latencyMs: Math.round(performance.now() - started) };
}

export async function checkUpstreams(config: GatewayConfig, pools: UpstreamPools): Promise<GatewayHealth> {
  const services = await Promise.all(SERVICE_NAMES.map((name) => probe(pools, name, config.healthTimeoutMs)));
  return { status: services.every((s) => s.status === 'UP') ? 'UP' : 'DEGRADED', services };
}

/**
 * `GET /api/health` (public) is the gateway's own liveness: it always succeeds while the gateway runs
 * and reports each upstream's own `/api/health`, so a stopped service shows as DOWN instead of failing it,
 * and which batch steps have live workers (a step with 0 workers will not run).
 */
export function registerHealthRoute(
  app: FastifyInstance,
  config: GatewayConfig,
  pools: UpstreamPools,
  queues?: BatchQueues,
): void {
  app.get('/api/health', async () => {
    const [upstreams, batch] = await Promise.all([
      checkUpstreams(config, pools),
      queues ? batchHealth(queues) : Promise.resolve(undefined),
    ]);
    return ok({ ...upstreams, ...(batch ? { batch } : {}) });
  });
}
