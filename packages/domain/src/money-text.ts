import type { DecimalInput } from './decimal.js';
import { scaledOf } from './fixed-point.js';

/**
 * Money on the wire without decimal.js: cents (value x 100, a BigInt) to and from the exact strings
 * formatMoney produces. Tests prove every function here equal to the decimal.js formatting.
 */
const ZERO_CODE = 48;
const DOT_CODE = 46;
const DASH_CODE = 45;

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= ZERO_CODE && c <= ZERO_CODE + 9;
}

/** formatMoney of cents / 100: '-12.05', '0.00', never '-0.00' (0n has no sign). */
export function formatCents(cents: bigint): string {
  const negative = cents < 0n;
  const s = (negative ? -cents : cents).toString();
  const body = s.length > 2 ? `${s.slice(0, -2)}.${s.slice(-2)}` : s.length === 2 ? `0.${s}` : `0.0${s}`;
  return negative ? `-${body}` : body;
}

/**
 * True when s already is formatMoney's output for its own value: an optional '-', an integer part
 * without leading zeros, exactly two places, and not '-0.00'. Such strings format to themselves.
 */
export function isCanonicalMoney(s: string): boolean {
  const start = s.charCodeAt(0) === DASH_CODE ? 1 : 0;
  const dot = s.length - 3;
  if (dot <= start || s.charCodeAt(dot) !== DOT_CODE || !isDigitAt(s, dot + 1) || !isDigitAt(s, dot + 2)) return false;
  if (dot - start > 1 && s.charCodeAt(start) === ZERO_CODE) return false;
  for (let i = start; i < dot; i++) if (!isDigitAt(s, i)) return false;
  return start === 0 || s !== '-0.00';
}

/**
 * A plain decimal string (optionally with a leading '-') exact at two places as cents, or null when
 * it has non-zero digits beyond the cents or is not plain notation: the caller then takes the
 * decimal.js path (and its errors). Decimals always take that path (see formatMoney).
 */
export function centsOf(value: DecimalInput): bigint | null {
  if (typeof value !== 'string') return null;
  if (value.charCodeAt(0) !== DASH_CODE) return scaledOf(value, 2);
  const cents = scaledOf(value.slice(1), 2);
  return cents === null ? null : -cents;
}
