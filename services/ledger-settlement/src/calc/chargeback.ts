import type { StepContext } from '@csp/batch';
import { calcChargeback, DomainError, formatMoney, formatRate, type ChargebackRuleRow } from '@csp/domain';
import type { Pricing } from './pricing.js';
import { perRun } from './run-cache.js';

export interface CbRule extends ChargebackRuleRow {
  cbRuleId: number;
  version: number;
}

export interface ChargebackRow {
  contractId: number;
  agentId: number;
  settleMonth: string;
  lapseMonth: string;
  lapseDate: string;
  lapseMonthDiff: number;
  baseAmount: string;
  cbRate: string;
  cbAmount: string;
  installmentSeq: number;
  installmentTotal: number;
  cbRuleId: number;
  calcBasis: string;
}

export function loadChargebackRules(ctx: StepContext): Promise<CbRule[]> {
  return perRun(ctx, 'chargeback-rules', async () => {
    const rows = await ctx.db
      .selectFrom('chargeback_rule')
      .select([
        'cb_rule_id',
        'company_code',
        'insurance_type',
        'lapse_month_from',
        'lapse_month_to',
        'cb_rate',
        'include_override',
        'installment_allowed',
        'max_installments',
        'effective_from',
        'effective_to',
        'version',
      ])
      .execute();
    return rows.map((r) => ({
      cbRuleId: r.cb_rule_id,
      companyCode: r.company_code,
      insuranceType: r.insurance_type,
      lapseMonthFrom: r.lapse_month_from,
      lapseMonthTo: r.lapse_month_to,
      cbRate: r.cb_rate,
      includeOverride: r.include_override,
      installmentAllowed: r.installment_allowed,
      maxInstallments: r.max_installments,
      effectiveFrom: r.effective_from,
      effectiveTo: r.effective_to,
      version: r.version,
    }));
  });
}

export interface LapsedInput {
  contract_id: number;
  agent_id: number;
  product_id: number;
  contract_date: string | null;
  lapse_date: string;
}

export interface BuiltChargebacks {
  rows: ChargebackRow[];
  /** contracts processed without a domain error (with or without rows) */
  contractsOk: number;
  errors: number;
}

/**
 * Step 6 for the month's lapsed contracts: the domain's calcChargeback per contract. The override part of
 * include_override is recorded but not used (overrideBase 0): overrides are per agent-month, not per contract.
 * Nothing is written when no rule applies or the amount is 0.
 */
export function buildChargebackRows(input: {
  ctx: StepContext;
  pricing: Pricing;
  rules: readonly CbRule[];
  lapsed: readonly LapsedInput[];
  bases: ReadonlyMap<number, { base: string; rows: number }>;
}): BuiltChargebacks {
  const { ctx, pricing, rules } = input;
  const out: BuiltChargebacks = { rows: [], contractsOk: 0, errors: 0 };
  const lapseMonth = ctx.settleMonth;
  for (const c of input.lapsed) {
    const product = pricing.products.get(c.product_id);
    const ledger = input.bases.get(c.contract_id) ?? { base: '0', rows: 0 };
    if (!product || c.contract_date === null) {
      out.errors++;
      ctx.logger.warn({ contractId: c.contract_id }, 'lapsed contract without product or contract date');
      continue;
    }
    const contractDate = c.contract_date;
    try {
      const result = calcChargeback({
        rules,
        companyCode: product.companyCode,
        insuranceType: product.insuranceType,
        contractDate,
        lapseDate: c.lapse_date,
        settleMonth: ctx.settleMonth,
        base: ledger.base,
        overrideBase: '0',
      });
      out.contractsOk++;
      const rule = result.rule;
      if (!rule || result.cbAmount.isZero()) continue;
      const basis = JSON.stringify({
        runId: ctx.runId,
        cbRuleId: rule.cbRuleId,
        ruleVersion: rule.version,
        companyCode: product.companyCode,
        insuranceType: product.insuranceType,
        contractDate,
        lapseDate: c.lapse_date,
        lapseMonths: result.lapseMonths,
        cbRate: formatRate(result.cbRate),
        includeOverride: rule.includeOverride,
        overrideBase: '0.00',
        ledgerBase: formatMoney(ledger.base),
        ledgerRows: ledger.rows,
        cbTotal: formatMoney(result.cbAmount),
        installmentTotal: result.installments.length,
      });
      for (const inst of result.installments) {
        out.rows.push({
          contractId: c.contract_id,
          agentId: c.agent_id,
          settleMonth: inst.settleMonth,
          lapseMonth,
          lapseDate: c.lapse_date,
          lapseMonthDiff: result.lapseMonths,
          baseAmount: formatMoney(result.baseAmount),
          cbRate: formatRate(result.cbRate),
          cbAmount: formatMoney(inst.amount),
          installmentSeq: inst.installmentSeq,
          installmentTotal: inst.installmentTotal,
          cbRuleId: rule.cbRuleId,
          calcBasis: basis,
        });
      }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      out.errors++;
      ctx.logger.warn(
        { contractId: c.contract_id, code: err.code },
        'lapsed contract refused by a domain rule',
      );
    }
  }
  return out;
}
