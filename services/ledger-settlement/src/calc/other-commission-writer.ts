import type { Trx } from '@csp/batch';
import type { OtherCommissionLine } from '@csp/domain';
import { sql } from 'kysely';
import type { Range } from './other-commission-candidates.js';

/** A computed line with the contract columns the ledger row repeats. */
export interface OtherLedgerRow extends OtherCommissionLine {
  policyNo: string | null;
  companyCode: string | null;
  productCode: string | null;
  insuranceType: string | null;
}

/**
 * Deletes the month's CALCULATED rows paid to the range's agents (of the run's carrier on a carrier run: appointment
 * rows have none and stay), except those of agents whose settlement is locked.
 */
export async function deleteMonthRows(
  trx: Trx,
  month: string,
  range: Range,
  companyCode: string | undefined,
  locked: ReadonlySet<number>,
): Promise<number> {
  const { rows } = await sql<{ ledger_id: number }>`
    DELETE FROM other_commission_ledger
    WHERE settle_month = ${month} AND agent_id BETWEEN ${range.from} AND ${range.to} AND status = 'CALCULATED'
      AND NOT (agent_id = ANY(${[...locked]}::bigint[]))
      ${companyCode === undefined ? sql`` : sql`AND company_code = ${companyCode}`}
    RETURNING ledger_id`.execute(trx);
  return rows.length;
}

/** Basis keys the row's own columns hold (commission_type, rule_id/rule_version/rate_pct, milestone_month, base_amount, source_id). */
const IN_COLUMNS = new Set(['type', 'rule', 'milestoneMonth', 'monthNo', 'recruitAmount', 'renewedPremium', 'endorsementId']);

/**
 * The stored calc_basis: compact like recruit/maintain rows (measured: the full form doubled the insert), only what
 * the columns and the rule row do not hold; the explain rebuilds the full form (explain/other-lines.ts).
 */
export function compactBasis(basis: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(basis).filter(([key]) => !IN_COLUMNS.has(key))));
}

/** Inserts the rows in one statement; a row whose key a kept (not CALCULATED) row holds is not written. */
export async function insertRows(trx: Trx, month: string, runId: number, rows: readonly OtherLedgerRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const col = <T>(f: (r: OtherLedgerRow) => T) => rows.map(f);
  const { rows: written } = await sql<{ ledger_id: number }>`
    INSERT INTO other_commission_ledger (commission_type, contract_id, agent_id, policy_no, company_code, product_code,
      insurance_type, commission_year, milestone_month, base_amount, rate_pct, agent_amount, rule_id, rule_version,
      source_id, calc_basis, settle_month, run_id)
    SELECT u.*, ${month}::char(6), ${runId}::bigint FROM unnest(
      ${col((r) => r.commissionType)}::varchar[], ${col((r) => r.contractId)}::bigint[], ${col((r) => r.agentId)}::bigint[],
      ${col((r) => r.policyNo)}::varchar[], ${col((r) => r.companyCode)}::varchar[], ${col((r) => r.productCode)}::varchar[],
      ${col((r) => r.insuranceType)}::varchar[], ${col((r) => r.commissionYear)}::int[], ${col((r) => r.milestoneMonth)}::int[],
      ${col((r) => r.baseAmount)}::numeric[], ${col((r) => r.ratePct)}::numeric[], ${col((r) => r.agentAmount)}::numeric[],
      ${col((r) => r.ruleId)}::bigint[], ${col((r) => r.ruleVersion)}::int[], ${col((r) => r.sourceId)}::bigint[],
      ${col((r) => compactBasis(r.basis))}::jsonb[]
    ) AS u
    ON CONFLICT DO NOTHING
    RETURNING ledger_id`.execute(trx);
  return written.length;
}

/** Cancels chargeback installments ended by a revival, marking the revival date (a re-run explains the same rows). */
export async function cancelChargebacks(
  trx: Trx,
  runId: number,
  cancels: ReadonlyArray<{ cbId: number; revivalDate: string }>,
): Promise<number> {
  if (cancels.length === 0) return 0;
  const { rows } = await sql<{ cb_id: number }>`
    UPDATE chargeback c SET status = 'CANCELLED', updated_at = now(),
      calc_basis = coalesce(c.calc_basis, '{}'::jsonb) || jsonb_build_object('cancelledByRevival', u.revival_date, 'cancelRunId', ${runId}::bigint)
    FROM unnest(${cancels.map((c) => c.cbId)}::bigint[], ${cancels.map((c) => c.revivalDate)}::text[]) AS u(cb_id, revival_date)
    WHERE c.cb_id = u.cb_id AND c.status = 'CALCULATED'
    RETURNING c.cb_id`.execute(trx);
  return rows.length;
}
