import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { collectDefaultMetrics, Gauge, Histogram, register } from 'prom-client';
import { z } from 'zod';

/**
 * Prometheus metrics of every process (prom-client's default registry, shared with @csp/batch and
 * @csp/events). They are served on their own ops port (METRICS_PORT), never on the public port:
 * the port is reached by Prometheus inside the cluster network only.
 */

/** The ops settings every process reads (services, gateway and workers). */
export const opsEnvShape = {
  /** Port of the /metrics listener; unset = no metrics listener. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('0.0.0.0'),
};
export const opsEnv = z.object(opsEnvShape);
export type OpsEnv = z.output<typeof opsEnv>;

export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequestDuration = new Histogram({
  name: 'csp_http_request_duration_seconds',
  help: 'HTTP requests by service, method, route pattern and status code',
  labelNames: ['service', 'method', 'route', 'status'] as const,
  buckets: HTTP_DURATION_BUCKETS,
});

const pools = new Map<string, pg.Pool>();

/** Connections of each observed pool: total, idle, in use, and clients waiting for one. */
export const dbPoolConnections = new Gauge({
  name: 'csp_db_pool_connections',
  help: 'PostgreSQL pool connections by state (total, idle, in_use, waiting)',
  labelNames: ['service', 'state'] as const,
  collect() {
    for (const [service, pool] of pools) {
      this.set({ service, state: 'total' }, pool.totalCount);
      this.set({ service, state: 'idle' }, pool.idleCount);
      this.set({ service, state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ service, state: 'waiting' }, pool.waitingCount);
    }
  },
});

export function observePool(service: string, pool: pg.Pool): void {
  pools.set(service, pool);
}

let defaultsOn = false;
/** Process metrics (CPU, memory, event loop lag, GC) once per process. */
export function collectProcessMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics();
}

/** Records every answered request; the route is the pattern (`/api/agents/:id`), never the raw url. */
export const httpMetrics = fp<{ service: string }>(
  async (app, { service }) => {
    app.addHook('onResponse', (request, reply, done) => {
      httpRequestDuration.observe(
        {
          service,
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
      done();
    });
  },
  { name: 'csp-http-metrics' },
);

export async function registerHttpMetrics(app: FastifyInstance, service: string): Promise<void> {
  await app.register(httpMetrics, { service });
}

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/** The ops listener: GET /metrics in the Prometheus text format, 404 for anything else. */
export async function startMetricsServer(port: number, host = '0.0.0.0'): Promise<MetricsServer> {
  collectProcessMetrics();
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?', 1)[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    register.metrics().then(
      (body) => res.writeHead(200, { 'content-type': register.contentType }).end(body),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Starts the metrics listener when METRICS_PORT is set (validated; a bad value refuses to start). */
export async function startOpsListener(env: Record<string, string | undefined> = process.env): Promise<MetricsServer | undefined> {
  const parsed = opsEnv.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid ops configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  if (parsed.data.METRICS_PORT === undefined) return undefined;
  return startMetricsServer(parsed.data.METRICS_PORT, parsed.data.METRICS_HOST);
}

/** The whole /metrics text of this process (tests). */
export function metricsText(): Promise<string> {
  return register.metrics();
}
