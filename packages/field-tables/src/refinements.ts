import type { z } from 'zod';

/** `.refine(nonNegative)` of a money or rate field. */
export const nonNegative = <T extends z.ZodType>(schema: T): T =>
  schema.refine((v) => !String(v).startsWith('-'), 'must not be negative');
