import type { Decimal } from 'decimal.js';
import { shiftSettleMonth, parseSettleMonth } from './calendar.js';
import { HUNDRED, ZERO, toNonNegative, type DecimalInput } from './decimal.js';
import { DomainError } from './errors.js';
import { categoryMatches, findClosed, isGeneralCategory, type EffectiveRow } from './lookup.js';
import { pct } from './rounding.js';

export interface InstallmentRatio {
  planYear: number;
  /** NULL = annual ratio (paid in month 1 of the plan year) */
  planMonth: number | null;
  ratioPercent: DecimalInput;
}

export interface InstallmentRatioRow extends InstallmentRatio, EffectiveRow {
  ratioId?: number;
  productCategory?: string | null;
}

export interface InstallmentPlanRow {
  planYear: number;
  planMonth: number | null;
  /** (planYear - 1) x 12 + (planMonth ?? 1), the combined sequence the web client shows. */
  sequence: number;
  settleMonth: string;
  ratioPercent: Decimal;
  amount: Decimal;
}

export function installmentSequence(planYear: number, planMonth: number | null): number {
  return (planYear - 1) * 12 + (planMonth ?? 1);
}

/**
 * Closed lookup (2.4) of a whole ratio set: when any valid row has the product's own category, only
 * those rows are used (a category set replaces the general one rather than mixing with it);
 * otherwise the NULL/'ALL' rows. Per (planYear, planMonth) the newest effective_from wins.
 * Result ordered by sequence.
 */
export function selectInstallmentRatios<T extends InstallmentRatioRow>(
  rows: readonly T[],
  query: { productCategory?: string | null; date: string },
): T[] {
  const category = query.productCategory ?? null;
  const valid = rows.filter(
    (r) =>
      r.isActive !== false &&
      r.effectiveFrom <= query.date &&
      (r.effectiveTo === null || r.effectiveTo >= query.date) &&
      categoryMatches(r.productCategory, category),
  );
  const exact = valid.filter((r) => !isGeneralCategory(r.productCategory));
  const set = exact.length > 0 ? exact : valid;
  const groups = new Map<string, T[]>();
  for (const r of set) {
    const key = `${r.planYear}/${r.planMonth}`;
    const group = groups.get(key);
    if (group) group.push(r);
    else groups.set(key, [r]);
  }
  // Every group is non-empty and valid on the date, so findClosed always returns a row.
  const chosen = [...groups.values()].map((group) => findClosed(group, query.date) as T);
  return chosen.sort(
    (a, b) => installmentSequence(a.planYear, a.planMonth) - installmentSequence(b.planYear, b.planMonth),
  );
}

export interface InstallmentPlanInput {
  ratios: readonly InstallmentRatio[];
  /** The settle month of the contract's first payment (usually the contract date's month). */
  firstSettleMonth: string;
  total: DecimalInput;
}

function validateRatios(ratios: readonly InstallmentRatio[]): void {
  if (ratios.length === 0) throw new DomainError('INVALID_RATIOS', 'no installment ratios', 'ratios');
  const seen = new Set<number>();
  for (const r of ratios) {
    const monthOk = r.planMonth === null || (Number.isInteger(r.planMonth) && r.planMonth >= 1 && r.planMonth <= 12);
    if (!Number.isInteger(r.planYear) || r.planYear < 1 || r.planYear > 7 || !monthOk) {
      throw new DomainError('INVALID_RATIOS', `invalid plan year/month ${r.planYear}/${r.planMonth}`, 'ratios');
    }
    const seq = installmentSequence(r.planYear, r.planMonth);
    if (seen.has(seq)) throw new DomainError('INVALID_RATIOS', `two ratios fall on sequence ${seq}`, 'ratios');
    seen.add(seq);
  }
}

/**
 * Rule 9. Each ratio gives one row: sequence = (planYear - 1) x 12 + (planMonth ?? 1) and
 * settleMonth = firstSettleMonth + (sequence - 1) months, i.e. plan year y starts (y - 1) years after
 * the first settle month and planMonth counts months inside that plan year (NULL = its first month).
 * amount = pct(total, ratioPercent); the last row (highest sequence) absorbs the rounding remainder
 * so the rows sum to the total exactly. The ratios must add up to 100. The last row can only turn
 * negative when its exact share is below 0.005 x (rows - 1), i.e. for totals of a few cents.
 */
export function generateInstallmentPlan(input: InstallmentPlanInput): InstallmentPlanRow[] {
  parseSettleMonth(input.firstSettleMonth, 'firstSettleMonth');
  validateRatios(input.ratios);
  const total = toNonNegative(input.total, 'total');
  const sorted = input.ratios
    .map((r) => ({ ...r, ratioPercent: toNonNegative(r.ratioPercent, 'ratioPercent') }))
    .sort((a, b) => installmentSequence(a.planYear, a.planMonth) - installmentSequence(b.planYear, b.planMonth));
  let ratioSum = ZERO;
  for (const r of sorted) ratioSum = ratioSum.plus(r.ratioPercent);
  if (!ratioSum.eq(HUNDRED)) {
    throw new DomainError('INVALID_RATIOS', `installment ratios must add up to 100, got ${ratioSum.toFixed()}`, 'ratios');
  }
  let allocated = ZERO;
  return sorted.map((r, i) => {
    const sequence = installmentSequence(r.planYear, r.planMonth);
    const amount = i === sorted.length - 1 ? total.minus(allocated) : pct(total, r.ratioPercent);
    allocated = allocated.plus(amount);
    return {
      planYear: r.planYear,
      planMonth: r.planMonth,
      sequence,
      settleMonth: shiftSettleMonth(input.firstSettleMonth, sequence - 1),
      ratioPercent: r.ratioPercent,
      amount,
    };
  });
}
