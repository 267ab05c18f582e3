import type { Database } from '@csp/db';
import { sql, type Kysely } from 'kysely';
import { EventQueues, type DeliverySettings, type RedisConnection } from './queues.js';

export class ParkedEventStateError extends Error {
  override name = 'ParkedEventStateError';
}

/**
 * Puts a parked event back on its consumer's queue (after an operator fixed the cause): the parked row
 * becomes REPLAYED and a new job (id with a replay suffix) is added. The consumer's processed_event check
 * still guarantees a single effect. Returns the event id; throws ParkedEventStateError when not PARKED.
 */
export async function replayParkedEvent(
  db: Kysely<Database>,
  connection: RedisConnection,
  delivery: DeliverySettings,
  parkedId: number,
  userId: number | null,
): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    const parked = await trx
      .selectFrom('parked_event as p')
      .innerJoin('event_outbox as o', 'o.event_id', 'p.event_id')
      .select(['p.parked_id', 'p.status', 'p.consumer', 'o.event_id', 'o.event_key', 'o.event_type'])
      .where('p.parked_id', '=', parkedId)
      .forUpdate('p')
      .executeTakeFirst();
    if (!parked) return undefined;
    if (parked.status !== 'PARKED') throw new ParkedEventStateError(`Parked event ${parkedId} is ${parked.status}`);
    await trx
      .updateTable('parked_event')
      .set({ status: 'REPLAYED', resolved_at: sql`now()`, resolved_by: userId })
      .where('parked_id', '=', parkedId)
      .execute();
    const queues = new EventQueues(connection, delivery);
    try {
      await queues.publish(
        [{ eventId: parked.event_id, eventKey: parked.event_key, type: parked.event_type, target: parked.consumer }],
        `-replay-${Date.now()}`,
      );
    } finally {
      await queues.close();
    }
    return parked.event_id;
  });
}
