import { z } from 'zod';

/** Query-string boolean: 'true'/'false' (also 'Y'/'N', '1'/'0'). */
export const zQueryBool = z
  .enum(['true', 'false', 'Y', 'N', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === 'Y' || v === '1');

export const zYN = z.enum(['Y', 'N'], { error: 'must be Y or N' });

export const zTimestamp = z.string();
export const zNullableTimestamp = z.string().nullable();

/** Trimmed non-empty text of at most `max` characters. */
export function zText(max: number) {
  return z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);
}

/** Optional text that may be cleared with null or ''. */
export function zOptionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v === '' ? null : v));
}

/** An upper-case key: letters, digits and underscores. */
export function zCodeKey(max: number) {
  return z
    .string()
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters, digits, _ . -');
}
