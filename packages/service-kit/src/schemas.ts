import { z } from 'zod';
import { decimalPlaces, isDecimalString, numberToPlainString, toFixedDecimal } from './decimal-string.js';

const SORT_ORDERS = ['ASC', 'DESC'] as const;

function isCalendarDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A calendar date `YYYY-MM-DD`. */
export const zDate = z.string().refine((v) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}, 'must be a date YYYY-MM-DD');


/** Common search parameters of spec 4.1 (query strings; numbers are coerced). */
export const pageQuery = z.object({
  pageNum: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(20),
  searchType: z.string().max(50).optional(),
  searchKeyword: z.string().max(200).optional(),
  startDate: zDate.optional(),
  endDate: zDate.optional(),
  status: z.string().max(30).optional(),
  sortField: z.string().optional(),
  sortOrder: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(SORT_ORDERS, { error: 'must be ASC or DESC' }))
    .optional(),
});

export type PageQuery = z.output<typeof pageQuery>;

/**
 * `pageQuery` + resource filters, with `sortField` limited to the resource's documented fields
 * (anything else is E411 and never reaches SQL).
 */
export function listQuery<const F extends readonly string[], S extends z.ZodRawShape = Record<never, never>>(
  sortFields: F,
  extraShape?: S,
) {
  const fields = [...sortFields] as string[];
  const sortField =
    fields.length > 0
      ? z.enum(fields as [F[number], ...F[number][]], { error: `must be one of: ${fields.join(', ')}` }).optional()
      : z.never({ error: 'sorting is not supported here' }).optional();
  return pageQuery.extend({ sortField, ...(extraShape ?? ({} as S)) });
}

const MONEY_MAX_INTEGER_DIGITS = 13; // numeric(15,2)
const RATE_MAX_INTEGER_DIGITS = 3; // numeric(7,4)

function decimalSchema(places: number, integerDigits: number, label: string, normalize: (v: string) => string) {
  return z
    .union([z.string(), z.number()])
    .transform((input, ctx) => {
      let text: string;
      try {
        text = typeof input === 'number' ? numberToPlainString(input) : input.trim();
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be a ${label}` });
        return z.NEVER;
      }
      if (!isDecimalString(text)) {
        ctx.addIssue({ code: 'custom', message: `must be a ${label}` });
        return z.NEVER;
      }
      if (decimalPlaces(text) > places) {
        ctx.addIssue({ code: 'custom', message: `must have at most ${places} decimal places` });
        return z.NEVER;
      }
      const integer = text.replace(/^[+-]/, '').split('.')[0]!.replace(/^0+(?=\d)/, '');
      if (integer.length > integerDigits) {
        ctx.addIssue({ code: 'custom', message: `must have at most ${integerDigits} integer digits` });
        return z.NEVER;
      }
      return normalize(text);
    });
}

/** Money input: number or string, at most 2 decimals; normalized to a string with 2 places. */
export const zMoney = decimalSchema(2, MONEY_MAX_INTEGER_DIGITS, 'money amount', (v) => toFixedDecimal(v, 2));

/** Rate in percent: number or string, at most 4 decimals; normalized to a plain decimal string. */
export const zRate = decimalSchema(4, RATE_MAX_INTEGER_DIGITS, 'rate', (v) =>
  toFixedDecimal(v, 4).replace(/\.?0+$/, '').replace(/^-0$/, '0'),
);

/** Settlement month `YYYYMM`. */
export const zSettleMonth = z.string().regex(/^\d{4}(0[1-9]|1[0-2])$/, 'must be a month YYYYMM');

/** Quarter `YYYY-Qn`. */
export const zQuarter = z.string().regex(/^\d{4}-Q[1-4]$/, 'must be a quarter YYYY-Qn');

/** Positive integer id; coerced so it works for path params and query strings. */
export const zId = z.coerce.number({ error: 'must be a positive integer id' }).int().positive().max(Number.MAX_SAFE_INTEGER);

// ---- output helpers -------------------------------------------------------------------------

/** Money for responses: a string with exactly 2 places (HALF_UP when more places come in). */
export function money(value: string | number | bigint): string;
export function money(value: string | number | bigint | null | undefined): string | null;
export function money(value: string | number | bigint | null | undefined): string | null {
  return value === null || value === undefined ? null : toFixedDecimal(value, 2);
}

/** Rate for responses: a string with at most 4 places, trailing zeros removed ("3.3"). */
export function rate(value: string | number | bigint): string;
export function rate(value: string | number | bigint | null | undefined): string | null;
export function rate(value: string | number | bigint | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const fixed = toFixedDecimal(value, 4);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** `YYYY-MM-DD`; DATE columns already arrive as such strings, a Date uses its local calendar day. */
export function isoDate(value: Date | string): string;
export function isoDate(value: Date | string | null | undefined): string | null;
export function isoDate(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.length > 10 ? isoDate(new Date(value)) : value;
  return `${pad(value.getFullYear(), 4)}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/** ISO-8601 timestamp with offset (UTC, `Z`). */
export function isoTimestamp(value: Date | string): string;
export function isoTimestamp(value: Date | string | null | undefined): string | null;
export function isoTimestamp(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? new Date(value) : value).toISOString();
}
