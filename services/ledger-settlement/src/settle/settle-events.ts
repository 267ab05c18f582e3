import type { Transaction } from 'kysely';
import type { Database } from '@csp/db';
import { defineConsumer, EventRefusal, hostEvents, joinTransaction, type ApprovalDecided, type ConsumedEvent, type EventConsumer } from '@csp/events';
import { isAppError, type ServiceApp } from '@csp/service-kit';
import { applyPaymentSucceeded } from './payment-events.js';
import { moveSettlement } from './settle.service.js';

/**
 * ledger-settlement's event consumer (DECISIONS "Approval workflow and events between services"): the
 * decision of a SETTLE approval request. APPROVED confirms the settle row (moveSettlement, inside the
 * consumer's transaction, so the confirmation and the processed-event record commit together); REJECTED and
 * CANCELLED leave it CALCULATED. Every decision is kept in settle_approval with its reason. A row that can no
 * longer be confirmed (HOLD, PAID, gone) parks the event for an operator; a row already CONFIRMED stays as it
 * is. A running batch of the month is retried (BATCH_RUNNING) until the run has finished.
 * DISPUTE and INCENTIVE decisions are routed to their areas by src/event-consumer.ts. PAYMENT_SUCCEEDED
 * (payment-tax) is applied by payment-events.ts.
 */
async function applySettleDecision(trx: Transaction<Database>, event: ConsumedEvent<ApprovalDecided>): Promise<void> {
  const d = event.payload;
  if (d.targetType !== 'SETTLE') throw new EventRefusal(`${d.targetType} decisions have no consumer in ledger-settlement yet`);
  const settle = await trx.selectFrom('settle_master').select(['settle_id', 'status']).where('settle_id', '=', d.targetId).forUpdate().executeTakeFirst();
  if (!settle) throw new EventRefusal(`Settlement ${d.targetId} does not exist`);
  if (d.decision === 'APPROVED' && settle.status !== 'CONFIRMED') {
    try {
      await moveSettlement(joinTransaction(trx), { settleId: d.targetId, action: 'confirm', userId: d.decidedBy });
    } catch (err) {
      if (isAppError(err) && err.errorName === 'ALREADY_CONFIRMED') {
        throw new EventRefusal(`approval request ${d.requestId} approved settlement ${d.targetId}, but ${err.message}`);
      }
      throw err;
    }
  }
  await trx
    .insertInto('settle_approval')
    .values({
      settle_id: d.targetId,
      request_id: d.requestId,
      event_id: event.eventId,
      decision: d.decision,
      reason: d.reason,
      decided_by: d.decidedBy,
      decided_at: d.decidedAt,
    })
    .execute();
}

export const settleEventConsumer: EventConsumer = defineConsumer('ledger-settlement', {
  APPROVAL_DECIDED: applySettleDecision,
  PAYMENT_SUCCEEDED: applyPaymentSucceeded,
});

/** Area entry (src/areas.ts): hosts the relay and this consumer in the service process (EVENTS_ENABLED). */
export async function registerSettleEvents(app: ServiceApp): Promise<void> {
  hostEvents(app, { consumer: settleEventConsumer });
}
