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
const PLAIN = /^\d{1,30}(?:\.\d{1,30})?$/;
const ZEROS: readonly string[] = Array.from({ length: 32 }, (_, i) => '0'.repeat(i));

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

/** Plain non-negative decimal notation ('1234.5', '0.00'): always a valid, non-negative decimal.js value. */
export function isPlainDecimal(s: string): boolean {
  return PLAIN.test(s);
}

/** A plain non-negative decimal string ('1234.5', '0.00') as value x 10^scale, or null. */
function scaledOfString(s: string, scale: number): bigint | null {
  if (!PLAIN.test(s)) return null;
  const dot = s.indexOf('.');
  if (dot < 0) return BigInt(s + ZEROS[scale]);
  const places = s.length - dot - 1;
  if (places <= scale) return BigInt(s.slice(0, dot) + s.slice(dot + 1) + ZEROS[scale - places]);
  // More places than the scale: exact only when the extra ones are zeros ('12.300' at scale 2).
  for (let i = dot + 1 + scale; i < s.length; i++) if (s.charCodeAt(i) !== 48) return null;
  return BigInt(s.slice(0, dot) + s.slice(dot + 1, dot + 1 + scale));
}

/** value x 10^scale for non-negative values exact at that scale; null sends the caller to decimal.js. */
export function scaledOf(value: Decimal | string, scale: number): bigint | null {
  return typeof value === 'string' ? scaledOfString(value, scale) : scaledOfDecimal(value, scale);
}

/** n / d rounded half away from zero (d > 0): floor((|n| + floor(d / 2)) / d) with n's sign. */
export function roundHalfUpDiv(n: bigint, d: bigint): bigint {
  return n < 0n ? -((-n + d / 2n) / d) : (n + d / 2n) / d;
}

/**
 * Template for building results without a string parse (decimal.js parsing dominated the fast path).
 * It uses decimal.js's documented value format: sign s, base-10 exponent e of the first digit, and
 * digits d in base-10^7 words aligned so the decimal point falls between words; `new D(template)`
 * copies it into a genuine instance. Single-threaded and filled right before each copy.
 */
const template = Object.create(D.prototype as object) as { s: number; e: number; d: number[] };
const WORD_DIGITS = 7;

/** The Decimal (of D) worth v x 10^-scale, for 0 <= scale <= 7. */
export function decOfScaled(v: bigint, scale: number): Decimal {
  const negative = v < 0n;
  const divisor = pow10(scale);
  let int = (negative ? -v : v) / divisor;
  const frac = Number((negative ? -v : v) - int * divisor) * 10 ** (WORD_DIGITS - scale);
  const words: number[] = [];
  while (int > 0n) {
    words.unshift(Number(int % WORD));
    int /= WORD;
  }
  let e: number;
  if (words.length > 0) {
    e = (words.length - 1) * WORD_DIGITS + digitsOf(words[0] as number) - 1;
    if (frac !== 0) words.push(frac);
    else while (words[words.length - 1] === 0) words.pop();
  } else if (frac !== 0) {
    // 0.xx: the first word is the seven digits after the point; leading zeros lower the exponent.
    e = digitsOf(frac) - WORD_DIGITS - 1;
    words.push(frac);
  } else {
    e = 0;
    words.push(0);
  }
  template.s = negative && (words.length > 1 || words[0] !== 0) ? -1 : 1;
  template.e = e;
  template.d = words;
  return new D(template as unknown as Decimal);
}
