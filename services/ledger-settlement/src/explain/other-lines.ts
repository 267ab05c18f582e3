import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { formatMoney, formatRate, sum, toDec, type Dec } from '@csp/domain';
import { isoTimestamp } from '@csp/service-kit';

/*
 * The explain's lines of other_total: the agent's other_commission_ledger rows of the month (per type, with rule,
 * version and basis), its APPROVED incentive results and its commission-master adjustments. A line counts when its
 * type is active and counted in gross (commission_type.is_active, gross_yn = 'Y'), as in the aggregate.
 */

type Json = Record<string, unknown> | null;
const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

interface OtherLedgerSql {
  ledger_id: number;
  commission_type: string;
  contract_id: number | null;
  policy_no: string | null;
  product_code: string | null;
  commission_year: number | null;
  milestone_month: number | null;
  base_amount: string;
  rate_pct: string;
  agent_amount: string;
  rule_id: number | null;
  rule_version: number | null;
  source_id: number | null;
  status: string;
  calc_basis: Json;
}

interface TypeSetting {
  type_code: string;
  type_name: string;
  counted: boolean;
}

function otherLine(r: OtherLedgerSql, types: ReadonlyMap<string, TypeSetting>) {
  const t = types.get(r.commission_type);
  return {
    ledgerId: num(r.ledger_id),
    commissionType: r.commission_type,
    typeName: t?.type_name ?? null,
    contractId: numOrNull(r.contract_id),
    policyNo: r.policy_no,
    productCode: r.product_code,
    commissionYear: r.commission_year,
    milestoneMonth: r.milestone_month,
    baseAmount: formatMoney(r.base_amount),
    ratePct: formatRate(r.rate_pct),
    agentAmount: formatMoney(r.agent_amount),
    ruleId: numOrNull(r.rule_id),
    ruleVersion: r.rule_version,
    sourceId: numOrNull(r.source_id),
    status: r.status,
    countedInGross: t?.counted ?? false,
    basis: r.calc_basis,
  };
}

export type OtherLine = ReturnType<typeof otherLine>;

export async function loadOtherLines(db: Db, agentId: number, month: string) {
  const [types, ledger, incentives, adjustments] = await Promise.all([
    sql<TypeSetting>`SELECT type_code, type_name, (is_active AND gross_yn = 'Y') AS counted FROM commission_type`.execute(db),
    sql<OtherLedgerSql>`
      SELECT ledger_id, commission_type, contract_id, policy_no, product_code, commission_year, milestone_month,
             base_amount, rate_pct, agent_amount, rule_id, rule_version, source_id, status, calc_basis
      FROM other_commission_ledger WHERE agent_id = ${agentId} AND settle_month = ${month}
      ORDER BY commission_type, ledger_id`.execute(db),
    sql<{
      result_id: number;
      program_id: number;
      program_code: string | null;
      program_name: string | null;
      measured_value: string;
      tier_no: number;
      amount: string;
      approved_at: Date | null;
      calc_basis: Json;
    }>`
      SELECT r.result_id, r.program_id, p.program_code, p.program_name, r.measured_value, r.tier_no, r.amount,
             r.approved_at, r.calc_basis
      FROM incentive_result r LEFT JOIN incentive_program p ON p.program_id = r.program_id
      WHERE r.agent_id = ${agentId} AND r.settle_month = ${month} AND r.status = 'APPROVED'
      ORDER BY r.result_id`.execute(db),
    sql<{
      cm_id: number;
      commission_type: string;
      computed_amount: string;
      adjustment_amount: string;
      adjust_reason: string | null;
      updated_by: number | null;
      updated_at: Date | null;
    }>`
      SELECT cm_id, commission_type, computed_amount, adjustment_amount, adjust_reason, updated_by, updated_at
      FROM commission_master WHERE agent_id = ${agentId} AND settle_month = ${month} AND adjustment_amount <> 0
      ORDER BY cm_id`.execute(db),
  ]);
  const byType = new Map(types.rows.map((t) => [t.type_code, t]));
  const counted = (type: string) => byType.get(type)?.counted ?? false;
  const lines = ledger.rows.map((r) => otherLine(r, byType));
  const ofType = (type: string) => lines.filter((l) => l.commissionType === type);
  const incentive = incentives.rows.map((r) => ({
    resultId: num(r.result_id),
    programId: num(r.program_id),
    programCode: r.program_code,
    programName: r.program_name,
    measuredValue: formatMoney(r.measured_value),
    tierNo: r.tier_no,
    amount: formatMoney(r.amount),
    approvedAt: isoTimestamp(r.approved_at),
    countedInGross: counted('INCENTIVE'),
    basis: r.calc_basis,
  }));
  const adjustment = adjustments.rows.map((r) => ({
    cmId: num(r.cm_id),
    commissionType: r.commission_type,
    typeName: byType.get(r.commission_type)?.type_name ?? null,
    computedAmount: formatMoney(r.computed_amount),
    adjustmentAmount: formatMoney(r.adjustment_amount),
    adjustReason: r.adjust_reason,
    adjustedBy: numOrNull(r.updated_by),
    adjustedAt: isoTimestamp(r.updated_at),
    countedInGross: counted(r.commission_type),
  }));
  const amounts: Dec[] = [
    ...lines.filter((l) => l.countedInGross).map((l) => toDec(l.agentAmount, 'other')),
    ...incentive.filter((l) => l.countedInGross).map((l) => toDec(l.amount, 'incentive')),
    ...adjustment.filter((l) => l.countedInGross).map((l) => toDec(l.adjustmentAmount, 'adjustment')),
  ];
  return {
    sections: {
      collection: ofType('COLLECTION'),
      renewal: ofType('RENEWAL'),
      reinstatement: ofType('REINSTATEMENT'),
      persistency: ofType('PERSISTENCY'),
      appointment: ofType('APPOINTMENT'),
      incentive,
      adjustment,
    },
    any: lines.length + incentive.length + adjustment.length > 0,
    total: sum(amounts),
  };
}
