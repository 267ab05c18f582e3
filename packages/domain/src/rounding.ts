import type { Decimal } from 'decimal.js';
import { D, ONE_HUNDREDTH, toDec, type DecimalInput } from './decimal.js';
import { decOfScaled, roundHalfUpDiv, scaledOf } from './fixed-point.js';
import { centsOf, formatCents, isCanonicalMoney } from './money-text.js';

const PCT_DIVISOR_SCALE2 = 1_000_000n; // cents x rate10k / 10^6 = result cents
const PCT_DIVISOR_SCALE0 = 100_000_000n; // cents x rate10k / 10^8 = whole units

/** Round HALF_UP (half away from zero): 0.005 -> 0.01, -0.005 -> -0.01, 2.5 -> 3. */
export function roundHalfUp(value: DecimalInput, scale: number): Decimal {
  return toDec(value, 'value').toDecimalPlaces(scale, D.ROUND_HALF_UP);
}

export function round2(value: DecimalInput): Decimal {
  return roundHalfUp(value, 2);
}

export function round0(value: DecimalInput): Decimal {
  return roundHalfUp(value, 0);
}

/** Rule 1: pct(amount, rate) = amount x rate / 100, HALF_UP to scale 2. */
export function pct(amount: DecimalInput, rate: DecimalInput): Decimal {
  return pctScaled(amount, rate, 2, PCT_DIVISOR_SCALE2);
}

/** Rule 1 at scale 0 (rules 5 and 7). */
export function pct0(amount: DecimalInput, rate: DecimalInput): Decimal {
  return pctScaled(amount, rate, 0, PCT_DIVISOR_SCALE0);
}

/** pct on decimal.js alone: the reference the fixed-point path is tested against. */
export function pctDecimal(amount: DecimalInput, rate: DecimalInput, scale: number): Decimal {
  return pctExact(amount, rate).toDecimalPlaces(scale, D.ROUND_HALF_UP);
}

function pctScaled(amount: DecimalInput, rate: DecimalInput, scale: number, divisor: bigint): Decimal {
  const cents = scaledOf(amount, 2);
  const rate10k = cents === null ? null : scaledOf(rate, 4);
  if (cents === null || rate10k === null) return pctDecimal(amount, rate, scale);
  return decOfScaled(roundHalfUpDiv(cents * rate10k, divisor), scale);
}

/** amount x rate / 100 without rounding (exact: at most 22 significant digits at precision 40). */
export function pctExact(amount: DecimalInput, rate: DecimalInput): Decimal {
  return toDec(amount, 'amount').times(toDec(rate, 'rate')).times(ONE_HUNDREDTH);
}

/**
 * Money on the wire: a string with exactly two places ("1234.50"), never "-0.00". A canonical
 * 2-place string (as pg returns numeric(15,2)) is returned as it is and other strings exact at two
 * places are written from their cents. Decimals stay on decimal.js: reading calcCommission's result
 * Decimals here was measured to halve the speed of later calcCommission calls (GC survivors).
 */
export function formatMoney(value: DecimalInput): string {
  if (typeof value !== 'string') return formatMoneyDecimal(value);
  if (isCanonicalMoney(value)) return value;
  const cents = centsOf(value);
  return cents === null ? formatMoneyDecimal(value) : formatCents(cents);
}

/** formatMoney on decimal.js alone: the reference the fast paths are tested against. */
export function formatMoneyDecimal(value: DecimalInput): string {
  const d = toDec(value, 'value').toDecimalPlaces(2, D.ROUND_HALF_UP);
  return d.isZero() ? '0.00' : d.toFixed(2);
}

/** Rates on the wire: up to four places, trailing zeros dropped ("3.3", "12.5", "0"). */
export function formatRate(value: DecimalInput): string {
  const d = toDec(value, 'value').toDecimalPlaces(4, D.ROUND_HALF_UP);
  return d.isZero() ? '0' : d.toFixed();
}
