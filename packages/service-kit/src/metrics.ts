import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { collectDefaultMetrics, Gauge, register } from 'prom-client';
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

/**
 * One label set's histogram: counts per bucket (not cumulative), sum and count.
 */
interface HistogramCell {
  readonly labels: Readonly<Record<string, string>>;
  readonly counts: number[];
  sum: number;
  count: number;
}

/**
 * The HTTP request histogram. prom-client's Histogram validates and hashes the label object on every
 * observe (about 1.7 µs, a tenth of what telemetry cost a gateway request, issue 25); a request's
 * labels are known strings, so this one finds its cell by one string key and adds to it (~0.1 µs). It
 * is a prom-client metric all the same (registered in the default registry, served by
 * `register.metrics()` in the histogram text format: cumulative `_bucket` lines with `le`, `_sum`,
 * `_count`, exactly as prom-client's Histogram writes them).
 */
export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly cells = new Map<string, HistogramCell>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
  ) {
    register.registerMetric(this as unknown as Parameters<typeof register.registerMetric>[0]);
  }

  observe(service: string, method: string, route: string, status: number, seconds: number): void {
    const key = `${service} ${method} ${status} ${route}`;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = { labels: { service, method, route, status: String(status) }, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.cells.set(key, cell);
    }
    const buckets = this.buckets;
    const counts = cell.counts;
    for (let i = 0; i < buckets.length; i += 1) {
      if (seconds <= buckets[i]!) {
        counts[i]! += 1;
        break;
      }
    }
    cell.sum += seconds;
    cell.count += 1;
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: { metricName: string; labels: Record<string, string | number>; value: number }[] } {
    const values: { metricName: string; labels: Record<string, string | number>; value: number }[] = [];
    for (const cell of this.cells.values()) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += cell.counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { ...cell.labels, le }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...cell.labels, le: '+Inf' }, value: cell.count });
      values.push({ metricName: `${this.name}_sum`, labels: cell.labels, value: cell.sum });
      values.push({ metricName: `${this.name}_count`, labels: cell.labels, value: cell.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.cells.clear();
  }
}

/** HTTP requests by service, method, route pattern and status code. */
export const httpRequestDuration = new RequestHistogram(
  'csp_http_request_duration_seconds',
  'HTTP requests by service, method, route pattern and status code',
  HTTP_DURATION_BUCKETS,
);

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
      httpRequestDuration.observe(service, request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
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
