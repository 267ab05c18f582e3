import { sql, type Insertable, type Selectable } from 'kysely';
import type { SettleCorrectionTable } from '@csp/db';
import { correctionAmount, correctionTargetMonth, formatMoney, retroDifference } from '@csp/domain';
import { AppError, forbidden, notFound, type ChangeLogEntry } from '@csp/service-kit';
import {
  closedMonthsFrom,
  inTransaction,
  isMonthClosed,
  lockMonthShared,
  type Executor,
} from '../period-closes/month-guard.js';
import { refreshSettleRow } from '../steps/aggregate.js';
import { lineKey, priorCompensation, type RepriceLine } from './compensation.js';
import { MENU_CORRECTION } from './correction.resource.js';
import { loadRuleSource, repriceRow, storedLedgerColumns, storedRefs, type StoredLedgerRow } from './reprice.js';

type CorrectionRow = Selectable<SettleCorrectionTable>;

export interface CorrectionResult {
  before: CorrectionRow | null;
  after: CorrectionRow;
  changes: ChangeLogEntry[];
}

async function lockCorrection(trx: Executor, id: number): Promise<CorrectionRow> {
  const row = await trx.selectFrom('settle_correction').selectAll().where('correction_id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw notFound(`SettleCorrection ${id}`);
  return row;
}

function requirePending(row: CorrectionRow, action: string): void {
  if (row.status !== 'PENDING') {
    throw new AppError('ALREADY_CONFIRMED', `Correction ${row.correction_id} is ${row.status}; only PENDING ones can be ${action}`);
  }
}

/** Months from `from` on in which the agent's settlement no longer recalculates (CONFIRMED, HOLD, PAID). */
async function lockedMonthsOf(trx: Executor, agentId: number, from: string): Promise<Set<string>> {
  const rows = await trx
    .selectFrom('settle_master')
    .select('settle_month')
    .where('agent_id', '=', agentId)
    .where('settle_month', '>=', from)
    .where('status', 'in', ['CONFIRMED', 'HOLD', 'PAID'])
    .execute();
  return new Set(rows.map((r) => r.settle_month));
}

/**
 * Books a PENDING correction: into the first month from its original month on that is not CLOSED and in
 * which the agent's settlement still recalculates; APPROVED with the decision; the agent's CALCULATED settle
 * row of that month (if any) is recomputed at once, so gross, tax, net and explain show it.
 */
async function book(
  trx: Executor,
  before: CorrectionRow,
  decision: { userId: number | null; note?: string | null | undefined },
): Promise<CorrectionResult> {
  const agentId = Number(before.agent_id);
  const target = correctionTargetMonth({
    originalMonth: before.original_month,
    closedMonths: await closedMonthsFrom(trx, before.original_month),
    lockedMonths: await lockedMonthsOf(trx, agentId, before.original_month),
  });
  await lockMonthShared(trx, target);
  if (await isMonthClosed(trx, target)) {
    throw new AppError('ALREADY_CONFIRMED', `Settle month ${target} was closed meanwhile; approve again`);
  }
  const after = await trx
    .updateTable('settle_correction')
    .set({
      status: 'APPROVED',
      target_month: target,
      decided_by: decision.userId,
      decided_at: sql`now()`,
      decision_note: decision.note ?? null,
      updated_by: decision.userId,
      updated_at: sql`now()`,
      version: sql`version + 1`,
    })
    .where('correction_id', '=', before.correction_id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const changes: ChangeLogEntry[] = [
    { menuCode: MENU_CORRECTION, tableName: 'settle_correction', recordId: after.correction_id, action: 'APPROVE', before, after },
  ];
  if (await refreshSettleRow(trx, target, agentId)) {
    const settle = await trx
      .selectFrom('settle_master')
      .selectAll()
      .where('agent_id', '=', agentId)
      .where('settle_month', '=', target)
      .executeTakeFirstOrThrow();
    changes.push({ menuCode: MENU_CORRECTION, tableName: 'settle_master', recordId: settle.settle_id, action: 'UPDATE', after: settle });
  }
  return { before, after, changes };
}

/**
 * APPROVE a PENDING correction (B001 otherwise); the requester may not approve their own (E403).
 * Callable by the approval workflow's event consumer (pass its transaction and the approver).
 */
export async function approveCorrection(
  db: Executor,
  input: { correctionId: number; userId: number | null; note?: string | null | undefined },
): Promise<CorrectionResult> {
  return inTransaction(db, async (trx) => {
    const before = await lockCorrection(trx, input.correctionId);
    requirePending(before, 'approved');
    if (input.userId !== null && before.created_by !== null && Number(before.created_by) === input.userId) {
      throw forbidden(`Correction ${before.correction_id} was requested by you; another user approves it`);
    }
    return book(trx, before, input);
  });
}

/** PENDING -> REJECTED (APPROVE) or CANCELLED (UPDATE, by anyone allowed to change it), with a note. */
export async function decideCorrection(
  db: Executor,
  input: { correctionId: number; userId: number | null; to: 'REJECTED' | 'CANCELLED'; note?: string | null | undefined },
): Promise<CorrectionResult> {
  return inTransaction(db, async (trx) => {
    const before = await lockCorrection(trx, input.correctionId);
    requirePending(before, input.to === 'REJECTED' ? 'rejected' : 'cancelled');
    const after = await trx
      .updateTable('settle_correction')
      .set({
        status: input.to,
        decided_by: input.userId,
        decided_at: sql`now()`,
        decision_note: input.note ?? null,
        updated_by: input.userId,
        updated_at: sql`now()`,
        version: sql`version + 1`,
      })
      .where('correction_id', '=', input.correctionId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      before,
      after,
      changes: [{ menuCode: MENU_CORRECTION, tableName: 'settle_correction', recordId: after.correction_id, action: 'UPDATE', before, after }],
    };
  });
}

/**
 * A correction created and booked in one step, by a decision already taken elsewhere (an approved dispute):
 * the decider is recorded as requester and approver.
 */
export async function createBookedCorrection(
  trx: Executor,
  values: Omit<Insertable<SettleCorrectionTable>, 'status' | 'target_month'>,
  decision: { userId: number | null; note?: string | null | undefined },
): Promise<CorrectionResult> {
  correctionAmount(String(values.amount));
  const inserted = await trx.insertInto('settle_correction').values(values).returningAll().executeTakeFirstOrThrow();
  const booked = await book(trx, inserted, decision);
  return {
    before: null,
    after: booked.after,
    changes: [
      { menuCode: MENU_CORRECTION, tableName: 'settle_correction', recordId: inserted.correction_id, action: 'CREATE', after: inserted },
      ...booked.changes,
    ],
  };
}

/**
 * A recalculation correction (reverse-and-rebook): the agent's recruit and maintain rows of the month are
 * re-priced under today's rules without touching them; amount = sum(repriced - stored - already made up by
 * earlier RETRO rows or RECALC corrections). PENDING, with every line in calc_basis. E400 when nothing differs.
 */
export async function createRecalcCorrection(
  db: Executor,
  input: { agentId: number; originalMonth: string; reason: string; userId: number | null },
): Promise<CorrectionResult> {
  return inTransaction(db, async (trx) => {
    const agent = await trx.selectFrom('agent').select('agent_id').where('agent_id', '=', input.agentId).executeTakeFirst();
    if (!agent) throw notFound(`Agent ${input.agentId}`);
    const rows: StoredLedgerRow[] = [];
    for (const table of ['recruit_ledger', 'maintain_ledger'] as const) {
      const { rows: found } = await sql<StoredLedgerRow>`
        SELECT ${storedLedgerColumns(table)}
        FROM ${sql.table(table)} l JOIN contract c ON c.contract_id = l.contract_id JOIN agent a ON a.agent_id = l.agent_id
        WHERE l.agent_id = ${input.agentId} AND l.settle_month = ${input.originalMonth}
        ORDER BY l.ledger_id`.execute(trx);
      rows.push(...found);
    }
    const rules = await loadRuleSource(trx, rows);
    const prior = await priorCompensation(trx, { contractIds: rows.map((r) => r.contract_id), agentIds: [input.agentId] });
    const priced = rows.map((r) => ({ row: r, repriced: repriceRow(r, rules), compensated: prior.get(lineKey(r.ledger_table, r.ledger_id)) ?? '0.00' }));
    const diff = retroDifference(priced.map((p) => ({ stored: p.row.agent_amount, repriced: p.repriced.agentAmount, compensated: p.compensated })));
    if (diff.direction === null) {
      throw new AppError('BAD_REQUEST', `The ${rows.length} ledger rows of agent ${input.agentId} in ${input.originalMonth} price the same under today's rules; nothing to correct`);
    }
    const lines: RepriceLine[] = priced
      .map((p, i) => ({ p, diff: diff.diffs[i]! }))
      .filter(({ diff: d }) => !d.isZero())
      .map(({ p, diff: d }) => {
        const stored = storedRefs(p.row);
        return {
          table: p.row.ledger_table,
          ledgerId: Number(p.row.ledger_id),
          settleMonth: p.row.settle_month,
          commissionYear: p.row.commission_year,
          stored: formatMoney(p.row.agent_amount),
          repriced: p.repriced.agentAmount,
          compensated: p.compensated,
          diff: formatMoney(d),
          companyRate: { from: stored.companyRate, to: p.repriced.companyRate },
          payoutRule: { from: stored.payoutRule, to: p.repriced.payoutRule },
        };
      });
    const after = await trx
      .insertInto('settle_correction')
      .values({
        agent_id: input.agentId,
        original_month: input.originalMonth,
        amount: formatMoney(diff.total),
        reason: input.reason,
        correction_type: 'RECALC',
        calc_basis: JSON.stringify({ kind: 'RECALC', rowsPriced: rows.length, lines, total: formatMoney(diff.total) }),
        created_by: input.userId,
        updated_by: input.userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      before: null,
      after,
      changes: [{ menuCode: MENU_CORRECTION, tableName: 'settle_correction', recordId: after.correction_id, action: 'CREATE', after }],
    };
  });
}
