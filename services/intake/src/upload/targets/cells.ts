import { z } from 'zod';
import { parseIsoDate } from '@csp/domain';
import { looksMasked, MASKED_VALUE_MESSAGE } from '@csp/service-kit';

/**
 * zod types for one imported row: the column values arrive as text (numbers as exact plain text,
 * dates as 'YYYY-MM-DD'), booleans as booleans, blanks as null. Money never becomes a JS number.
 *
 * Each cell is one zod transform that does its checks by hand: an import runs these 700,000 times
 * per column, and chains of preprocess/pipe/refine cost several times more than one function.
 */

/** A cell's schema: required (blank -> 'is required') or optional (blank -> undefined). */
export type Cell<O, R extends boolean> = z.ZodType<R extends true ? O : O | undefined>;

type Check<O> = (text: string) => { ok: true; value: O } | { ok: false; message: string };

function isBlank(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

function cell<O, R extends boolean>(required: R, check: Check<O>): Cell<O, R> {
  const schema = z.unknown().transform((v, ctx) => {
    if (isBlank(v)) {
      if (required) ctx.addIssue({ code: 'custom', message: 'is required' });
      return undefined;
    }
    const result = check(typeof v === 'string' ? v.trim() : String(v));
    if (!result.ok) {
      ctx.addIssue({ code: 'custom', message: result.message });
      return z.NEVER;
    }
    return result.value;
  });
  // optional: a field the template does not map is simply absent
  return (required ? schema : schema.optional()) as Cell<O, R>;
}

type Pattern = { re: RegExp; message: string };

function textCheck(max: number, pattern?: Pattern): Check<string> {
  return (t) => {
    if (t.length > max) return { ok: false, message: `must be at most ${max} characters` };
    if (pattern && !pattern.re.test(t)) return { ok: false, message: pattern.message };
    return { ok: true, value: t };
  };
}

export function text<R extends boolean = false>(max: number, required: R = false as R, pattern?: Pattern) {
  return cell<string, R>(required, textCheck(max, pattern));
}

/**
 * An encrypted or masked column (DECISIONS "write-only"): a masked-looking value is a row error, the
 * kit's rule and message for a field table's save body.
 */
export function writeOnlyText<R extends boolean = false>(max: number, required: R = false as R, pattern?: Pattern) {
  const check = textCheck(max, pattern);
  return cell<string, R>(required, (t) => (looksMasked(t) ? { ok: false, message: MASKED_VALUE_MESSAGE } : check(t)));
}

const INT = /^[+-]?\d{1,15}$/;

export function int<R extends boolean = false>(min: number, max: number, required: R = false as R) {
  return cell<number, R>(required, (t) => {
    if (!INT.test(t)) return { ok: false, message: 'must be a whole number' };
    const n = Number(t);
    if (n < min) return { ok: false, message: `must be at least ${min}` };
    if (n > max) return { ok: false, message: `must be at most ${max}` };
    return { ok: true, value: n };
  });
}

export const id = <R extends boolean = false>(required: R = false as R) =>
  int(1, Number.MAX_SAFE_INTEGER, required);

const DECIMAL = /^([+-]?)(\d+|\d{1,3}(?:,\d{3})+)(?:\.(\d+))?$/;

/** A plain decimal with at most `places` decimals and `intDigits` integer digits (numeric(15,2) / (7,4) fits). */
export function decimal<R extends boolean = false>(
  places: number,
  intDigits: number,
  required: R = false as R,
  nonNegative = true,
) {
  return cell<string, R>(required, (t) => {
    const m = DECIMAL.exec(t);
    if (!m) return { ok: false, message: 'must be a number' };
    const whole = m[2]!.replace(/,/g, '').replace(/^0+(?=\d)/, '');
    const frac = m[3] ?? '';
    const zero = /^0*$/.test(whole) && /^0*$/.test(frac);
    if (nonNegative && m[1] === '-' && !zero) return { ok: false, message: 'must not be negative' };
    if (frac.length > places) return { ok: false, message: `must have at most ${places} decimal places` };
    if (whole.length > intDigits) return { ok: false, message: 'is too large' };
    return { ok: true, value: `${m[1] === '-' && !zero ? '-' : ''}${whole}${frac ? `.${frac}` : ''}` };
  });
}

export const money = <R extends boolean = false>(required: R = false as R) => decimal(2, 13, required);
export const rate = <R extends boolean = false>(required: R = false as R) => decimal(4, 3, required);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function date<R extends boolean = false>(required: R = false as R) {
  return cell<string, R>(required, (t) => {
    if (ISO_DATE.test(t)) {
      try {
        parseIsoDate(t);
        return { ok: true, value: t };
      } catch {
        // falls through
      }
    }
    return { ok: false, message: 'must be a date YYYY-MM-DD' };
  });
}

const MONTH = /^\d{4}(0[1-9]|1[0-2])$/;

export function month<R extends boolean = false>(required: R = false as R) {
  return cell<string, R>(required, (t) =>
    MONTH.test(t) ? { ok: true, value: t } : { ok: false, message: 'must be a month YYYYMM' },
  );
}

const TRUE_WORDS = new Set(['Y', 'YES', 'TRUE', '1']);
const FALSE_WORDS = new Set(['N', 'NO', 'FALSE', '0']);

export function bool(defaultValue: boolean) {
  return z
    .unknown()
    .transform((v, ctx) => {
      if (typeof v === 'boolean') return v;
      if (isBlank(v)) return defaultValue;
      const w = String(v).trim().toUpperCase();
      if (TRUE_WORDS.has(w)) return true;
      if (FALSE_WORDS.has(w)) return false;
      ctx.addIssue({ code: 'custom', message: 'must be Y/N or TRUE/FALSE' });
      return z.NEVER;
    })
    .default(defaultValue);
}

function enumCheck<V extends string>(values: readonly V[]): Check<V> {
  const set = new Set<string>(values);
  return (t) => {
    const u = t.toUpperCase();
    return set.has(u)
      ? { ok: true, value: u as V }
      : { ok: false, message: `must be one of ${values.join(', ')}` };
  };
}

/** One of the values (upper-cased); blank = `fallback`, or required when there is none. */
export function oneOf<const V extends readonly [string, ...string[]]>(
  values: V,
  fallback?: V[number],
): Cell<V[number], true> {
  const check = enumCheck<V[number]>(values);
  if (fallback === undefined) return cell<V[number], true>(true, check);
  return z
    .unknown()
    .transform((v, ctx) => {
      if (isBlank(v)) return fallback;
      const result = check(String(v).trim());
      if (!result.ok) {
        ctx.addIssue({ code: 'custom', message: result.message });
        return z.NEVER;
      }
      return result.value;
    })
    .default(fallback as never) as Cell<V[number], true>;
}

export function optionalOneOf<const V extends readonly [string, ...string[]]>(values: V) {
  return cell<V[number], false>(false, enumCheck<V[number]>(values));
}
