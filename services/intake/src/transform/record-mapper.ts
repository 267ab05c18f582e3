import { RECEIVE_DATA_TYPES, type ParseErrorType } from '@csp/db';
import { transformValue, type TransformContext } from './rules.js';
import { checkTargetValue, isTargetField, type TargetFieldName } from './target-fields.js';

/**
 * Turns one raw carrier record into ledger values (pure; no I/O). The contract match and the
 * commission year of a MAINTAIN record need the database and happen in resolve-ledger-row.ts.
 */
/** The nine error types of spec 1.3, as parse_error_log stores them. */
export type { ParseErrorType };

export type DataType = (typeof RECEIVE_DATA_TYPES)[number];
export type LedgerTable = 'recruit_ledger' | 'maintain_ledger';

export const LEDGER_OF: Readonly<Record<DataType, LedgerTable>> = {
  RECRUIT: 'recruit_ledger',
  MAINTAIN: 'maintain_ledger',
};

export interface ParseError {
  errorType: ParseErrorType;
  errorField: string | null;
  errorValue: string | null;
  message: string;
}

/** The applicable mapping rows of one target table (newest valid version per target field, active). */
export interface FieldMapping {
  sourceField: string;
  targetField: string;
  transformRule: string | null;
  defaultValue: string | null;
  isRequired: boolean;
  sortOrder: number;
}

export interface MappedRecord {
  dataType: DataType;
  table: LedgerTable;
  policyNo: string;
  /** numeric strings with 2 places, or null when not mapped / blank */
  reportedPremium: string | null;
  reportedCompanyAmount: string | null;
  commissionYear: number | null;
  productCode: string | null;
  insuranceType: string | null;
  payMethod: string | null;
}

export type MapOutcome =
  | { ok: true; record: MappedRecord; reportedAmount: string | null }
  | { ok: false; error: ParseError; reportedAmount: string | null };

export interface RawRecordInput {
  dataType: string;
  rawContent: string;
  settleMonth: string;
}

const MAX_ERROR_VALUE = 1000;

export function truncate(value: string, max = MAX_ERROR_VALUE): string {
  return value.length > max ? `${value.slice(0, max - 3)}...` : value;
}

function isDataType(value: string): value is DataType {
  return (RECEIVE_DATA_TYPES as readonly string[]).includes(value);
}

function error(
  errorType: ParseErrorType,
  message: string,
  errorField: string | null = null,
  errorValue: string | null = null,
): ParseError {
  return { errorType, errorField, errorValue: errorValue === null ? null : truncate(errorValue), message };
}

type Scalar = { kind: 'blank' } | { kind: 'value'; text: string } | { kind: 'structured' };

/** JSON numbers become their shortest decimal text: exact for numeric(15,2) values (<= 15 digits). */
function scalarOf(value: unknown): Scalar {
  if (value === undefined || value === null) return { kind: 'blank' };
  if (typeof value === 'string')
    return value.trim() === '' ? { kind: 'blank' } : { kind: 'value', text: value };
  if (typeof value === 'number' || typeof value === 'boolean') return { kind: 'value', text: String(value) };
  return { kind: 'structured' };
}

function byProcessingOrder(a: FieldMapping, b: FieldMapping): number {
  return (
    a.sortOrder - b.sortOrder || (a.targetField < b.targetField ? -1 : a.targetField > b.targetField ? 1 : 0)
  );
}

/** Mappings in processing order, sorted once per mapping list (a chunk maps thousands of records with one list). */
const sortedLists = new WeakMap<readonly FieldMapping[], readonly FieldMapping[]>();
function inProcessingOrder(mappings: readonly FieldMapping[]): readonly FieldMapping[] {
  let sorted = sortedLists.get(mappings);
  if (!sorted) sortedLists.set(mappings, (sorted = [...mappings].sort(byProcessingOrder)));
  return sorted;
}

/**
 * Checks, in this order: data type (UNKNOWN_TYPE), mappings (NO_MAPPING), JSON (JSON_PARSE), object
 * shape (INVALID_INPUT), then every mapped field in sort_order (REQUIRED, TRANSFORM_FAIL,
 * CODE_MAP_FAIL, INVALID_INPUT); the first failing field decides the error, but all fields are
 * evaluated so that a parseable company amount is still reported for reconcile. Last: NO_POLICY.
 */
export function mapRecord(
  input: RawRecordInput,
  mappingsOf: (table: LedgerTable) => readonly FieldMapping[],
  ctx: TransformContext,
): MapOutcome {
  if (!isDataType(input.dataType)) {
    return {
      ok: false,
      reportedAmount: null,
      error: error(
        'UNKNOWN_TYPE',
        `data type '${input.dataType}' is not RECRUIT or MAINTAIN`,
        'data_type',
        input.dataType,
      ),
    };
  }
  const table = LEDGER_OF[input.dataType];
  const mappings = mappingsOf(table);
  if (mappings.length === 0) {
    return {
      ok: false,
      reportedAmount: null,
      error: error('NO_MAPPING', `no active field mapping of the company for ${table}`, null, null),
    };
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(input.rawContent);
  } catch (err) {
    return {
      ok: false,
      reportedAmount: null,
      error: error(
        'JSON_PARSE',
        `raw content is not valid JSON: ${(err as Error).message}`,
        null,
        input.rawContent,
      ),
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return {
      ok: false,
      reportedAmount: null,
      error: error('INVALID_INPUT', 'raw content must be a JSON object', null, truncate(input.rawContent)),
    };
  }
  const source = parsed as Record<string, unknown>;

  const values = new Map<TargetFieldName, string>();
  let firstError: ParseError | undefined;
  for (const mapping of inProcessingOrder(mappings)) {
    const outcome = mapField(mapping, source, input.settleMonth, ctx);
    if (!outcome.ok) {
      firstError ??= outcome.error;
      continue;
    }
    if (outcome.value !== null && isTargetField(mapping.targetField))
      values.set(mapping.targetField, outcome.value);
  }
  const reportedAmount = values.get('company_amount') ?? null;
  if (firstError) return { ok: false, error: firstError, reportedAmount };

  const policyNo = values.get('policy_no') ?? '';
  if (policyNo.trim() === '') {
    return {
      ok: false,
      reportedAmount,
      error: error('NO_POLICY', 'policy number is empty', 'policy_no', policyNo),
    };
  }
  const commissionYear = values.get('commission_year');
  return {
    ok: true,
    reportedAmount,
    record: {
      dataType: input.dataType,
      table,
      policyNo,
      reportedPremium: values.get('premium') ?? null,
      reportedCompanyAmount: reportedAmount,
      commissionYear: commissionYear === undefined ? null : Number(commissionYear),
      productCode: values.get('product_code') ?? null,
      insuranceType: values.get('insurance_type') ?? null,
      payMethod: values.get('pay_method') ?? null,
    },
  };
}

type FieldOutcome = { ok: true; value: string | null } | { ok: false; error: ParseError };

function mapField(
  mapping: FieldMapping,
  source: Record<string, unknown>,
  settleMonth: string,
  ctx: TransformContext,
): FieldOutcome {
  const field = mapping.targetField;
  const raw = Object.hasOwn(source, mapping.sourceField) ? source[mapping.sourceField] : undefined;
  const scalar = scalarOf(raw);
  if (scalar.kind === 'structured') {
    return {
      ok: false,
      error: error(
        'INVALID_INPUT',
        `${mapping.sourceField} must be a single value`,
        field,
        JSON.stringify(raw),
      ),
    };
  }
  let value: string;
  if (scalar.kind === 'blank') {
    if (mapping.defaultValue !== null) {
      // The default is the target value itself: transform rules are not applied to it.
      value = mapping.defaultValue;
    } else if (mapping.isRequired) {
      return {
        ok: false,
        error: error(
          'REQUIRED',
          `${mapping.sourceField} is required for ${field}`,
          field,
          raw === undefined ? null : String(raw),
        ),
      };
    } else {
      return { ok: true, value: null };
    }
  } else {
    const transformed = transformValue(scalar.text, mapping.transformRule, ctx);
    if (!transformed.ok) {
      return { ok: false, error: error(transformed.errorType, transformed.message, field, scalar.text) };
    }
    value = transformed.value;
  }
  if (!isTargetField(field)) return { ok: true, value };
  const checked = checkTargetValue(field, value, settleMonth);
  if (!checked.ok) return { ok: false, error: error('INVALID_INPUT', checked.message, field, value) };
  return { ok: true, value: checked.value };
}
