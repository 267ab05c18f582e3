import type { Database } from '@csp/db';
import { sql, type Kysely } from 'kysely';
import { EventQueues, type DeliverySettings, type RedisConnection } from './queues.js';
import type { LogLike } from './log.js';

export interface OutboxRelayOptions {
  db: Kysely<Database>;
  connection: RedisConnection;
  delivery: DeliverySettings;
  /** Pause between polls when the outbox is empty (ms). */
  intervalMs?: number;
  /** Events per pass (one transaction). */
  batchSize?: number;
  logger: LogLike;
  /** Test hook: runs after the jobs were added and before the rows are marked PUBLISHED. */
  afterPublish?(eventIds: number[]): Promise<void>;
  /** Do not start polling (tests call relayOnce). */
  manual?: boolean;
}

export interface OutboxRelay {
  /** One pass: publishes up to batchSize PENDING events; returns how many. */
  relayOnce(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Publishes PENDING outbox rows to their target's queue and marks them PUBLISHED, in one transaction that
 * holds the rows (FOR UPDATE SKIP LOCKED): relays in several processes share the work, and a relay that dies
 * after publishing but before committing leaves the rows PENDING, so they are published again with the same
 * job id (BullMQ ignores the second add; the consumer's processed_event ignores any later duplicate).
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const queues = new EventQueues(options.connection, options.delivery);
  const batchSize = options.batchSize ?? 100;
  const intervalMs = options.intervalMs ?? 500;
  let closed = false;
  let wake: (() => void) | undefined;

  const relayOnce = () =>
    options.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('event_outbox')
        .select(['event_id', 'event_key', 'event_type', 'target', 'trace_parent'])
        .where('status', '=', 'PENDING')
        .orderBy('event_id')
        .limit(batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      if (rows.length === 0) return 0;
      await queues.publish(
        rows.map((r) => ({ eventId: r.event_id, eventKey: r.event_key, type: r.event_type, target: r.target, traceParent: r.trace_parent })),
      );
      const ids = rows.map((r) => r.event_id);
      await options.afterPublish?.(ids);
      await trx
        .updateTable('event_outbox')
        .set({ status: 'PUBLISHED', published_at: sql`now()`, publish_count: sql`publish_count + 1` })
        .where('event_id', 'in', ids)
        .execute();
      return rows.length;
    });

  const loop = async () => {
    while (!closed) {
      let published = 0;
      try {
        published = await relayOnce();
      } catch (err) {
        options.logger.warn({ err }, 'outbox relay pass failed; retrying');
      }
      if (published === batchSize || closed) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };
  const running = options.manual ? Promise.resolve() : loop();

  return {
    relayOnce,
    async close() {
      closed = true;
      wake?.();
      await running;
      await queues.close();
    },
  };
}
