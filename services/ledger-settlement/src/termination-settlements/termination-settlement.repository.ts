import { sql, type RawBuilder } from 'kysely';
import type { TerminationItemKind } from '@csp/db';
import type { Executor } from '../period-closes/month-guard.js';

/** One row a termination counts, with its signed contribution to the final net (text, exact). */
export interface TerminationItemRow {
  kind: TerminationItemKind;
  id: number;
  settleMonth: string;
  amount: string;
}

interface Raw {
  id: number;
  settle_month: string;
  amount: string;
}

/**
 * The rows a termination of `agentId` with final month `month` counts (rule: @csp/domain
 * correction-termination.ts); `lock` takes them FOR UPDATE (approval), so nothing moves under it.
 */
export async function terminationItems(trx: Executor, agentId: number, month: string, lock: boolean): Promise<TerminationItemRow[]> {
  const forUpdate = (alias: string) => (lock ? sql` FOR UPDATE OF ${sql.raw(alias)}` : sql``);
  const run = async (kind: TerminationItemKind, query: RawBuilder<Raw>) =>
    (await query.execute(trx)).rows.map((r) => ({ kind, id: Number(r.id), settleMonth: r.settle_month, amount: r.amount }));

  // decided and unpaid: no live payment, negative gross not yet carried forward into a deduction
  const unpaid = await run(
    'UNPAID_CONFIRMED',
    sql<Raw>`
      SELECT s.settle_id AS id, s.settle_month, s.gross_amount::text AS amount FROM settle_master s
      WHERE s.agent_id = ${agentId} AND s.status = 'CONFIRMED' AND NOT settle_month_closed(s.settle_month)
        AND NOT EXISTS (SELECT 1 FROM payment p WHERE p.settle_id = s.settle_id AND p.status <> 'FAIL')
        AND NOT EXISTS (SELECT 1 FROM deduction_carry_forward c WHERE c.settle_id = s.settle_id)
      ORDER BY s.settle_month, s.settle_id${forUpdate('s')}`,
  );
  const chargebacks = await run(
    'FUTURE_CHARGEBACK',
    sql<Raw>`
      SELECT cb.cb_id AS id, cb.settle_month, (-cb.cb_amount)::text AS amount FROM chargeback cb
      WHERE cb.agent_id = ${agentId} AND cb.status = 'CALCULATED' AND cb.settle_month > ${month}
      ORDER BY cb.settle_month, cb.cb_id${forUpdate('cb')}`,
  );
  const deductions = await run(
    'PENDING_DEDUCTION',
    sql<Raw>`
      SELECT d.deduction_id AS id, d.settle_month, (-d.amount)::text AS amount FROM agent_deduction d
      WHERE d.agent_id = ${agentId} AND d.status = 'PENDING' AND d.settle_month <= ${month}
      ORDER BY d.settle_month, d.deduction_id${forUpdate('d')}`,
  );
  // exceptions no run will count any more: their month's settle row is CONFIRMED or PAID and they are
  // PENDING there (approval is refused into such a month) or were approved after its calculation
  const exceptions = await run(
    'PENDING_EXCEPTION',
    sql<Raw>`
      SELECT e.ledger_id AS id, e.settle_month,
             (CASE WHEN e.direction = 'PLUS' THEN e.amount ELSE -e.amount END)::text AS amount
      FROM exception_ledger e
      JOIN settle_master s ON s.agent_id = e.agent_id AND s.settle_month = e.settle_month
      WHERE e.agent_id = ${agentId} AND e.settle_month <= ${month} AND NOT settle_month_closed(e.settle_month)
        AND e.status = 'NEW' AND s.status IN ('CONFIRMED', 'PAID')
        AND (e.approve_status = 'PENDING'
             OR (e.approve_status = 'APPROVED' AND (s.calc_date IS NULL OR e.approve_date IS NULL OR e.approve_date > s.calc_date)))
      ORDER BY e.settle_month, e.ledger_id${forUpdate('e')}`,
  );
  return [...unpaid, ...chargebacks, ...deductions, ...exceptions];
}

/** The items an approved termination took over. */
export async function storedItems(db: Executor, termId: number): Promise<TerminationItemRow[]> {
  const rows = await db
    .selectFrom('termination_settlement_item')
    .select(['item_kind', 'item_id', 'settle_month', 'amount'])
    .where('term_id', '=', termId)
    .orderBy('item_kind')
    .orderBy('settle_month')
    .orderBy('item_id')
    .execute();
  return rows.map((r) => ({ kind: r.item_kind, id: Number(r.item_id), settleMonth: r.settle_month, amount: r.amount }));
}

/**
 * The month of the receivable deduction: the final month, or the first later one in which the agent has no
 * CHARGEBACK_PENDING deduction yet (agent_deduction keeps one per agent, month and type).
 */
export async function receivableMonth(trx: Executor, agentId: number, from: string, next: (m: string) => string): Promise<string> {
  const taken = new Set(
    (
      await trx
        .selectFrom('agent_deduction')
        .select('settle_month')
        .where('agent_id', '=', agentId)
        .where('deduction_type', '=', 'CHARGEBACK_PENDING')
        .where('settle_month', '>=', from)
        .execute()
    ).map((r) => r.settle_month),
  );
  let month = from;
  while (taken.has(month)) month = next(month);
  return month;
}
