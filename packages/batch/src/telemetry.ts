import type { Database, Db } from '@csp/db';
import { contextFromCarrier, traceCarrierOf } from '@csp/service-kit/ops';
import { SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { sql, type Kysely } from 'kysely';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { StepCounts } from './job-log.js';
import type { StepPayload } from './payload.js';
import type { BatchQueues } from './queues.js';
import { STEP_NAMES, type StepName } from './steps.js';

/**
 * Metrics (prom-client's default registry; the process serves them on its ops port) and trace
 * propagation of the settlement batch. A run's W3C trace context travels in every step job's
 * payload (`trace`), so each step and chunk span is a child of the one run span.
 */

export const tracer = trace.getTracer('@csp/batch');

const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

export const stepDuration = new Histogram({
  name: 'csp_batch_step_duration_seconds',
  help: 'Duration of one step job (a whole step, or the planning job of a split step)',
  labelNames: ['step', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
});

export const chunkDuration = new Histogram({
  name: 'csp_batch_chunk_duration_seconds',
  help: 'Duration of one chunk job of a split step',
  labelNames: ['step'] as const,
  buckets: DURATION_BUCKETS,
});

export const rowsProcessed = new Counter({
  name: 'csp_batch_rows_processed_total',
  help: 'Rows a step processed, by result (success, error, skipped)',
  labelNames: ['step', 'result'] as const,
});

export const stepFailures = new Counter({
  name: 'csp_batch_step_failures_total',
  help: 'Failed step or chunk attempts; final = the run failed with it',
  labelNames: ['step', 'final'] as const,
});

export const liveWorkers = new Gauge({
  name: 'csp_batch_workers',
  help: 'Step workers running in this process (sum over processes = live workers per step)',
  labelNames: ['step'] as const,
});

type AnyDb = Db | Kysely<Database>;

/**
 * Scrape-time queries start one microtask late: a scrape runs every collect() in one synchronous pass,
 * and a query taking a pool connection in that pass would show as "waiting" in the pool gauge
 * (csp_db_pool_connections) read in the same pass.
 */
const afterSynchronousGauges = () => Promise.resolve();
interface Observed {
  db: AnyDb;
  queues: BatchQueues;
}
const observed = new Set<Observed>();
let watchdogStalled = 0;

export const queueJobs = new Gauge({
  name: 'csp_batch_queue_jobs',
  help: 'Jobs of each step queue by state (waiting, active, delayed, failed)',
  labelNames: ['step', 'state'] as const,
  async collect() {
    const source = [...observed][0];
    if (!source) return;
    await afterSynchronousGauges();
    this.reset();
    await Promise.all(
      STEP_NAMES.map(async (step) => {
        const counts = await source.queues.queue(step).getJobCounts('waiting', 'active', 'delayed', 'failed');
        for (const state of ['waiting', 'active', 'delayed', 'failed'] as const) {
          this.set({ step, state }, counts[state] ?? 0);
        }
      }),
    );
  },
});

export const activeRunAge = new Gauge({
  name: 'csp_batch_active_run_age_seconds',
  help: 'Age of the oldest REQUESTED or RUNNING settlement run (0 when none)',
  async collect() {
    const source = [...observed][0];
    if (!source) return;
    await afterSynchronousGauges();
    const { rows } = await sql<{ age: string | null }>`
      SELECT extract(epoch FROM now() - min(created_at))::text AS age FROM batch_job_log
       WHERE step_name IS NULL AND status IN ('REQUESTED', 'RUNNING')`.execute(source.db);
    this.set(rows[0]?.age ? Number(rows[0].age) : 0);
  },
});

export const watchdogFindings = new Gauge({
  name: 'csp_batch_watchdog_stalled_runs',
  help: 'Active runs the batch watchdog found stalled in its last pass',
  collect() {
    this.set(watchdogStalled);
  },
});

/** Queue depths and run age are read at scrape time from the process that runs the watchdog. */
export function observeBatch(db: AnyDb, queues: BatchQueues): () => void {
  const entry = { db, queues };
  observed.add(entry);
  return () => observed.delete(entry);
}

export function recordWatchdogPass(stalled: number): void {
  watchdogStalled = stalled;
}

export function recordCounts(step: StepName, counts: StepCounts): void {
  if (counts.success > 0) rowsProcessed.inc({ step, result: 'success' }, counts.success);
  if (counts.error > 0) rowsProcessed.inc({ step, result: 'error' }, counts.error);
  if (counts.skipped) rowsProcessed.inc({ step, result: 'skipped' }, counts.skipped);
}

/** The W3C context of `ctx` for a job payload (the kit's one writer); undefined when tracing is off. */
export function traceOf(ctx: Context): StepPayload['trace'] {
  return traceCarrierOf(ctx);
}

/** Parent context carried by a job payload (the kit's one reader; the active one when the payload has none). */
export function contextOf(payload: { trace?: StepPayload['trace'] }): Context {
  return contextFromCarrier(payload.trace);
}

export function endSpan(span: Span, err?: unknown): void {
  if (err !== undefined) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  }
  span.end();
}
