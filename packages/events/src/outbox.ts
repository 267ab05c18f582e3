import type { Database } from '@csp/db';
import { traceCarrierOf } from '@csp/service-kit/ops';
import type { Kysely } from 'kysely';
import { contractSubject, contractTarget, EVENT_PAYLOADS, isEventType, type EventType, type PayloadOf } from './contract.js';

export interface NewEvent {
  type: string;
  /** the owning service whose queue receives the event */
  target: string;
  /** what the event is about (`WITHDRAW#12`), for operators */
  subject?: string | null;
  payload: unknown;
}

export class EventContractError extends Error {
  override name = 'EventContractError';
}

/**
 * Writes an event into the outbox with `db` = the transaction of the decision, so the decision and its
 * event commit together (or neither does). A contract type is validated and must go to its contract target.
 * Returns the event id.
 */
export async function writeEvent(db: Kysely<Database>, event: NewEvent): Promise<number> {
  let payload = event.payload;
  if (isEventType(event.type)) {
    const parsed = EVENT_PAYLOADS[event.type].safeParse(event.payload);
    if (!parsed.success) {
      throw new EventContractError(`${event.type} payload does not follow the contract: ${parsed.error.message}`);
    }
    payload = parsed.data;
    const expected = contractTarget(event.type, parsed.data);
    if (expected !== event.target) {
      throw new EventContractError(`${event.type} goes to ${expected}, not ${event.target}`);
    }
  }
  const row = await db
    .insertInto('event_outbox')
    .values({
      event_type: event.type,
      target: event.target,
      subject: event.subject ?? null,
      payload: JSON.stringify(payload),
      // the consumer continues the writer's trace (null when tracing is off)
      trace_parent: traceCarrierOf()?.traceparent ?? null,
    })
    .returning('event_id')
    .executeTakeFirstOrThrow();
  return row.event_id;
}

/** A contract event, routed by the contract: `writeContractEvent(trx, 'APPROVAL_DECIDED', payload)`. */
export function writeContractEvent<T extends EventType>(db: Kysely<Database>, type: T, payload: PayloadOf<T>): Promise<number> {
  return writeEvent(db, { type, target: contractTarget(type, payload), subject: contractSubject(type, payload), payload });
}
