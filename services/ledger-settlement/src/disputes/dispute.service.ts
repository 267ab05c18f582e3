import { sql, type Selectable } from 'kysely';
import type { CommissionDisputeTable, DisputeReasonCode, DisputeStatus, SettleRowTable } from '@csp/db';
import { correctionAmount } from '@csp/domain';
import {
  AppError,
  forbidden,
  invalid,
  notFound,
  ownAgentOnly,
  type AuthUser,
  type ChangeLogEntry,
} from '@csp/service-kit';
import { createBookedCorrection } from '../corrections/correction.service.js';
import { sourceRowOf } from '../corrections/source-row.js';
import { inTransaction, type Executor } from '../period-closes/month-guard.js';
import { applySettleMove } from '../settle/settle.service.js';
import { MENU_DISPUTE } from './dispute.resource.js';

type DisputeRow = Selectable<CommissionDisputeTable>;

export interface DisputeResult {
  dispute: DisputeRow;
  changes: ChangeLogEntry[];
  /** Whether the settle row was held (reason DISPUTE, released once the dispute closes). */
  held?: boolean;
}

export interface RaiseDisputeInput {
  targetTable: SettleRowTable;
  targetId: number;
  reasonCode: DisputeReasonCode;
  reasonText: string;
  claimedAmount?: string | null | undefined;
  fileGroupId?: string | null | undefined;
  /** Hold the agent's settle row of the month until the dispute closes (not for AGENT-only users). */
  holdSettlement?: boolean | undefined;
}

/**
 * Raises a dispute against a settle or ledger row (OPEN). An AGENT-only user may dispute only rows of
 * their own agent (E403). With `holdSettlement` the month's settle row is held (HOLD_REASON DISPUTE,
 * condition DISPUTE_CLOSED) in the same transaction when it is CALCULATED or CONFIRMED.
 */
export async function raiseDispute(db: Executor, user: AuthUser | undefined, input: RaiseDisputeInput): Promise<DisputeResult> {
  const own = ownAgentOnly(user);
  return inTransaction(db, async (trx) => {
    const target = await sourceRowOf(trx, input.targetTable, input.targetId);
    if (own && (!target || own.agentId === null || target.agentId !== own.agentId)) {
      throw forbidden('A dispute can be raised only on rows of your own agent');
    }
    if (!target) throw invalid('targetId', `${input.targetTable} row ${input.targetId} does not exist`);
    if (own && input.holdSettlement) throw forbidden('Holding the settlement needs SETTLE_LIST APPROVE');
    const settle = await trx
      .selectFrom('settle_master')
      .select(['settle_id', 'status'])
      .where('agent_id', '=', target.agentId)
      .where('settle_month', '=', target.settleMonth)
      .executeTakeFirst();
    const userId = user?.userId ?? null;
    const dispute = await trx
      .insertInto('commission_dispute')
      .values({
        agent_id: target.agentId,
        settle_month: target.settleMonth,
        target_table: input.targetTable,
        target_id: input.targetId,
        settle_id: settle ? Number(settle.settle_id) : null,
        reason_code: input.reasonCode,
        reason_text: input.reasonText,
        claimed_amount: input.claimedAmount ?? null,
        file_group_id: input.fileGroupId ?? null,
        created_by: userId,
        updated_by: userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const changes: ChangeLogEntry[] = [
      { menuCode: MENU_DISPUTE, tableName: 'commission_dispute', recordId: dispute.dispute_id, action: 'CREATE', after: dispute },
    ];
    let held = false;
    if (input.holdSettlement && settle && (settle.status === 'CALCULATED' || settle.status === 'CONFIRMED')) {
      const moved = await applySettleMove(
        trx,
        {
          settleId: Number(settle.settle_id),
          action: 'hold',
          userId,
          reason: `Dispute ${dispute.dispute_id} (${input.reasonCode}) open`,
          reasonCode: 'DISPUTE',
          condition: { type: 'DISPUTE_CLOSED', disputeId: Number(dispute.dispute_id) },
        },
        { duringRun: false },
      );
      changes.push({
        menuCode: 'SETTLE_LIST',
        tableName: 'settle_master',
        recordId: settle.settle_id,
        action: 'UPDATE',
        before: moved.before,
        after: { ...moved.after, ledgerRows: moved.ledgerRows, hold: moved.hold },
      });
      held = true;
    }
    return { dispute, changes, held };
  });
}

async function lockDispute(trx: Executor, id: number): Promise<DisputeRow> {
  const row = await trx.selectFrom('commission_dispute').selectAll().where('dispute_id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw notFound(`Dispute ${id}`);
  return row;
}

function requireStatus(row: DisputeRow, from: DisputeStatus, action: string): void {
  if (row.status !== from) {
    throw new AppError('ALREADY_CONFIRMED', `Dispute ${row.dispute_id} is ${row.status}; ${action} needs ${from}`);
  }
}

function notOwn(row: DisputeRow, userId: number | null): void {
  if (userId !== null && row.created_by !== null && Number(row.created_by) === userId) {
    throw forbidden(`Dispute ${row.dispute_id} was raised by you; another user decides it`);
  }
}

/** OPEN -> IN_REVIEW with a note (UPDATE). */
export async function reviewDispute(
  db: Executor,
  input: { disputeId: number; userId: number | null; note: string },
): Promise<DisputeResult> {
  return inTransaction(db, async (trx) => {
    const before = await lockDispute(trx, input.disputeId);
    requireStatus(before, 'OPEN', 'review');
    const dispute = await trx
      .updateTable('commission_dispute')
      .set({
        status: 'IN_REVIEW',
        review_note: input.note,
        reviewed_by: input.userId,
        reviewed_at: sql`now()`,
        updated_by: input.userId,
        updated_at: sql`now()`,
        version: sql`version + 1`,
      })
      .where('dispute_id', '=', input.disputeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      dispute,
      changes: [{ menuCode: MENU_DISPUTE, tableName: 'commission_dispute', recordId: input.disputeId, action: 'UPDATE', before, after: dispute }],
    };
  });
}

/**
 * IN_REVIEW -> APPROVED or REJECTED with a note (APPROVE; not by the user who raised it). Approving with an
 * amount creates the dispute's correction, booked into the first OPEN month, in the same transaction; the
 * dispute points at it and it at the dispute. Callable by the approval workflow's DISPUTE event consumer.
 */
export async function decideDispute(
  db: Executor,
  input: { disputeId: number; userId: number | null; approve: boolean; note: string; amount?: string | null | undefined },
): Promise<DisputeResult> {
  return inTransaction(db, async (trx) => {
    const before = await lockDispute(trx, input.disputeId);
    requireStatus(before, 'IN_REVIEW', input.approve ? 'approve' : 'reject');
    notOwn(before, input.userId);
    if (!input.approve && input.amount != null) throw invalid('amount', 'is only taken when approving');
    const amount = input.approve && input.amount != null ? input.amount : null;
    if (amount !== null) correctionAmount(amount);
    const changes: ChangeLogEntry[] = [];
    let correctionId: number | null = null;
    if (amount !== null) {
      const correction = await createBookedCorrection(
        trx,
        {
          agent_id: before.agent_id,
          original_month: before.settle_month,
          amount,
          reason: `Dispute ${before.dispute_id}: ${input.note}`,
          correction_type: 'DISPUTE',
          source_table: before.target_table,
          source_id: before.target_id,
          dispute_id: before.dispute_id,
          created_by: input.userId,
          updated_by: input.userId,
        },
        { userId: input.userId, note: input.note },
      );
      correctionId = Number(correction.after.correction_id);
      changes.push(...correction.changes);
    }
    const dispute = await trx
      .updateTable('commission_dispute')
      .set({
        status: input.approve ? 'APPROVED' : 'REJECTED',
        decision_note: input.note,
        approved_amount: amount,
        correction_id: correctionId,
        decided_by: input.userId,
        decided_at: sql`now()`,
        updated_by: input.userId,
        updated_at: sql`now()`,
        version: sql`version + 1`,
      })
      .where('dispute_id', '=', input.disputeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    changes.unshift({
      menuCode: MENU_DISPUTE,
      tableName: 'commission_dispute',
      recordId: input.disputeId,
      action: input.approve ? 'APPROVE' : 'UPDATE',
      before,
      after: dispute,
    });
    return { dispute, changes };
  });
}
