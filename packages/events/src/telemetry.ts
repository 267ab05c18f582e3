import type { Database } from '@csp/db';
import { contextFromCarrier } from '@csp/service-kit/ops';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { sql, type Kysely } from 'kysely';
import { Counter, Gauge } from 'prom-client';
import type { EventJobData } from './queues.js';

/** Metrics (prom-client default registry) and the consumer span of the events between services. */

const tracer = trace.getTracer('@csp/events');

export const eventsConsumed = new Counter({
  name: 'csp_events_consumed_total',
  help: 'Events a consumer handled, by outcome (applied, duplicate, parked, stale, error)',
  labelNames: ['consumer', 'outcome'] as const,
});

const observed = new Set<Kysely<Database>>();

/**
 * Scrape-time queries start one microtask late: a scrape runs every collect() in one synchronous pass,
 * and a query taking a pool connection in that pass would show as "waiting" in the pool gauge
 * (csp_db_pool_connections) read in the same pass.
 */
const afterSynchronousGauges = () => Promise.resolve();

export const outboxLag = new Gauge({
  name: 'csp_events_outbox_lag_seconds',
  help: 'Age of the oldest PENDING (unpublished) outbox event, 0 when none',
  async collect() {
    const db = [...observed][0];
    if (!db) return;
    await afterSynchronousGauges();
    const { rows } = await sql<{ age: string | null }>`
      SELECT extract(epoch FROM now() - min(created_at))::text AS age FROM event_outbox WHERE status = 'PENDING'`.execute(db);
    this.set(rows[0]?.age ? Number(rows[0].age) : 0);
  },
});

export const parkedEvents = new Gauge({
  name: 'csp_events_parked',
  help: 'Events parked for an operator, per consumer',
  labelNames: ['consumer'] as const,
  async collect() {
    const db = [...observed][0];
    if (!db) return;
    await afterSynchronousGauges();
    const rows = await db
      .selectFrom('parked_event')
      .select(['consumer', (eb) => eb.fn.countAll<string>().as('n')])
      .where('status', '=', 'PARKED')
      .groupBy('consumer')
      .execute();
    this.reset();
    for (const r of rows) this.set({ consumer: r.consumer }, Number(r.n));
  },
});

/** Outbox lag and parked counts are read at scrape time from this database (one process is enough). */
export function observeEvents(db: Kysely<Database>): () => void {
  observed.add(db);
  return () => observed.delete(db);
}

/** Runs the consumer inside a span that continues the writer's trace (job data `traceparent`). */
export async function consumeInSpan<T extends string>(consumer: string, data: EventJobData, work: () => Promise<T>): Promise<T> {
  const parent = contextFromCarrier(data);
  const span = tracer.startSpan(
    `event ${data.type}`,
    { kind: SpanKind.CONSUMER, attributes: { 'event.id': data.eventId, 'event.type': data.type, 'event.consumer': consumer } },
    parent,
  );
  try {
    const outcome = await context.with(trace.setSpan(parent, span), work);
    span.setAttribute('event.outcome', outcome);
    eventsConsumed.inc({ consumer, outcome });
    return outcome;
  } catch (err) {
    eventsConsumed.inc({ consumer, outcome: 'error' });
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    span.end();
  }
}
