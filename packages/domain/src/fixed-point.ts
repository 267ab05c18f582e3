import type { Decimal } from 'decimal.js';
import { D } from './decimal.js';

/**
 * Exact fixed-point fast path for the hot rules. numeric(15,2) money and numeric(7,4) rates are
 * integers once scaled by 10^2 and 10^4, and BigInt integer arithmetic is exact, so
 * pct(amount, rate) = roundHalfUpDiv(cents x rate10k, 10^6) cents, several times cheaper than the
 * decimal.js multiply + toDecimalPlaces pair. A value with more places than the scale (or not plain
 * decimal notation) yields null and the caller takes the decimal.js path; tests prove both agree.
 * No JS floating-point number ever holds a value: decimal.js digit words are integers < 10^7.
 */
const POW10: readonly bigint[] = Array.from({ length: 64 }, (_, i) => 10n ** BigInt(i));
const WORD = 10_000_000n;
const PLAIN = /^(\d{1,30})(?:\.(\d{1,30}))?$/;

export function pow10(n: number): bigint {
  return POW10[n] as bigint;
}

function digitsOf(word: number): number {
  let n = 1;
  while (word >= 10) {
    word /= 10;
    n++;
  }
  return n;
}

/** A non-negative Decimal as value x 10^scale, or null when that is not an integer. */
function scaledOfDecimal(x: Decimal, scale: number): bigint | null {
  const words = x.d;
  if (!words || x.s < 0) return null;
  let coefficient = BigInt(words[0] as number);
  for (let i = 1; i < words.length; i++) coefficient = coefficient * WORD + BigInt(words[i] as number);
  // Exponent of the last digit: words after the first always hold 7 digits.
  const shift = x.e - digitsOf(words[0] as number) + 1 - 7 * (words.length - 1) + scale;
  if (shift >= 0) return shift < POW10.length ? coefficient * pow10(shift) : null;
  if (-shift >= POW10.length) return null;
  const divisor = pow10(-shift);
  return coefficient % divisor === 0n ? coefficient / divisor : null;
}

/** A plain non-negative decimal string ('1234.5', '0.00') as value x 10^scale, or null. */
function scaledOfString(s: string, scale: number): bigint | null {
  const m = PLAIN.exec(s);
  if (!m) return null;
  let frac = m[2] ?? '';
  if (frac.length > scale) {
    if (/[^0]/.test(frac.slice(scale))) return null;
    frac = frac.slice(0, scale);
  }
  return BigInt(m[1] + frac.padEnd(scale, '0'));
}

/** value x 10^scale for non-negative values exact at that scale; null sends the caller to decimal.js. */
export function scaledOf(value: Decimal | string, scale: number): bigint | null {
  return typeof value === 'string' ? scaledOfString(value, scale) : scaledOfDecimal(value, scale);
}

/** n / d rounded half away from zero (d > 0). */
export function roundHalfUpDiv(n: bigint, d: bigint): bigint {
  if (n < 0n) return -roundHalfUpDiv(-n, d);
  const q = n / d;
  return (n - q * d) * 2n >= d ? q + 1n : q;
}

/** The Decimal (of D) worth v x 10^-scale. */
export function decOfScaled(v: bigint, scale: number): Decimal {
  if (scale === 0) return new D(v.toString());
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(scale + 1, '0');
  const cut = digits.length - scale;
  return new D(`${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`);
}
