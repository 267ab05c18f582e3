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
  run_id: number | null;
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

interface RulePeriod {
  effectiveFrom: string;
  effectiveTo: string | null;
  /** collection: min_commission_year; appointment: months */
  extra: number | null;
}

const RULE_TABLES: Record<string, { table: string; extra: string | null }> = {
  COLLECTION: { table: 'collection_rule', extra: 'min_commission_year' },
  RENEWAL: { table: 'renewal_rule', extra: null },
  REINSTATEMENT: { table: 'reinstatement_rule', extra: null },
  PERSISTENCY: { table: 'persistency_rule', extra: null },
  APPOINTMENT: { table: 'appointment_rule', extra: 'months' },
};

/** The rule rows behind the lines (validity and the values the row does not hold), one query per rule table. */
async function loadRulePeriods(db: Db, rows: readonly OtherLedgerSql[]): Promise<Map<string, RulePeriod>> {
  const periods = new Map<string, RulePeriod>();
  await Promise.all(
    Object.entries(RULE_TABLES).map(async ([type, { table, extra }]) => {
      const ids = [...new Set(rows.filter((r) => r.commission_type === type && r.rule_id !== null).map((r) => Number(r.rule_id)))];
      if (ids.length === 0) return;
      const { rows: rules } = await sql<{ rule_id: number; effective_from: string; effective_to: string | null; extra: number | null }>`
        SELECT rule_id, effective_from, effective_to, ${extra === null ? sql`NULL::int` : sql.ref(extra)} AS extra
        FROM ${sql.table(table)} WHERE rule_id = ANY(${ids}::bigint[])`.execute(db);
      for (const r of rules) {
        periods.set(`${type}:${r.rule_id}`, { effectiveFrom: r.effective_from, effectiveTo: r.effective_to, extra: r.extra });
      }
    }),
  );
  return periods;
}

/**
 * The full basis of a row (as the domain computed it) from its compact stored form, its columns and its rule row
 * (current validity; a deleted rule row shows none).
 */
function expandBasis(r: OtherLedgerSql, periods: ReadonlyMap<string, RulePeriod>): Json {
  const stored = r.calc_basis ?? {};
  const period = periods.get(`${r.commission_type}:${r.rule_id}`);
  const base = formatMoney(r.base_amount);
  const value: Record<string, string> =
    r.commission_type === 'PERSISTENCY'
      ? { bonusPct: formatRate(r.rate_pct) }
      : r.commission_type === 'APPOINTMENT'
        ? { monthlyAmount: base, ...(period !== undefined && period.extra !== null && { months: String(period.extra) }) }
        : {
            ratePct: formatRate(r.rate_pct),
            ...(r.commission_type === 'COLLECTION' && period !== undefined && period.extra !== null && { minCommissionYear: String(period.extra) }),
          };
  const specific: Record<string, unknown> =
    r.commission_type === 'PERSISTENCY'
      ? { milestoneMonth: r.milestone_month, recruitAmount: base }
      : r.commission_type === 'APPOINTMENT'
        ? { monthNo: r.milestone_month }
        : r.commission_type === 'RENEWAL'
          ? { endorsementId: numOrNull(r.source_id), renewedPremium: base }
          : {};
  return {
    step: 'calcOtherCommission',
    runId: numOrNull(r.run_id),
    type: r.commission_type,
    rule: {
      ruleId: numOrNull(r.rule_id),
      version: r.rule_version,
      ...value,
      ...(period && { effectiveFrom: period.effectiveFrom, effectiveTo: period.effectiveTo }),
    },
    ...specific,
    ...stored,
  };
}

function otherLine(r: OtherLedgerSql, types: ReadonlyMap<string, TypeSetting>, periods: ReadonlyMap<string, RulePeriod>) {
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
    basis: expandBasis(r, periods),
  };
}

export type OtherLine = ReturnType<typeof otherLine>;

export async function loadOtherLines(db: Db, agentId: number, month: string) {
  const [types, ledger, incentives, adjustments] = await Promise.all([
    sql<TypeSetting>`SELECT type_code, type_name, (is_active AND gross_yn = 'Y') AS counted FROM commission_type`.execute(db),
    sql<OtherLedgerSql>`
      SELECT ledger_id, run_id, commission_type, contract_id, policy_no, product_code, commission_year, milestone_month,
             base_amount, rate_pct, agent_amount, rule_id, rule_version, source_id, status, calc_basis
      FROM ${sql.table('other_commission_ledger')} WHERE agent_id = ${agentId} AND settle_month = ${month}
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
      FROM ${sql.table('commission_master')} WHERE agent_id = ${agentId} AND settle_month = ${month} AND adjustment_amount <> 0
      ORDER BY cm_id`.execute(db),
  ]);
  const byType = new Map(types.rows.map((t) => [t.type_code, t]));
  const counted = (type: string) => byType.get(type)?.counted ?? false;
  const periods = await loadRulePeriods(db, ledger.rows);
  const lines = ledger.rows.map((r) => otherLine(r, byType, periods));
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
