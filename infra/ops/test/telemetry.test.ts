import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineStep, launchRun, startWatchdog, STEP_NAMES, type Watchdog } from '@csp/batch';
import { createBatchHarness, noopStepsExcept, TEST_REDIS_URL, testLogger, waitFor, waitForRunEnd, type BatchHarness } from '@csp/batch/testing';
import { observeEvents, startEventWorker, startOutboxRelay, writeEvent, type EventConsumer, type EventWorker } from '@csp/events';
import { buildGatewayApp } from '@csp/gateway/app';
import { loadGatewayConfig } from '@csp/gateway/config';
import { createServiceApp, loadServiceConfig, publicRoute } from '@csp/service-kit';
import { flushTracing, startInMemoryTracing, startMetricsServer, stopTracing, type MetricsServer } from '@csp/service-kit/ops';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * One process plays gateway, ledger-settlement (the run endpoint), the 13 step workers and an event
 * consumer, with tracing on into memory: a request through the gateway that starts a month run and
 * writes an event must come out as ONE trace, and the /metrics of that process must carry every metric
 * the Grafana dashboard and the Prometheus alert rules use.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const MONTH = '202412'; // December: the year-end and quarterly steps do work too

let exporter: InMemorySpanExporter;
let h: BatchHarness;
let service: FastifyInstance;
let gateway: FastifyInstance;
let gatewayUrl: string;
let redis: Redis;
let consumerWorker: EventWorker;
let watchdog: Watchdog;
let metrics: MetricsServer;
let metricsOutput = '';
let runId = 0;

const probeConsumer: EventConsumer = { name: 'ops-probe', handlers: { OPS_PROBE: async () => {} } };

beforeAll(async () => {
  exporter = await startInMemoryTracing('ops-test');
  h = await createBatchHarness({ name: 'ops' });
  const calcMaintain = defineStep({ name: 'calcMaintain', run: async () => ({ total: 3, success: 3, error: 0 }) });
  await h.startWorkers({ steps: [calcMaintain, ...noopStepsExcept([calcMaintain])] });
  watchdog = startWatchdog(h.db, h.queues, { logger: testLogger, intervalMs: 3_600_000 });

  redis = new Redis(TEST_REDIS_URL, { keyPrefix: `${h.prefix}:app:` });
  const config = loadServiceConfig('ledger-settlement', {}, { NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  service = await createServiceApp({ name: 'ledger-settlement', config, db: h.db, pool: h.tdb.pool, redis });
  // The run endpoint's two effects that leave the request: a month run and an event in the outbox.
  service.post('/api/batch/ops-probe', { config: publicRoute() }, async () => {
    const run = await launchRun(h.db, h.queues, { settleMonth: MONTH });
    await h.db.transaction().execute((trx) => writeEvent(trx, { type: 'OPS_PROBE', target: 'ops-probe', payload: { runId: run.jobLogId } }));
    return { runId: run.jobLogId };
  });
  await service.listen({ port: 0, host: '127.0.0.1' });
  const servicePort = (service.server.address() as AddressInfo).port;

  gateway = await buildGatewayApp(
    // METRICS_PORT: the gateway records its HTTP histogram only when it serves /metrics (this process's
    // listener below plays that port)
    loadGatewayConfig({
      NODE_ENV: 'test', LEDGER_SETTLEMENT_URL: `http://127.0.0.1:${servicePort}`, REDIS_URL: TEST_REDIS_URL, BATCH_PREFIX: h.prefix, METRICS_PORT: '0',
    }),
  );
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;

  consumerWorker = startEventWorker({ db: h.db, consumer: probeConsumer, logger: testLogger, connection: TEST_REDIS_URL, prefix: h.prefix });
  observeEvents(h.db);
  metrics = await startMetricsServer(0, '127.0.0.1');

  const res = await fetch(`${gatewayUrl}/api/batch/ops-probe`, { method: 'POST', headers: { authorization: 'Bearer probe' } });
  expect(res.status).toBe(200);
  runId = ((await res.json()) as { runId: number }).runId;
  const status = await waitForRunEnd(h.db, runId);
  expect(status.run.status).toBe('COMPLETED');

  const relay = startOutboxRelay({ db: h.db, connection: TEST_REDIS_URL, delivery: { prefix: h.prefix, attempts: 2, backoffMs: 10 }, logger: testLogger, manual: true });
  expect(await relay.relayOnce()).toBe(1);
  await relay.close();
  await waitFor(async () => h.db.selectFrom('processed_event').select('event_id').where('consumer', '=', 'ops-probe').executeTakeFirst(), { what: 'the probe event to be consumed' });
  await watchdog.check();
  // spans leave through the batch processor (as with OTLP): flush what is still queued
  await waitFor(
    async () => {
      await flushTracing();
      return exporter.getFinishedSpans().some((s) => s.name === 'event OPS_PROBE');
    },
    { what: 'the consumer span' },
  );
  metricsOutput = await (await fetch(`http://127.0.0.1:${metrics.port}/metrics`)).text();
}, 60_000);

afterAll(async () => {
  watchdog?.stop();
  await metrics?.close();
  await consumerWorker?.close();
  await gateway?.close();
  await service?.close();
  redis?.disconnect();
  await h?.close();
  await stopTracing();
});

const spans = () => exporter.getFinishedSpans();
/** SpanKind.SERVER of @opentelemetry/api (not a dependency of this package): a request span. */
const SERVER = 1;
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const traceOf = (s: ReadableSpan) => s.spanContext().traceId;

function isDescendant(span: ReadableSpan, ancestor: ReadableSpan): boolean {
  const byId = new Map(spans().map((s) => [idOf(s), s]));
  let current: ReadableSpan | undefined = span;
  while (current) {
    if (parentOf(current) === idOf(ancestor)) return true;
    current = byId.get(parentOf(current) ?? '');
  }
  return false;
}

function tree(root: ReadableSpan, depth = 0): string[] {
  const children = spans()
    .filter((s) => parentOf(s) === idOf(root))
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  // a request span's name already carries its method and route
  return [`${'  '.repeat(depth)}${root.name}`, ...children.flatMap((c) => tree(c, depth + 1))];
}

describe('traces: gateway -> service -> month run -> steps, and an event', () => {
  it('the gateway request and the service request are one trace, the service span a child of the gateway', () => {
    // the gateway's span is named by its proxy route, the service's by the run endpoint's route
    const requests = spans().filter((s) => s.kind === SERVER && s.name.startsWith('POST /api/batch/'));
    expect(requests).toHaveLength(2);
    const [outer, inner] = requests.sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    expect(traceOf(inner!)).toBe(traceOf(outer!));
    expect(isDescendant(inner!, outer!)).toBe(true);
  });

  it('one month run is one run span with a span for each of the 13 steps under it, in the request trace', () => {
    const runs = spans().filter((s) => s.name === 'settlement run' && s.attributes['batch.run_id'] === runId);
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    const gatewayRequest = spans().find((s) => s.kind === SERVER && parentOf(s) === undefined)!;
    expect(traceOf(run)).toBe(traceOf(gatewayRequest));
    const stepSpans = spans().filter((s) => s.name.startsWith('step ') && s.attributes['batch.run_id'] === runId);
    expect(stepSpans.map((s) => s.attributes['batch.step']).sort()).toEqual([...STEP_NAMES].sort());
    for (const s of stepSpans) {
      expect(parentOf(s)).toBe(idOf(run));
      expect(traceOf(s)).toBe(traceOf(run));
    }
    const treeText = `span tree of run ${runId}:\n${tree(gatewayRequest).join('\n')}\n`;
    writeFileSync(join(tmpdir(), 'csp-telemetry-span-tree.txt'), treeText);
    console.log(treeText);
  });

  it('an event carries the trace of the request that wrote it to its consumer', () => {
    const consumed = spans().find((s) => s.name === 'event OPS_PROBE')!;
    const gatewayRequest = spans().find((s) => s.kind === SERVER && parentOf(s) === undefined)!;
    expect(traceOf(consumed)).toBe(traceOf(gatewayRequest));
    expect(consumed.attributes['event.outcome']).toBe('applied');
    expect(isDescendant(consumed, gatewayRequest)).toBe(true);
  });
});

/** Metric names used by PromQL expressions (histogram series suffixes map to their family). */
function metricNames(expressions: string[]): string[] {
  const names = new Set<string>();
  for (const e of expressions) for (const m of e.matchAll(/\bcsp_[a-z_]+/g)) names.add(m[0].replace(/_(bucket|sum|count)$/, ''));
  return [...names].sort();
}

describe('metrics: every metric of the dashboard and the alert rules is in a live /metrics', () => {
  const dashboard = JSON.parse(readFileSync(join(ROOT, 'infra/grafana/dashboards/commission-platform.json'), 'utf8')) as {
    panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
  };
  const rules = parse(readFileSync(join(ROOT, 'infra/prometheus/alerts.yml'), 'utf8')) as {
    groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
  };
  const dashboardExprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
  const ruleExprs = rules.groups.flatMap((g) => g.rules.map((r) => r.expr));

  it('the dashboard and the rules cover steps, queues, workers, HTTP, outbox and the watchdog', () => {
    expect(metricNames(dashboardExprs)).toEqual([
      'csp_batch_active_run_age_seconds',
      'csp_batch_chunk_duration_seconds',
      'csp_batch_queue_jobs',
      'csp_batch_rows_processed_total',
      'csp_batch_step_duration_seconds',
      'csp_batch_step_failures_total',
      'csp_batch_watchdog_stalled_runs',
      'csp_batch_workers',
      'csp_db_pool_connections',
      'csp_events_outbox_lag_seconds',
      'csp_events_parked',
      'csp_http_request_duration_seconds',
    ]);
    expect(rules.groups.flatMap((g) => g.rules.map((r) => r.alert))).toEqual(
      expect.arrayContaining(['BatchStepWaitingWithoutWorker', 'BatchRunPastExpectedTime', 'OutboxLagHigh', 'Http5xxRate']),
    );
  });

  it('every metric they name is exposed by the running process', () => {
    const missing = metricNames([...dashboardExprs, ...ruleExprs]).filter((name) => !metricsOutput.includes(`# TYPE ${name} `));
    expect(missing).toEqual([]);
  });

  it('the month run is counted: step durations per step, rows of calcMaintain, live workers, queue depth, HTTP by route', () => {
    for (const step of STEP_NAMES) {
      expect(metricsOutput).toMatch(new RegExp(`^csp_batch_step_duration_seconds_count\\{step="${step}",outcome="completed"\\} [1-9]`, 'm'));
      expect(metricsOutput).toMatch(new RegExp(`^csp_batch_workers\\{step="${step}"\\} 1$`, 'm'));
      expect(metricsOutput).toMatch(new RegExp(`^csp_batch_queue_jobs\\{step="${step}",state="waiting"\\} 0$`, 'm'));
    }
    expect(metricsOutput).toMatch(/^csp_batch_rows_processed_total\{step="calcMaintain",result="success"\} 3$/m);
    expect(metricsOutput).toMatch(/^csp_http_request_duration_seconds_count\{service="gateway",method="POST",route="\/api\/batch\/\*",status="200"\} 1$/m);
    expect(metricsOutput).toMatch(/^csp_http_request_duration_seconds_count\{service="ledger-settlement",method="POST",route="\/api\/batch\/ops-probe",status="200"\} 1$/m);
    expect(metricsOutput).toMatch(/^csp_db_pool_connections\{service="ledger-settlement",state="total"\} \d+$/m);
    // the scrape's own queries (run age, outbox lag, parked events) must not count as clients waiting
    expect(metricsOutput).toMatch(/^csp_db_pool_connections\{service="ledger-settlement",state="waiting"\} 0$/m);
    expect(metricsOutput).toMatch(/^csp_events_consumed_total\{consumer="ops-probe",outcome="applied"\} 1$/m);
    expect(metricsOutput).toMatch(/^csp_batch_active_run_age_seconds 0$/m);
    const excerpt = `/metrics excerpt:\n${metricsOutput
      .split('\n')
      .filter((l) => /^csp_(batch_step_duration_seconds_(count|sum)\{step="calc|batch_rows|batch_workers\{step="calc|batch_queue_jobs\{step="calcMaintain"|http_request_duration_seconds_count|events_|db_pool|batch_active|batch_watchdog)/.test(l))
      .join('\n')}\n`;
    writeFileSync(join(tmpdir(), 'csp-telemetry-metrics.txt'), excerpt);
    console.log(excerpt);
  });
});
