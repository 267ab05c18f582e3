import { sql, type Selectable } from 'kysely';
import type { TerminationItemKind, TerminationSettlementTable } from '@csp/db';
import { formatMoney, isNegative, settleMonthOfDate, shiftSettleMonth, terminationTotals } from '@csp/domain';
import { AppError, duplicate, forbidden, invalid, notFound, type ChangeLogEntry } from '@csp/service-kit';
import { createBookedCorrection } from '../corrections/correction.service.js';
import { assertMonthOpen, inTransaction, lockMonthShared, type Executor } from '../period-closes/month-guard.js';
import { applySettleMove } from '../settle/settle.service.js';
import { refreshSettleRow } from '../steps/aggregate.js';
import { MENU_TERMINATION } from './termination-settlement.resource.js';
import { receivableMonth, terminationItems, type TerminationItemRow } from './termination-settlement.repository.js';

type TerminationRow = Selectable<TerminationSettlementTable>;

export interface TerminationFigures {
  unpaidConfirmed: string;
  futureChargebacks: string;
  pendingDeductions: string;
  pendingExceptions: string;
  finalNet: string;
  receivable: string;
}

export interface TerminationComputation {
  items: TerminationItemRow[];
  figures: TerminationFigures;
  /** -1 receivable, 0 nothing to carry, 1 payout */
  sign: -1 | 0 | 1;
}

export interface TerminationResult {
  termination: TerminationRow;
  changes: ChangeLogEntry[];
}

/** The rows counted and the final net (rule: @csp/domain correction-termination.ts). */
export async function computeTermination(trx: Executor, agentId: number, month: string, lock: boolean): Promise<TerminationComputation> {
  const items = await terminationItems(trx, agentId, month, lock);
  const t = terminationTotals(items.map((i) => ({ kind: i.kind, contribution: i.amount })));
  return {
    items,
    figures: {
      unpaidConfirmed: formatMoney(t.unpaidConfirmed),
      futureChargebacks: formatMoney(t.futureChargebacks),
      pendingDeductions: formatMoney(t.pendingDeductions),
      pendingExceptions: formatMoney(t.pendingExceptions),
      finalNet: formatMoney(t.finalNet),
      receivable: formatMoney(t.receivable),
    },
    sign: t.finalNet.isZero() ? 0 : isNegative(t.finalNet) ? -1 : 1,
  };
}

const columnsOf = (f: TerminationFigures) => ({
  unpaid_confirmed: f.unpaidConfirmed,
  future_chargebacks: f.futureChargebacks,
  pending_deductions: f.pendingDeductions,
  pending_exceptions: f.pendingExceptions,
  final_net: f.finalNet,
});

const basisOf = (items: TerminationItemRow[]) => JSON.stringify({ items });

function lockAgent(trx: Executor, agentId: number) {
  return trx
    .selectFrom('agent')
    .select(['agent_id', 'status', 'join_date', 'leave_date', 'org_id', 'grade_id', 'version'])
    .where('agent_id', '=', agentId)
    .forUpdate()
    .executeTakeFirst();
}

async function lockTermination(trx: Executor, termId: number): Promise<TerminationRow> {
  const row = await trx.selectFrom('termination_settlement').selectAll().where('term_id', '=', termId).forUpdate().executeTakeFirst();
  if (!row) throw notFound(`TerminationSettlement ${termId}`);
  return row;
}

function requireDraft(row: TerminationRow, action: string): void {
  if (row.status !== 'DRAFT') {
    throw new AppError('ALREADY_CONFIRMED', `Termination settlement ${row.term_id} is ${row.status}; only a DRAFT one can be ${action}`);
  }
}

/**
 * A DRAFT termination settlement of an ACTIVE agent (else E411) leaving on `leaveDate`; its final month (the
 * leave date's) must be open (B001); one open or approved termination per agent (B009). Stores the figures
 * of now; the detail recomputes them while it is DRAFT and the approval fixes them.
 */
export async function createTermination(
  db: Executor,
  input: { agentId: number; leaveDate: string; note?: string | null | undefined; userId: number | null },
): Promise<TerminationResult> {
  return inTransaction(db, async (trx) => {
    const agent = await lockAgent(trx, input.agentId);
    if (!agent) throw invalid('agentId', 'agent does not exist');
    if (agent.status !== 'ACTIVE') {
      throw invalid('agentId', `agent ${input.agentId} is ${agent.status}; only an ACTIVE agent is settled for leaving`);
    }
    if (agent.join_date && input.leaveDate < agent.join_date) throw invalid('leaveDate', 'must not be before the join date');
    const open = await trx
      .selectFrom('termination_settlement')
      .select(['term_id', 'status'])
      .where('agent_id', '=', input.agentId)
      .where('status', '<>', 'CANCELLED')
      .executeTakeFirst();
    if (open) throw duplicate(`Agent ${input.agentId} already has termination settlement ${open.term_id} (${open.status})`);
    const month = settleMonthOfDate(input.leaveDate);
    await assertMonthOpen(trx, month, 'a termination settlement');
    const { items, figures } = await computeTermination(trx, input.agentId, month, false);
    const termination = await trx
      .insertInto('termination_settlement')
      .values({
        agent_id: input.agentId,
        leave_date: input.leaveDate,
        settle_month: month,
        ...columnsOf(figures),
        calc_basis: basisOf(items),
        note: input.note ?? null,
        created_by: input.userId,
        updated_by: input.userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      termination,
      changes: [{ menuCode: MENU_TERMINATION, tableName: 'termination_settlement', recordId: termination.term_id, action: 'CREATE', after: termination }],
    };
  });
}

const idsOf = (items: TerminationItemRow[], kind: TerminationItemKind) => items.filter((i) => i.kind === kind).map((i) => i.id);

/**
 * APPROVE a DRAFT termination (B001 otherwise; not by its requester: E403), in one transaction: the figures
 * are recomputed on locked rows and every row counted is taken over so no other channel counts it again
 * (unpaid confirmed rows withheld, future installments, pending deductions and exceptions CANCELLED); the
 * final net is carried by one receivable deduction (negative) or one booked correction (positive); the agent
 * retires (status LEAVE, leave date, LEAVE history row).
 */
export async function approveTermination(
  db: Executor,
  input: { termId: number; userId: number | null; note?: string | null | undefined },
): Promise<TerminationResult> {
  return inTransaction(db, async (trx) => {
    const before = await lockTermination(trx, input.termId);
    requireDraft(before, 'approved');
    if (input.userId !== null && before.created_by !== null && Number(before.created_by) === input.userId) {
      throw forbidden(`Termination settlement ${before.term_id} was requested by you; another user approves it`);
    }
    const termId = Number(before.term_id);
    const agentId = Number(before.agent_id);
    const userId = input.userId;
    const agent = await lockAgent(trx, agentId);
    if (!agent || agent.status !== 'ACTIVE') {
      throw new AppError('ALREADY_CONFIRMED', `Agent ${agentId} is ${agent?.status ?? 'gone'}; only an ACTIVE agent is settled for leaving`);
    }
    const month = before.settle_month;
    await lockMonthShared(trx, month);
    await assertMonthOpen(trx, month, 'approving a termination settlement');
    const { items, figures, sign } = await computeTermination(trx, agentId, month, true);
    const changes: ChangeLogEntry[] = [];
    const log = (tableName: string, recordId: number, action: ChangeLogEntry['action'], b: unknown, a: unknown) =>
      changes.push({ menuCode: MENU_TERMINATION, tableName, recordId, action, ...(b === undefined ? {} : { before: b }), after: a });
    const takenOver = `taken over by termination settlement ${termId}`;

    if (items.length > 0) {
      await trx
        .insertInto('termination_settlement_item')
        .values(items.map((i) => ({ item_kind: i.kind, item_id: i.id, term_id: termId, settle_month: i.settleMonth, amount: i.amount })))
        .execute();
    }
    for (const settleId of idsOf(items, 'UNPAID_CONFIRMED')) {
      const moved = await applySettleMove(
        trx,
        { settleId, action: 'hold', userId, reason: `Settled by termination settlement ${termId}`, reasonCode: 'TERMINATION' },
        { duringRun: false },
      );
      log('settle_master', settleId, 'UPDATE', moved.before, { ...moved.after, ledgerRows: moved.ledgerRows, hold: moved.hold });
    }
    const cbIds = idsOf(items, 'FUTURE_CHARGEBACK');
    if (cbIds.length > 0) {
      // accelerated: the monthly run counts every chargeback that is not CANCELLED
      const rows = await trx
        .updateTable('chargeback')
        .set({
          status: 'CANCELLED',
          updated_at: sql`now()`,
          calc_basis: sql`coalesce(calc_basis, '{}'::jsonb) || jsonb_build_object('acceleratedBy', jsonb_build_object('termId', ${termId}::bigint, 'settleMonth', ${month}::text))`,
        })
        .where('cb_id', 'in', cbIds)
        .returning(['cb_id', 'settle_month', 'cb_amount', 'status'])
        .execute();
      for (const r of rows) log('chargeback', Number(r.cb_id), 'UPDATE', { status: 'CALCULATED' }, r);
      // a CALCULATED row of their month that already charged them shows it at once (a locked one cannot have)
      for (const m of [...new Set(rows.map((r) => r.settle_month))].sort()) {
        if (await refreshSettleRow(trx, m, agentId)) {
          const row = await trx.selectFrom('settle_master').selectAll().where('agent_id', '=', agentId).where('settle_month', '=', m).executeTakeFirstOrThrow();
          log('settle_master', Number(row.settle_id), 'UPDATE', undefined, row);
        }
      }
    }
    const deductionIds = idsOf(items, 'PENDING_DEDUCTION');
    if (deductionIds.length > 0) {
      const rows = await trx
        .updateTable('agent_deduction')
        .set({
          status: 'CANCELLED',
          cancelled_at: sql`now()`,
          description: sql`left(coalesce(description || '; ', '') || ${takenOver}, 500)`,
          updated_by: userId,
          updated_at: sql`now()`,
          version: sql`version + 1`,
        })
        .where('deduction_id', 'in', deductionIds)
        .returningAll()
        .execute();
      for (const r of rows) log('agent_deduction', Number(r.deduction_id), 'UPDATE', { status: 'PENDING' }, r);
    }
    const exceptionIds = idsOf(items, 'PENDING_EXCEPTION');
    if (exceptionIds.length > 0) {
      const rows = await trx
        .updateTable('exception_ledger')
        .set({
          status: 'CANCELLED',
          approve_status: sql`CASE WHEN approve_status = 'PENDING' THEN 'CANCELLED' ELSE approve_status END`,
          reject_reason: sql`CASE WHEN approve_status = 'PENDING' THEN ${takenOver} ELSE reject_reason END`,
          updated_by: userId,
          updated_at: sql`now()`,
          version: sql`version + 1`,
        })
        .where('ledger_id', 'in', exceptionIds)
        .returningAll()
        .execute();
      for (const r of rows) log('exception_ledger', Number(r.ledger_id), 'UPDATE', undefined, r);
    }

    let deductionId: number | null = null;
    let correctionId: number | null = null;
    if (sign < 0) {
      // CHARGEBACK_PENDING: what the agent still owes back, netted from a later payment (payment-tax gives a
      // carried-forward negative gross the same type)
      const receivableIn = await receivableMonth(trx, agentId, month, (m) => shiftSettleMonth(m, 1));
      const deduction = await trx
        .insertInto('agent_deduction')
        .values({
          agent_id: agentId,
          settle_month: receivableIn,
          deduction_type: 'CHARGEBACK_PENDING',
          amount: figures.receivable,
          description: `Receivable of termination settlement ${termId} (final net ${figures.finalNet})`,
          created_by: userId,
          updated_by: userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      deductionId = Number(deduction.deduction_id);
      log('agent_deduction', deductionId, 'CREATE', undefined, deduction);
    } else if (sign > 0) {
      const correction = await createBookedCorrection(
        trx,
        {
          agent_id: agentId,
          original_month: month,
          amount: figures.finalNet,
          reason: `Final net of termination settlement ${termId} (leave date ${before.leave_date})`,
          correction_type: 'MANUAL',
          created_by: userId,
          updated_by: userId,
        },
        { userId, note: input.note ?? null },
      );
      correctionId = Number(correction.after.correction_id);
      changes.push(...correction.changes);
    }

    const retired = await trx
      .updateTable('agent')
      .set({ status: 'LEAVE', leave_date: before.leave_date, version: sql`version + 1`, updated_at: sql`now()`, updated_by: userId })
      .where('agent_id', '=', agentId)
      .returning(['agent_id', 'status', 'leave_date', 'version'])
      .executeTakeFirstOrThrow();
    log('agent', agentId, 'UPDATE', { agent_id: agentId, status: agent.status, leave_date: agent.leave_date, version: agent.version }, retired);
    const history = await trx
      .insertInto('agent_org_history')
      .values({
        agent_id: agentId,
        from_org_id: agent.org_id,
        to_org_id: agent.org_id,
        from_grade_id: agent.grade_id,
        to_grade_id: agent.grade_id,
        change_type: 'LEAVE',
        change_date: before.leave_date,
        change_reason: `Termination settlement ${termId}`,
        created_by: userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    log('agent_org_history', Number(history.history_id), 'CREATE', undefined, history);

    const termination = await trx
      .updateTable('termination_settlement')
      .set({
        ...columnsOf(figures),
        status: 'APPROVED',
        calc_basis: basisOf(items),
        approved_by: userId,
        approved_at: sql`now()`,
        decision_note: input.note ?? null,
        deduction_id: deductionId,
        correction_id: correctionId,
        updated_by: userId,
        updated_at: sql`now()`,
        version: sql`version + 1`,
      })
      .where('term_id', '=', termId)
      .returningAll()
      .executeTakeFirstOrThrow();
    changes.unshift({ menuCode: MENU_TERMINATION, tableName: 'termination_settlement', recordId: termId, action: 'APPROVE', before, after: termination });
    return { termination, changes };
  });
}

/** DRAFT -> CANCELLED with a reason (UPDATE); nothing else changes. */
export async function cancelTermination(
  db: Executor,
  input: { termId: number; userId: number | null; reason: string },
): Promise<TerminationResult> {
  return inTransaction(db, async (trx) => {
    const before = await lockTermination(trx, input.termId);
    requireDraft(before, 'cancelled');
    const termination = await trx
      .updateTable('termination_settlement')
      .set({
        status: 'CANCELLED',
        decision_note: input.reason,
        updated_by: input.userId,
        updated_at: sql`now()`,
        version: sql`version + 1`,
      })
      .where('term_id', '=', input.termId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      termination,
      changes: [{ menuCode: MENU_TERMINATION, tableName: 'termination_settlement', recordId: input.termId, action: 'UPDATE', before, after: termination }],
    };
  });
}
