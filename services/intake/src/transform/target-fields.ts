import { isNegative, round2 } from '@csp/domain';
import { parsePlainNumber } from './numbers.js';

/**
 * Ledger fields a carrier record can be mapped to (company_field_mapping.target_field), with the
 * check each value must pass after its transform rules. A failed check is INVALID_INPUT.
 * Mapped values of other target fields are transformed and checked for REQUIRED but not written.
 */
export type TargetFieldName =
  | 'policy_no'
  | 'premium'
  | 'company_amount'
  | 'commission_year'
  | 'product_code'
  | 'insurance_type'
  | 'pay_method'
  | 'settle_month';

type FieldKind =
  | { kind: 'text'; maxLength: number }
  | { kind: 'money' }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'settleMonth' };

export const TARGET_FIELDS: Readonly<Record<TargetFieldName, FieldKind>> = {
  policy_no: { kind: 'text', maxLength: 50 },
  premium: { kind: 'money' },
  company_amount: { kind: 'money' },
  commission_year: { kind: 'integer', min: 1, max: 99 },
  product_code: { kind: 'text', maxLength: 30 },
  insurance_type: { kind: 'text', maxLength: 30 },
  pay_method: { kind: 'text', maxLength: 12 },
  settle_month: { kind: 'settleMonth' },
};

export function isTargetField(name: string): name is TargetFieldName {
  return Object.hasOwn(TARGET_FIELDS, name);
}

/** numeric(15,2) holds |x| < 10^13. */
const MONEY_LIMIT = parsePlainNumber('10000000000000')!;

/** Unsigned, at most 13 integer digits and 2 decimals: exact already, only written with 2 places. */
const PLAIN_MONEY = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/** The common carrier amount ("1200", "35.5", " 0012.30 ") as numeric(15,2) text without a Decimal. */
function plainMoney(value: string): string | undefined {
  const match = PLAIN_MONEY.exec(value.trim());
  if (!match) return undefined;
  const int = match[1]!.replace(/^0+(?=\d)/, '');
  return `${int}.${(match[2] ?? '').padEnd(2, '0')}`;
}

export type FieldCheck = { ok: true; value: string } | { ok: false; message: string };

/**
 * Validates and normalises a transformed value: money is rounded HALF_UP to 2 places through the
 * domain and must be >= 0 and fit numeric(15,2); integers are plain digits; texts fit their column.
 */
export function checkTargetValue(field: TargetFieldName, value: string, settleMonth: string): FieldCheck {
  const spec = TARGET_FIELDS[field];
  switch (spec.kind) {
    case 'text':
      return value.length > spec.maxLength
        ? { ok: false, message: `${field} is longer than ${spec.maxLength} characters` }
        : { ok: true, value };
    case 'money': {
      const plain = plainMoney(value);
      if (plain !== undefined) return { ok: true, value: plain };
      const n = parsePlainNumber(value);
      if (n === undefined) return { ok: false, message: `${field} is not a number: '${value}'` };
      const rounded = round2(n);
      if (isNegative(rounded)) return { ok: false, message: `${field} must not be negative: '${value}'` };
      if (rounded.greaterThanOrEqualTo(MONEY_LIMIT))
        return { ok: false, message: `${field} is too large: '${value}'` };
      return { ok: true, value: rounded.toFixed(2) };
    }
    case 'integer': {
      const text = value.trim();
      if (!/^\d{1,9}$/.test(text))
        return { ok: false, message: `${field} is not a whole number: '${value}'` };
      const n = Number(text);
      if (n < spec.min || n > spec.max) {
        return { ok: false, message: `${field} must be between ${spec.min} and ${spec.max}: '${value}'` };
      }
      return { ok: true, value: String(n) };
    }
    case 'settleMonth': {
      const text = value.trim();
      if (text !== settleMonth) {
        return {
          ok: false,
          message: `settle month '${value}' does not match the raw row's month ${settleMonth}`,
        };
      }
      return { ok: true, value: text };
    }
  }
}
