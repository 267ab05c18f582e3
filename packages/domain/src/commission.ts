import type { Decimal } from 'decimal.js';
import { D, rateOrZero, toNonNegative, type DecimalInput } from './decimal.js';
import { decOfScaled, isPlainDecimal, roundHalfUpDiv, scaledOf } from './fixed-point.js';
import { findHalfOpen, type EffectiveRow } from './lookup.js';
import { formatCents } from './money-text.js';
import { formatMoney, pctDecimal } from './rounding.js';

/** Rules 2 and 3: tax on the agent amount is 3.3 %. */
export const COMMISSION_TAX_RATE = new D('3.3');
const TAX_RATE_10K = 33_000n;
const PCT_DIVISOR = 1_000_000n; // cents x rate10k / 10^6 = cents

export interface CommissionInput {
  premium: DecimalInput;
  /** Company commission rate in percent; missing counts as 0. */
  companyRate?: DecimalInput | null;
  /** Payout rate in percent; missing counts as 0. */
  payoutRate?: DecimalInput | null;
}

export interface CommissionResult {
  companyAmount: Decimal;
  agentAmount: Decimal;
  tax: Decimal;
}

/** calcCommission's amounts as formatMoney writes them ('1234.50'): what a ledger row stores. */
export interface CommissionMoney {
  companyAmount: string;
  agentAmount: string;
  tax: string;
}

function rate10k(rate: DecimalInput | null | undefined): bigint | null {
  return rate === null || rate === undefined ? 0n : scaledOf(rate, 4);
}

interface ScaledCommission {
  company: bigint;
  agent: bigint;
  tax: bigint;
}

/** The fixed-point rule on cents and rates x 10^4; null when an input does not fit numeric(15,2)/(7,4). */
function scaledCommission(input: CommissionInput): ScaledCommission | null {
  const premium = scaledOf(input.premium, 2);
  const company10k = premium === null ? null : rate10k(input.companyRate);
  const payout10k = company10k === null ? null : rate10k(input.payoutRate);
  if (premium === null || company10k === null || payout10k === null) return null;
  const company = roundHalfUpDiv(premium * company10k, PCT_DIVISOR);
  const agent = roundHalfUpDiv(company * payout10k, PCT_DIVISOR);
  return { company, agent, tax: roundHalfUpDiv(agent * TAX_RATE_10K, PCT_DIVISOR) };
}

/**
 * Recruit (rule 2, year 1) and maintain (rule 3, years 2-5) commission:
 * companyAmount = pct(premium, companyRate); agentAmount = pct(companyAmount, payoutRate);
 * tax = pct(agentAmount, 3.3). Premium and rates must not be negative.
 * Runs once per contract and month, so it takes the exact fixed-point path whenever the inputs
 * fit numeric(15,2) / numeric(7,4), as database values always do.
 */
export function calcCommission(input: CommissionInput): CommissionResult {
  const scaled = scaledCommission(input);
  if (scaled === null) return calcCommissionDecimal(input);
  return {
    companyAmount: decOfScaled(scaled.company, 2),
    agentAmount: decOfScaled(scaled.agent, 2),
    tax: decOfScaled(scaled.tax, 2),
  };
}

/**
 * calcCommission with every amount already formatted: exactly formatMoney(calcCommission(input).x),
 * without building a Decimal on the fixed-point path. The per-contract call of the batch steps.
 */
export function calcCommissionFormatted(input: CommissionInput): CommissionMoney {
  const scaled = scaledCommission(input);
  if (scaled === null) {
    const amounts = calcCommissionDecimal(input);
    return {
      companyAmount: formatMoney(amounts.companyAmount),
      agentAmount: formatMoney(amounts.agentAmount),
      tax: formatMoney(amounts.tax),
    };
  }
  return { companyAmount: formatCents(scaled.company), agentAmount: formatCents(scaled.agent), tax: formatCents(scaled.tax) };
}

/** The same rule on decimal.js alone: any input the fast path cannot hold exactly, and the test oracle. */
export function calcCommissionDecimal(input: CommissionInput): CommissionResult {
  const premium = toNonNegative(input.premium, 'premium');
  const companyRate = rateOrZero(input.companyRate, 'companyRate');
  const payoutRate = rateOrZero(input.payoutRate, 'payoutRate');
  const companyAmount = pctDecimal(premium, companyRate, 2);
  const agentAmount = pctDecimal(companyAmount, payoutRate, 2);
  return { companyAmount, agentAmount, tax: pctDecimal(agentAmount, COMMISSION_TAX_RATE, 2) };
}

export interface CommissionRateRow extends EffectiveRow {
  rateId?: number;
  productId: number;
  commissionYear: number;
  ratePct: DecimalInput;
  payMethodCond?: string | null;
  minPremium?: DecimalInput | null;
}

export interface PayoutRuleRow extends EffectiveRow {
  ruleId?: number;
  gradeId: number;
  insuranceType: string;
  commissionYear: number;
  payoutPct: DecimalInput;
  payMethodCond?: string | null;
  performanceGrade?: string | null;
}

export interface CommissionRateQuery {
  productId: number;
  commissionYear: number;
  /** Contract date (today when the contract date is empty), 'YYYY-MM-DD'. */
  date: string;
  /** When given, rows with a different non-NULL pay_method_cond do not apply. */
  payMethod?: string | null;
  /** When given, rows whose min_premium exceeds it do not apply. */
  premium?: DecimalInput | null;
}

export interface PayoutRuleQuery {
  gradeId: number;
  insuranceType: string;
  commissionYear: number;
  date: string;
  payMethod?: string | null;
}

function payMethodApplies(cond: string | null | undefined, payMethod: string | null | undefined): boolean {
  return cond === null || cond === undefined || payMethod === null || payMethod === undefined || cond === payMethod;
}

/**
 * The query premium for the min_premium test, validated up front (as toNonNegative would) but only
 * turned into a Decimal when a row has a min_premium: most rows have none.
 */
function premiumTest(premium: DecimalInput | null | undefined): (minPremium: DecimalInput) => boolean {
  if (premium === null || premium === undefined) return () => true;
  let value = typeof premium === 'string' && isPlainDecimal(premium) ? null : toNonNegative(premium, 'premium');
  return (minPremium) => (value ??= toNonNegative(premium, 'premium')).gte(minPremium);
}

/** Half-open lookup (2.4) of the product's company rate for a commission year; undefined = missing (0). */
export function lookupCommissionRate<T extends CommissionRateRow>(
  rates: readonly T[],
  query: CommissionRateQuery,
): T | undefined {
  const premiumCovers = premiumTest(query.premium);
  return findHalfOpen(
    rates,
    query.date,
    (r) =>
      r.productId === query.productId &&
      r.commissionYear === query.commissionYear &&
      payMethodApplies(r.payMethodCond, query.payMethod) &&
      (r.minPremium === null || r.minPremium === undefined || premiumCovers(r.minPremium)),
  );
}

/** Half-open lookup (2.4) of the payout rule for grade, insurance type and year; undefined = missing (0). */
export function lookupPayoutRate<T extends PayoutRuleRow>(rules: readonly T[], query: PayoutRuleQuery): T | undefined {
  return findHalfOpen(
    rules,
    query.date,
    (r) =>
      r.gradeId === query.gradeId &&
      r.insuranceType === query.insuranceType &&
      r.commissionYear === query.commissionYear &&
      payMethodApplies(r.payMethodCond, query.payMethod),
  );
}
