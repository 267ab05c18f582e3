import { Decimal } from 'decimal.js';
import { DomainError } from './errors.js';

/**
 * The only Decimal constructor of the domain: 40 significant digits (money numeric(15,2) times a
 * rate numeric(7,4) needs at most 22) and HALF_UP = half away from zero, like Java BigDecimal and
 * PostgreSQL round(numeric). The global `Decimal` keeps precision 20 and must not be used.
 */
export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = Decimal;

/** Money and rates enter as pg `numeric` strings or as Decimals built elsewhere. */
export type DecimalInput = Decimal | string;

export const ZERO = new D(0);
export const HUNDRED = new D(100);
/** x / 100 as a multiplication: exact at precision 40 and cheaper than a division. */
export const ONE_HUNDREDTH = new D('0.01');

/**
 * Converts input to a Decimal of `D`. Every clone shares one prototype, so `instanceof` cannot tell
 * a precision-20 Decimal from ours; decimal.js sets `constructor` on each instance, which can.
 */
export function toDec(value: DecimalInput, field: string): Decimal {
  if (typeof value === 'object' && value !== null && value.constructor === D) return value;
  let d: Decimal;
  try {
    d = new D(value);
  } catch {
    throw new DomainError('INVALID_NUMBER', `${field} is not a number: ${String(value)}`, field);
  }
  if (!d.isFinite()) throw new DomainError('INVALID_NUMBER', `${field} must be finite`, field);
  return d;
}

/** Negative zero (decimal.js keeps the sign of -0) is not negative here. */
export function isNegative(d: Decimal): boolean {
  return d.s < 0 && !d.isZero();
}

/** toDec plus a sign check, for amounts and rates that cannot be negative. */
export function toNonNegative(value: DecimalInput, field: string): Decimal {
  const d = toDec(value, field);
  if (isNegative(d)) throw new DomainError('NEGATIVE_AMOUNT', `${field} must not be negative`, field);
  return d;
}

/** A missing rate counts as 0 (rules 2 and 3). */
export function rateOrZero(value: DecimalInput | null | undefined, field: string): Decimal {
  return value === null || value === undefined ? ZERO : toNonNegative(value, field);
}

export function sum(values: readonly Decimal[]): Decimal {
  let total = ZERO;
  for (const v of values) total = total.plus(v);
  return total;
}
