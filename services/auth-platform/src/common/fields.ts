import type { z } from 'zod';
import { f } from '@csp/service-kit';

/** '' clears an optional text like null does (forms send empty inputs). */
export const blankToNull = (schema: z.ZodType) => schema.transform((v) => (v === '' ? null : v));

/** Optional text of at most `max` characters in the save body; '' is saved as null. */
export const optionalText = (max: number) => f.text({ max }).save().refine(blankToNull);

/** A key that travels in paths (code group, code, data domain): letters, digits, _ . - */
export const codeKey = (max: number) =>
  f.code({ max, pattern: /^[A-Za-z0-9_.-]+$/, patternMessage: 'may contain only letters, digits, _ . -' });
