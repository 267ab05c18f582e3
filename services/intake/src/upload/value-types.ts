import type { UploadTargetType } from '@csp/db';
import { roundHalfUp } from '@csp/domain';
import { convertDate } from '../transform/date-format.js';
import { parsePlainNumber, plainText } from '../transform/numbers.js';

export type CellValue = string | boolean | null;
export type Coerced = { ok: true; value: CellValue } | { ok: false; message: string };

const TRUE_WORDS = new Set(['Y', 'YES', 'TRUE', '1', 'T']);
const FALSE_WORDS = new Set(['N', 'NO', 'FALSE', '0', 'F']);

/**
 * A column value in the column's target type: numbers as exact plain text (AMOUNT rounded HALF_UP
 * to 2 places, RATE to 4, INTEGER whole), dates as 'YYYY-MM-DD', booleans from Y/N, TRUE/FALSE, 1/0.
 */
// Fast paths for the shapes spreadsheets almost always hold; anything else takes the exact Decimal path.
const PLAIN_AMOUNT = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/;
const PLAIN_INTEGER = /^-?\d{1,15}$/;
const CANONICAL_DECIMAL = /^-?(?:0|[1-9]\d{0,14})(?:\.\d{0,3}[1-9])?$/;

export function coerce(value: string, type: UploadTargetType): Coerced {
  if (type === 'AMOUNT') {
    const m = PLAIN_AMOUNT.exec(value);
    if (m) {
      const whole = m[2]!.replace(/^0+(?=\d)/, '');
      const frac = (m[3] ?? '').padEnd(2, '0');
      return {
        ok: true,
        value: `${m[1] === '-' && (whole !== '0' || frac !== '00') ? '-' : ''}${whole}.${frac}`,
      };
    }
  } else if (type === 'INTEGER' && PLAIN_INTEGER.test(value)) {
    const n = value.replace(/^(-?)0+(?=\d)/, '$1');
    return { ok: true, value: n === '-0' ? '0' : n };
  } else if ((type === 'RATE' || type === 'NUMBER') && CANONICAL_DECIMAL.test(value) && value !== '-0') {
    return { ok: true, value };
  }
  switch (type) {
    case 'STRING':
      return { ok: true, value };
    case 'NUMBER':
    case 'AMOUNT':
    case 'RATE':
    case 'INTEGER': {
      const n = parsePlainNumber(value);
      if (n === undefined) return { ok: false, message: `'${value}' is not a number` };
      if (type === 'INTEGER') {
        if (!n.isInteger()) return { ok: false, message: `'${value}' is not a whole number` };
        return { ok: true, value: plainText(n) };
      }
      if (type === 'AMOUNT') return { ok: true, value: roundHalfUp(n, 2).toFixed(2) };
      if (type === 'RATE') return { ok: true, value: plainText(roundHalfUp(n, 4)) };
      return { ok: true, value: plainText(n) };
    }
    case 'DATE': {
      const text = value.trim();
      const iso = /^(\d{4}-\d{2}-\d{2})(?: 00:00:00)?$/.exec(text);
      const compact = /^\d{8}$/.test(text);
      try {
        return {
          ok: true,
          value: convertDate(iso ? iso[1]! : text, iso ? 'yyyy-MM-dd' : compact ? 'yyyyMMdd' : 'yyyy-MM-dd'),
        };
      } catch {
        return {
          ok: false,
          message: `'${value}' is not a date (YYYY-MM-DD or YYYYMMDD; use the DATE rule for other formats)`,
        };
      }
    }
    case 'BOOLEAN': {
      const word = value.trim().toUpperCase();
      if (TRUE_WORDS.has(word)) return { ok: true, value: true };
      if (FALSE_WORDS.has(word)) return { ok: true, value: false };
      return { ok: false, message: `'${value}' is not Y/N, TRUE/FALSE or 1/0` };
    }
  }
}
