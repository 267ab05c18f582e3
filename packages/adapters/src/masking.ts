/**
 * Masking of adapter call summaries (spec 6): account and phone numbers keep their last 4 digits, names
 * their first character. Separators stay so the shape is recognisable: '010-1234-5678' -> '***-****-5678'.
 */
export function maskKeepLast4Digits(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const digits = value.replace(/\D/g, '').length;
  let seen = 0;
  return value.replace(/\d/g, (d) => (++seen > digits - 4 ? d : '*'));
}

export function maskNameFirstChar(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const chars = Array.from(value.trim());
  if (chars.length === 0) return '';
  return chars[0] + '*'.repeat(chars.length - 1);
}

/** One-line JSON of an already-masked summary. */
export function summary(values: Record<string, unknown>): string {
  return JSON.stringify(values);
}
