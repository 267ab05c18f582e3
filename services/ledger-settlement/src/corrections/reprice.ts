import { sql } from 'kysely';
import {
  calcCommissionFormatted,
  formatRate,
  lookupCommissionRate,
  lookupPayoutRate,
  type CommissionRateRow,
  type PayoutRuleRow,
} from '@csp/domain';
import { payoutKey, type Pricing } from '../calc/pricing.js';
import type { Executor } from '../period-closes/month-guard.js';

/** A rule row as the ledger basis names it: id + version (+ the rate it applied). */
export interface RuleRef {
  id: number;
  version: number;
  pct: string;
}

/** What a recruit/maintain row was computed from, read back from its columns and compact calc_basis. */
export interface StoredLedgerRow {
  ledger_table: 'recruit_ledger' | 'maintain_ledger';
  ledger_id: number;
  contract_id: number;
  agent_id: number;
  product_id: number;
  settle_month: string;
  commission_year: number;
  premium: string;
  pay_method: string | null;
  agent_amount: string;
  policy_no: string | null;
  company_code: string | null;
  product_code: string | null;
  insurance_type: string | null;
  contract_date: string | null;
  agent_grade_id: number;
  calc_basis: {
    rateDate?: string;
    gradeId?: number;
    companyRate?: { rateId: number; version: number; ratePct: string } | null;
    payoutRule?: { ruleId: number; version: number; payoutPct: string } | null;
  } | null;
}

/** Rule rows by lookup key: the batch's run cache, or the rows an API call loads for a few ledger rows. */
export interface RuleSource {
  rates(productId: number): readonly CommissionRateRow[];
  payouts(gradeId: number, insuranceType: string): readonly PayoutRuleRow[];
}

export function ruleSourceOf(pricing: Pricing): RuleSource {
  return {
    rates: (productId) => pricing.ratesByProduct.get(productId) ?? [],
    payouts: (gradeId, type) => pricing.payoutsByGradeType.get(payoutKey(gradeId, type)) ?? [],
  };
}

/** The commission_rate / payout_rule rows the given ledger rows can be priced with. */
export async function loadRuleSource(db: Executor, rows: readonly StoredLedgerRow[]): Promise<RuleSource> {
  const productIds = [...new Set(rows.map((r) => r.product_id))];
  const gradeIds = [...new Set(rows.map((r) => gradeOf(r)))];
  const [rates, payouts] = await Promise.all([
    productIds.length === 0
      ? []
      : db.selectFrom('commission_rate').selectAll().where('product_id', 'in', productIds).execute(),
    gradeIds.length === 0 ? [] : db.selectFrom('payout_rule').selectAll().where('grade_id', 'in', gradeIds).execute(),
  ]);
  const rateRows: CommissionRateRow[] = rates.map((r) => ({
    rateId: r.rate_id,
    productId: r.product_id,
    commissionYear: r.commission_year,
    ratePct: r.rate_pct,
    payMethodCond: r.pay_method_cond,
    minPremium: r.min_premium,
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    version: r.version,
  }));
  const payoutRows: PayoutRuleRow[] = payouts.map((r) => ({
    ruleId: r.rule_id,
    gradeId: r.grade_id,
    insuranceType: r.insurance_type,
    commissionYear: r.commission_year,
    payoutPct: r.payout_pct,
    payMethodCond: r.pay_method_cond,
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    version: r.version,
  }));
  return {
    rates: (productId) => rateRows.filter((r) => r.productId === productId),
    payouts: (gradeId, type) => payoutRows.filter((r) => r.gradeId === gradeId && r.insuranceType === type),
  };
}

/** The grade the row was priced for (its basis), else the agent's current grade (rows older than the basis). */
function gradeOf(row: StoredLedgerRow): number {
  return row.calc_basis?.gradeId ?? row.agent_grade_id;
}

export interface Repriced {
  companyAmount: string;
  agentAmount: string;
  companyRate: RuleRef | null;
  payoutRule: RuleRef | null;
}

/**
 * The row's commission under today's rule rows, with every other input as stored: premium, pay method,
 * commission year, the grade it was priced for and the rate date (rules 2/3 by the domain).
 */
export function repriceRow(row: StoredLedgerRow, rules: RuleSource): Repriced {
  const date = row.calc_basis?.rateDate ?? row.contract_date ?? `${row.settle_month.slice(0, 4)}-${row.settle_month.slice(4)}-01`;
  const rate = lookupCommissionRate(rules.rates(row.product_id), {
    productId: row.product_id,
    commissionYear: row.commission_year,
    date,
    payMethod: row.pay_method,
    premium: row.premium,
  });
  const gradeId = gradeOf(row);
  const payout =
    row.insurance_type === null
      ? undefined
      : lookupPayoutRate(rules.payouts(gradeId, row.insurance_type), {
          gradeId,
          insuranceType: row.insurance_type,
          commissionYear: row.commission_year,
          date,
          payMethod: row.pay_method,
        });
  const amounts = calcCommissionFormatted({
    premium: row.premium,
    companyRate: rate?.ratePct ?? null,
    payoutRate: payout?.payoutPct ?? null,
  });
  return {
    companyAmount: amounts.companyAmount,
    agentAmount: amounts.agentAmount,
    companyRate: rate ? { id: rate.rateId!, version: rate.version ?? 1, pct: formatRate(rate.ratePct) } : null,
    payoutRule: payout ? { id: payout.ruleId!, version: payout.version ?? 1, pct: formatRate(payout.payoutPct) } : null,
  };
}

/** The stored rule references of a row (null when no rule applied). */
export function storedRefs(row: StoredLedgerRow): { companyRate: RuleRef | null; payoutRule: RuleRef | null } {
  const c = row.calc_basis?.companyRate;
  const p = row.calc_basis?.payoutRule;
  return {
    companyRate: c ? { id: Number(c.rateId), version: Number(c.version), pct: String(c.ratePct) } : null,
    payoutRule: p ? { id: Number(p.ruleId), version: Number(p.version), pct: String(p.payoutPct) } : null,
  };
}

/** SELECT list of a StoredLedgerRow from ledger `l`, contract `c` and agent `a`. */
export const storedLedgerColumns = (table: 'recruit_ledger' | 'maintain_ledger') => sql`
  ${table}::text AS ledger_table, l.ledger_id, l.contract_id, l.agent_id, c.product_id, l.settle_month, l.commission_year,
  l.premium, l.pay_method, l.agent_amount, l.policy_no, l.company_code, l.product_code, l.insurance_type,
  c.contract_date, a.grade_id AS agent_grade_id, l.calc_basis`;
