import type { Database } from '@csp/db';
import { Worker, type Job } from 'bullmq';
import { sql, type Kysely, type Transaction } from 'kysely';
import { EVENT_PAYLOADS, isEventType, type EventType, type PayloadOf } from './contract.js';
import type { LogLike } from './log.js';
import { eventQueueName, openRedis, type EventJobData, type RedisConnection } from './queues.js';
import { consumeInSpan } from './telemetry.js';

/** An event as a handler sees it (payload validated against the contract). */
export interface ConsumedEvent<P = unknown> {
  eventId: number;
  type: string;
  target: string;
  subject: string | null;
  payload: P;
  createdAt: Date;
  /** 1 on the first delivery attempt */
  attempt: number;
}

/** Work to do after the effect has committed (an external call); its failure is logged, never retried here. */
export type AfterCommit = () => Promise<void>;

/**
 * Applies one event inside `trx`, the transaction that also records it as processed: the effect and the
 * record commit together. Throw EventRefusal when the event can never be applied (parked at once); any other
 * error is retried with backoff and the event is parked after the last attempt.
 */
export type EventHandler<P = unknown> = (trx: Transaction<Database>, event: ConsumedEvent<P>) => Promise<void | AfterCommit>;

export type ContractHandlers = { [T in EventType]?: EventHandler<PayloadOf<T>> };

export interface EventConsumer {
  /** The consumer's name = the service whose queue it reads (`events.<name>`). */
  readonly name: string;
  readonly handlers: Readonly<Record<string, EventHandler<any> | undefined>>;
}

/** A consumer of contract events, typed per event type. */
export function defineConsumer(name: string, handlers: ContractHandlers): EventConsumer {
  return { name, handlers };
}

/** A business refusal: retrying cannot help, the event is parked for an operator with this message. */
export class EventRefusal extends Error {
  override name = 'EventRefusal';
}

export type ApplyOutcome = 'applied' | 'duplicate' | 'parked' | 'stale';

export interface ApplyHooks {
  /** Test hook: runs inside the effect's transaction, after the handler, before COMMIT. */
  beforeCommit?(event: ConsumedEvent): Promise<void>;
  /** Test hook: runs after COMMIT, before the job is acknowledged. */
  afterCommit?(event: ConsumedEvent): Promise<void>;
}

export interface ApplyOptions {
  db: Kysely<Database>;
  consumer: EventConsumer;
  logger: LogLike;
  hooks?: ApplyHooks;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/** Records an event the consumer gives up on (idempotent: a second park updates the row). */
export async function parkEvent(
  db: Kysely<Database>,
  consumer: string,
  event: { eventId: number; type: string; subject: string | null; payload: unknown },
  attempts: number,
  error: unknown,
): Promise<void> {
  await db
    .insertInto('parked_event')
    .values({
      consumer,
      event_id: event.eventId,
      event_type: event.type,
      subject: event.subject,
      payload: JSON.stringify(event.payload ?? null),
      attempts,
      error_message: message(error) || 'unknown error',
    })
    .onConflict((oc) =>
      oc.columns(['consumer', 'event_id']).doUpdateSet({
        status: 'PARKED',
        attempts: (eb) => eb.ref('excluded.attempts'),
        error_message: (eb) => eb.ref('excluded.error_message'),
        parked_at: sql`now()`,
        resolved_at: null,
        resolved_by: null,
      }),
    )
    .execute();
}

/**
 * Applies one delivered event exactly once in effect: the processed_event row (consumer, event id) is
 * claimed in the same transaction as the handler's writes. A duplicate delivery finds the row and changes
 * nothing; a delivery whose transaction never committed (process killed) leaves no row and is applied again.
 */
export async function applyEvent(
  options: ApplyOptions,
  job: { data: EventJobData; attempt: number; maxAttempts: number },
): Promise<ApplyOutcome> {
  return consumeInSpan(options.consumer.name, job.data, () => applyOnce(options, job));
}

async function applyOnce(
  options: ApplyOptions,
  job: { data: EventJobData; attempt: number; maxAttempts: number },
): Promise<ApplyOutcome> {
  const { db, consumer, logger } = options;
  const row = await db
    .selectFrom('event_outbox')
    .select(['event_id', 'event_key', 'event_type', 'target', 'subject', 'payload', 'created_at'])
    .where('event_id', '=', job.data.eventId)
    .executeTakeFirst();
  // A job of another database (reset, restore, another environment on the same Redis): not ours.
  if (!row || row.event_key !== job.data.eventKey) {
    logger.warn({ eventId: job.data.eventId, consumer: consumer.name }, 'event job without its outbox row: ignored');
    return 'stale';
  }
  const base = { eventId: row.event_id, type: row.event_type, subject: row.subject, payload: row.payload };
  const event: ConsumedEvent = {
    eventId: row.event_id,
    type: row.event_type,
    target: row.target,
    subject: row.subject,
    payload: row.payload,
    createdAt: row.created_at,
    attempt: job.attempt,
  };
  try {
    const handler = consumer.handlers[row.event_type];
    if (!handler) throw new EventRefusal(`${consumer.name} has no handler for ${row.event_type}`);
    if (isEventType(row.event_type)) {
      const parsed = EVENT_PAYLOADS[row.event_type].safeParse(row.payload);
      if (!parsed.success) throw new EventRefusal(`${row.event_type} payload does not follow the contract: ${parsed.error.message}`);
      event.payload = parsed.data;
    }
    let after: AfterCommit | undefined;
    const applied = await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('processed_event')
        .values({ consumer: consumer.name, event_id: row.event_id, event_type: row.event_type })
        .onConflict((oc) => oc.columns(['consumer', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst();
      if (!claimed) return false;
      const result = await handler(trx, event);
      if (typeof result === 'function') after = result;
      await options.hooks?.beforeCommit?.(event);
      return true;
    });
    if (!applied) {
      logger.info({ eventId: row.event_id, consumer: consumer.name }, 'event already applied: duplicate delivery ignored');
      return 'duplicate';
    }
    await options.hooks?.afterCommit?.(event);
    const work = after as AfterCommit | undefined;
    if (work) {
      try {
        await work();
      } catch (err) {
        logger.warn({ err, eventId: row.event_id, consumer: consumer.name }, 'after-commit work of an applied event failed');
      }
    }
    return 'applied';
  } catch (err) {
    const refused = err instanceof EventRefusal;
    if (!refused && job.attempt < job.maxAttempts) throw err;
    await parkEvent(db, consumer.name, base, job.attempt, err);
    logger.error(
      { err, eventId: row.event_id, consumer: consumer.name, attempt: job.attempt },
      refused ? 'event refused: parked' : 'event failed on its last attempt: parked',
    );
    return 'parked';
  }
}

export interface EventWorkerOptions extends ApplyOptions {
  connection: RedisConnection;
  prefix?: string | undefined;
  concurrency?: number;
  /** BullMQ lock duration / stalled check (ms): a killed consumer's job comes back after ~2 x stalledInterval. */
  lockDuration?: number;
  stalledInterval?: number;
}

export interface EventWorker {
  readonly worker: Worker<EventJobData, ApplyOutcome>;
  close(): Promise<void>;
}

function attemptOf(job: Job<EventJobData>): { attempt: number; maxAttempts: number } {
  return { attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1 };
}

/** A BullMQ worker on `events.<consumer>` applying each event through applyEvent. */
export function startEventWorker(options: EventWorkerOptions): EventWorker {
  const { client, owned } = openRedis(options.connection);
  const worker = new Worker<EventJobData, ApplyOutcome>(
    eventQueueName(options.consumer.name),
    (job) => applyEvent(options, { data: job.data, ...attemptOf(job) }),
    {
      connection: client,
      concurrency: options.concurrency ?? 4,
      ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
      ...(options.lockDuration !== undefined ? { lockDuration: options.lockDuration } : {}),
      ...(options.stalledInterval !== undefined ? { stalledInterval: options.stalledInterval } : {}),
    },
  );
  // BullMQ fails a job itself when it stalled too often (never reaching applyEvent's parking): park it here.
  worker.on('failed', (job, err) => {
    if (!job || !/stalled/i.test(err.message)) return;
    void (async () => {
      const row = await options.db
        .selectFrom('event_outbox')
        .select(['event_id', 'event_type', 'subject', 'payload'])
        .where('event_id', '=', job.data.eventId)
        .executeTakeFirst();
      if (!row) return;
      await parkEvent(options.db, options.consumer.name, { eventId: row.event_id, type: row.event_type, subject: row.subject, payload: row.payload }, job.attemptsMade, err);
    })().catch((e: unknown) => options.logger.error({ err: e }, 'parking a stalled event failed'));
  });
  worker.on('error', (err) => options.logger.warn({ err }, 'event worker error'));
  return {
    worker,
    async close() {
      await worker.close();
      if (owned) await client.quit().catch(() => client.disconnect());
    },
  };
}
