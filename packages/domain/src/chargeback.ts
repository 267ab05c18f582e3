import type { Decimal } from 'decimal.js';
import { monthsElapsed, parseSettleMonth, shiftSettleMonth } from './calendar.js';
import { D, ZERO, toNonNegative, type DecimalInput } from './decimal.js';
import { DomainError } from './errors.js';
import { findHalfOpen, type EffectiveRow } from './lookup.js';
import { pct } from './rounding.js';

export interface ChargebackRuleRow extends EffectiveRow {
  cbRuleId?: number;
  companyCode: string;
  insuranceType: string;
  lapseMonthFrom: number;
  /** NULL = unbounded */
  lapseMonthTo: number | null;
  /** percent */
  cbRate: DecimalInput;
  includeOverride: boolean;
  installmentAllowed: boolean;
  maxInstallments: number | null;
}

export interface ChargebackInstallment {
  installmentSeq: number;
  installmentTotal: number;
  settleMonth: string;
  amount: Decimal;
}

export interface ChargebackInput<T extends ChargebackRuleRow> {
  rules: readonly T[];
  companyCode: string;
  insuranceType: string;
  contractDate: string;
  lapseDate: string;
  /** The settle month the lapse is processed in (the first installment's month). */
  settleMonth: string;
  /** Commission paid on the contract that is charged back. */
  base: DecimalInput;
  /** Override paid on the contract; added to the base only when the rule says include_override. */
  overrideBase?: DecimalInput | null;
}

export interface Chargeback<T extends ChargebackRuleRow> {
  lapseMonths: number;
  rule: T | undefined;
  baseAmount: Decimal;
  cbRate: Decimal;
  cbAmount: Decimal;
  /** Empty when no rule applies. */
  installments: ChargebackInstallment[];
}

/** Half-open lookup (2.4) by company, insurance type and lapse months within [from, to]. */
export function lookupChargebackRule<T extends ChargebackRuleRow>(
  rules: readonly T[],
  query: { companyCode: string; insuranceType: string; lapseMonths: number; date: string },
): T | undefined {
  return findHalfOpen(
    rules,
    query.date,
    (r) =>
      r.companyCode === query.companyCode &&
      r.insuranceType === query.insuranceType &&
      r.lapseMonthFrom <= query.lapseMonths &&
      (r.lapseMonthTo === null || r.lapseMonthTo >= query.lapseMonths),
  );
}

/**
 * Splits an amount into `count` rows: rows 1..count-1 get amount / count truncated to the cent, the
 * last row absorbs the remainder. Truncation (not HALF_UP) keeps every row >= 0 and the last row the
 * largest: 100.00 / 3 = 33.33 + 33.33 + 33.34; 200.00 / 3 = 66.66 + 66.66 + 66.68.
 */
export function splitInstallments(amount: DecimalInput, count: number): Decimal[] {
  if (!Number.isInteger(count) || count < 1) {
    throw new DomainError('INVALID_INSTALLMENTS', `installments must be a positive integer: ${count}`, 'installments');
  }
  const total = toNonNegative(amount, 'amount');
  const each = total.div(count).toDecimalPlaces(2, D.ROUND_DOWN);
  const rows: Decimal[] = Array.from({ length: count - 1 }, () => each);
  rows.push(total.minus(each.times(count - 1)));
  return rows;
}

/**
 * Batch step 6 for a LAPSE contract: lapseMonths = monthsElapsed(contractDate, lapseDate); the rule
 * valid on the lapse date; cbAmount = pct(base, cbRate) (scale 2). With installment_allowed and
 * max_installments N > 1 the amount is split into N rows in N consecutive settle months from the
 * given one (DECISIONS); otherwise one row 1/1.
 */
export function calcChargeback<T extends ChargebackRuleRow>(input: ChargebackInput<T>): Chargeback<T> {
  const lapseMonths = monthsElapsed(input.contractDate, input.lapseDate);
  parseSettleMonth(input.settleMonth);
  const rule = lookupChargebackRule(input.rules, { ...input, lapseMonths, date: input.lapseDate });
  const base = toNonNegative(input.base, 'base');
  const overrideBase =
    input.overrideBase === null || input.overrideBase === undefined ? ZERO : toNonNegative(input.overrideBase, 'overrideBase');
  if (rule === undefined) {
    return { lapseMonths, rule, baseAmount: base, cbRate: ZERO, cbAmount: ZERO, installments: [] };
  }
  const baseAmount = rule.includeOverride ? base.plus(overrideBase) : base;
  const cbRate = toNonNegative(rule.cbRate, 'cbRate');
  const cbAmount = pct(baseAmount, cbRate);
  const count = rule.installmentAllowed && rule.maxInstallments !== null && rule.maxInstallments > 1 ? rule.maxInstallments : 1;
  const installments = splitInstallments(cbAmount, count).map((amount, i) => ({
    installmentSeq: i + 1,
    installmentTotal: count,
    settleMonth: shiftSettleMonth(input.settleMonth, i),
    amount,
  }));
  return { lapseMonths, rule, baseAmount, cbRate, cbAmount, installments };
}
