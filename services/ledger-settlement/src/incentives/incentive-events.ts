import { writeChangeLog } from '@csp/service-kit';
import { sql, type Transaction } from 'kysely';
import type { Database, IncentiveResultStatus } from '@csp/db';
import { EventRefusal, type ApprovalDecided, type ConsumedEvent } from '@csp/events';
import { isMonthClosed, lockMonthShared } from '../period-closes/month-guard.js';
import { MENU_PAYMENT } from './incentive-result.resource.js';

const OUTCOME: Record<ApprovalDecided['decision'], IncentiveResultStatus> = {
  APPROVED: 'APPROVED',
  REJECTED: 'REJECTED',
  // the requester withdrew the request: the result can be submitted again or cancelled
  CANCELLED: 'CALCULATED',
};

/**
 * The decision of an INCENTIVE approval request (DECISIONS "Approval workflow and events between services"),
 * applied once inside the consumer's transaction: APPROVED -> APPROVED with approved_by/at (from then on the
 * aggregate counts it in its pay month's other_total); REJECTED -> REJECTED with the reason (also when the
 * request could not start); CANCELLED -> back to CALCULATED. The result must still be PENDING_APPROVAL and
 * its pay month open, otherwise the event is parked for an operator (reopen the month, then replay it);
 * the same decision of the same request arriving again changes nothing. Change-logged in the transaction.
 */
export async function applyIncentiveDecision(trx: Transaction<Database>, event: ConsumedEvent<ApprovalDecided>): Promise<void> {
  const d = event.payload;
  const before = await trx.selectFrom('incentive_result').selectAll().where('result_id', '=', d.targetId).forUpdate().executeTakeFirst();
  if (!before) throw new EventRefusal(`Incentive result ${d.targetId} does not exist`);
  const status = OUTCOME[d.decision];
  if (before.status !== 'PENDING_APPROVAL') {
    if (d.requestId !== null && before.approval_request_id === d.requestId && before.status === status) return;
    throw new EventRefusal(
      `Incentive result ${d.targetId} is ${before.status}; the ${d.decision} decision of approval request ${d.requestId ?? '(none)'} does not apply`,
    );
  }
  await lockMonthShared(trx, before.settle_month);
  if (await isMonthClosed(trx, before.settle_month)) {
    throw new EventRefusal(
      `Settle month ${before.settle_month} is closed: the ${d.decision} decision on incentive result ${d.targetId} waits until it is reopened (then replay this event)`,
    );
  }
  const after = await trx
    .updateTable('incentive_result')
    .set({
      status,
      approval_request_id: d.requestId,
      approved_by: d.decision === 'APPROVED' ? d.decidedBy : null,
      approved_at: d.decision === 'APPROVED' ? d.decidedAt : null,
      reject_reason: d.decision === 'REJECTED' ? (d.reason ?? 'rejected without a reason') : null,
      updated_by: d.decidedBy,
      updated_at: sql`now()`,
      version: sql`version + 1`,
    })
    .where('result_id', '=', d.targetId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeChangeLog(
    trx,
    [
      {
        menuCode: MENU_PAYMENT,
        tableName: 'incentive_result',
        recordId: d.targetId,
        action: d.decision === 'APPROVED' ? 'APPROVE' : 'UPDATE',
        before,
        after: { ...after, approvalDecision: d.decision, eventId: event.eventId },
      },
    ],
    { userId: d.decidedBy, requestId: `event-${event.eventId}` },
  );
}
