import type { Transaction } from 'kysely';
import type { Database } from '@csp/db';
import { EventRefusal, type ApprovalDecided, type ConsumedEvent } from '@csp/events';
import { isAppError, writeChangeLog } from '@csp/service-kit';
import { decideDispute } from './dispute.service.js';

/**
 * The decision of a DISPUTE approval request (DECISIONS "Approval workflow and events between services"),
 * applied with the same service function as the direct route, inside the consumer's transaction: the
 * dispute's move, its correction (APPROVED with the claimed amount, booked into the first open month) and
 * the processed-event record commit together, so a duplicate delivery changes nothing. APPROVED/REJECTED
 * decide an IN_REVIEW dispute; a dispute already decided the same way (directly) stays as it is; CANCELLED
 * and a request that could not start (no requestId) leave it IN_REVIEW. Anything else is parked.
 */
export async function applyDisputeDecision(trx: Transaction<Database>, event: ConsumedEvent<ApprovalDecided>): Promise<void> {
  const d = event.payload;
  if (d.decision === 'CANCELLED' || d.requestId === null) return;
  const dispute = await trx
    .selectFrom('commission_dispute')
    .select(['dispute_id', 'status', 'claimed_amount'])
    .where('dispute_id', '=', d.targetId)
    .forUpdate()
    .executeTakeFirst();
  if (!dispute) throw new EventRefusal(`Dispute ${d.targetId} does not exist`);
  const approve = d.decision === 'APPROVED';
  if (dispute.status === d.decision) return;
  if (dispute.status !== 'IN_REVIEW') {
    throw new EventRefusal(`approval request ${d.requestId} ${d.decision} dispute ${d.targetId}, but it is ${dispute.status}; the decision needs IN_REVIEW`);
  }
  try {
    const result = await decideDispute(trx, {
      disputeId: d.targetId,
      userId: d.decidedBy,
      approve,
      note: d.reason ?? `${approve ? 'Approved' : 'Rejected'} through approval request ${d.requestId}`,
      amount: approve ? dispute.claimed_amount : null,
    });
    // the consumer has no request: its change-log rows commit with the effect, tagged with the event
    await writeChangeLog(trx, result.changes, { userId: d.decidedBy, requestId: `event-${event.eventId}` });
  } catch (err) {
    // a business refusal (own dispute, month closed meanwhile, ...) does not get better by retrying
    if (isAppError(err)) throw new EventRefusal(`approval request ${d.requestId} ${d.decision} dispute ${d.targetId}, but ${err.message}`);
    throw err;
  }
}
