import { D, type Dec } from '@csp/domain';

// Plain decimal notation with optional sign and thousands separators ("1,234,567.50"); no exponent,
// no hex, no "Infinity": carrier files only ever carry these, and anything else is a data error.
const PLAIN_NUMBER = /^[+-]?(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?$/;

/** The value as a domain Decimal, or undefined when it is not a plain decimal number. */
export function parsePlainNumber(value: string): Dec | undefined {
  const text = value.trim();
  if (!PLAIN_NUMBER.test(text)) return undefined;
  return new D(text.replace(/,/g, ''));
}

/** Decimal -> plain text without exponent ("123.45", "-0.5", "100"). */
export function plainText(value: Dec): string {
  return value.isZero() ? '0' : value.toFixed();
}
