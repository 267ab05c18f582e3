import type { StepContext, StepCounts } from '@csp/batch';
import { sql } from 'kysely';
import { historyTable, type LedgerDb } from './db.js';

const PARENTS = (month: string) => sql`
  FROM ${historyTable('exception_ledger')} p
  JOIN exception_type_code t ON t.exception_code = p.exception_code
  WHERE t.is_active AND t.auto_calc_yn = 'Y'
    AND p.recurring_yn = 'Y' AND p.recurring_parent_id IS NULL
    AND p.approve_status = 'APPROVED' AND p.status <> 'CANCELLED'
    AND p.settle_month < ${month} AND p.recurring_until >= ${month}`;

/**
 * Step 6, automatic exceptions: every approved recurring exception of an active auto_calc_yn = 'Y' type gets
 * this month's child row (PENDING approval, source AUTO). The month's AUTO rows still PENDING are replaced;
 * a child already approved or rejected stays (unique (recurring_parent_id, settle_month)) and is skipped.
 * Only copies values: no arithmetic happens here.
 */
export async function continueRecurringExceptions(trx: LedgerDb, ctx: StepContext): Promise<StepCounts> {
  const month = ctx.settleMonth;
  await trx
    .deleteFrom('exception_ledger')
    .where('settle_month', '=', month)
    .where('source', '=', 'AUTO')
    .where('approve_status', '=', 'PENDING')
    .execute();
  const { rows: parents } = await sql<{ n: number }>`SELECT count(*)::int AS n ${PARENTS(month)}`.execute(
    trx,
  );
  const { rows: inserted } = await sql<{ ledger_id: number }>`
    INSERT INTO exception_ledger (agent_id, contract_id, policy_no, company_code, product_code, insurance_type,
      settle_month, exception_code, direction, amount, reason, recurring_yn, recurring_parent_id, source,
      approve_status, status, run_id, calc_basis)
    SELECT p.agent_id, p.contract_id, p.policy_no, p.company_code, p.product_code, p.insurance_type,
      ${month}, p.exception_code, p.direction, p.amount, p.reason, 'N', p.ledger_id, 'AUTO',
      'PENDING', 'NEW', ${ctx.runId}::bigint,
      jsonb_build_object('step', 'chargebackException', 'runId', ${ctx.runId}::bigint, 'kind', 'RECURRING',
        'parentId', p.ledger_id, 'parentSettleMonth', p.settle_month, 'recurringUntil', p.recurring_until)
    ${PARENTS(month)}
    ON CONFLICT (recurring_parent_id, settle_month) WHERE recurring_parent_id IS NOT NULL DO NOTHING
    RETURNING ledger_id`.execute(trx);
  const total = parents[0]?.n ?? 0;
  return { total, success: inserted.length, error: 0, skipped: total - inserted.length };
}
