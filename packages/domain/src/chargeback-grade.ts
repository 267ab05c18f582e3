import type { Decimal } from 'decimal.js';
import { monthsElapsed } from './calendar.js';
import { ZERO, toNonNegative, type DecimalInput } from './decimal.js';
import { findClosed, type EffectiveRow } from './lookup.js';
import { pct0 } from './rounding.js';

export const NO_APPLICABLE_BAND = 'no applicable chargeback band';

export interface ChargebackGradeRow extends EffectiveRow {
  gradeId?: number;
  /** NULL = all categories */
  productCategory?: string | null;
  monthsFrom: number;
  /** NULL = unbounded */
  monthsTo: number | null;
  percent: DecimalInput;
}

export interface DifferentialChargebackInput<T extends ChargebackGradeRow> {
  grades: readonly T[];
  /** The contract product's category; null/undefined = only the all-category bands apply. */
  productCategory?: string | null;
  contractDate: string;
  terminationDate: string;
  /** Date the bands must be valid on; defaults to the termination date. */
  baseDate?: string;
  originalCommission: DecimalInput;
}

export interface DifferentialChargeback<T extends ChargebackGradeRow> {
  monthsElapsed: number;
  grade: T | undefined;
  percent: Decimal;
  chargebackAmount: Decimal;
  /** Set when no band applies (the amount is then 0). */
  reason?: typeof NO_APPLICABLE_BAND;
}

/** The band for a number of months (closed lookup of 2.4, category NULL = all). */
export function lookupChargebackGrade<T extends ChargebackGradeRow>(
  grades: readonly T[],
  months: number,
  date: string,
  productCategory?: string | null,
): T | undefined {
  return findClosed(grades, date, (g) => g.monthsFrom <= months && (g.monthsTo === null || g.monthsTo >= months), {
    category: productCategory ?? null,
  });
}

/**
 * Rule 7: monthsElapsed = whole months from contract date to termination date; the band gives the
 * percent; chargebackAmount = round0(originalCommission x percent / 100). No band: 0 with the reason
 * 'no applicable chargeback band' (with the seeded bands: 0 months, i.e. a termination in month 1).
 */
export function calcDifferentialChargeback<T extends ChargebackGradeRow>(
  input: DifferentialChargebackInput<T>,
): DifferentialChargeback<T> {
  const original = toNonNegative(input.originalCommission, 'originalCommission');
  const months = monthsElapsed(input.contractDate, input.terminationDate);
  const grade = lookupChargebackGrade(input.grades, months, input.baseDate ?? input.terminationDate, input.productCategory);
  if (grade === undefined) {
    return { monthsElapsed: months, grade, percent: ZERO, chargebackAmount: ZERO, reason: NO_APPLICABLE_BAND };
  }
  const percent = toNonNegative(grade.percent, 'percent');
  return { monthsElapsed: months, grade, percent, chargebackAmount: pct0(original, percent) };
}
