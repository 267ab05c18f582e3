/**
 * Decimal strings without JavaScript numbers: money and rates are validated and rounded as text
 * (BigInt for the half-up step), so no value ever passes through a float.
 */
const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

export function isDecimalString(value: string): boolean {
  return DECIMAL.test(value);
}

/** Rounds half away from zero to `places` decimals and always prints exactly `places` decimals. */
export function toFixedDecimal(value: string | number | bigint, places: number): string {
  // pg returns numeric(p, 2) money as canonical text with exactly 2 places: nothing to round.
  if (typeof value === 'string' && places > 0 && isCanonicalFixed(value, places)) return value;
  const text = typeof value === 'string' ? value.trim() : numberToPlainString(value);
  const match = DECIMAL.exec(text);
  if (!match) throw new TypeError(`Not a decimal value: ${String(value)}`);
  const [, sign, intPart = '0', fracPart = ''] = match;
  const padded = (fracPart + '0'.repeat(places + 1)).slice(0, places + 1);
  let scaled = BigInt(intPart + padded.slice(0, places));
  if (Number(padded[places]) >= 5) scaled += 1n;
  let digits = scaled.toString().padStart(places + 1, '0');
  const negative = sign === '-' && scaled !== 0n;
  if (places > 0) digits = `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return negative ? `-${digits}` : digits;
}

/** A JS number in plain notation (no exponent); numbers are only accepted from JSON input. */
export function numberToPlainString(value: number | bigint): string {
  if (typeof value === 'bigint') return value.toString();
  if (!Number.isFinite(value)) throw new TypeError(`Not a finite number: ${value}`);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/** Decimal places actually written (trailing zeros count: "1.50" has 2). */
export function decimalPlaces(value: string): number {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/** "-12.30" for 2 places: optional minus, no leading zero, exactly `places` decimals, not a negative zero. */
function isCanonicalFixed(text: string, places: number): boolean {
  const dot = text.length - places - 1;
  if (dot < 1 || text.charCodeAt(dot) !== 46) return false;
  const start = text.charCodeAt(0) === 45 ? 1 : 0;
  if (dot === start || (text.charCodeAt(start) === 48 && dot > start + 1)) return false;
  let nonZero = false;
  for (let i = start; i < text.length; i++) {
    if (i === dot) continue;
    const ch = text.charCodeAt(i);
    if (ch < 48 || ch > 57) return false;
    if (ch !== 48) nonZero = true;
  }
  return start === 0 || nonZero;
}
