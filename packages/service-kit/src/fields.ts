import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import { isoDate, isoTimestamp, money, rate, zDate, zId, zMoney, zRate, zSettleMonth } from './schemas.js';
import { zBoolQuery } from './text.js';
import { MASKED_VALUE_MESSAGE, looksMasked } from './write-only.js';
import { VALUE_SETS, type ValueSetName } from '@csp/db';
import { isKorean } from './vocabulary.js';

/**
 * The field table of a resource (kit v2): every field is named once, with its kind, validation
 * and flags; schemas, select list, mapping, filters, export and metadata are derived from it.
 */

export type FieldKind =
  | 'id'
  | 'int'
  | 'ref'
  | 'text'
  | 'code'
  | 'enum'
  | 'money'
  | 'rate'
  | 'date'
  | 'month'
  | 'timestamp'
  | 'bool'
  | 'json'
  | 'phone'
  | 'email'
  | 'version';

/** Kinds a computed or joined field can have. */
export type ValueKind = Exclude<FieldKind, 'id' | 'version'>;

export type MaskKind = 'name' | 'phone' | 'residentNo' | 'accountNo' | 'email';
/** `like`: `?key=text` matches the field containing the text (ILIKE, wildcards escaped). */
export type FilterMode = 'eq' | 'range' | 'in' | 'like';
export type AuditRole = 'createdAt' | 'updatedAt' | 'createdBy' | 'updatedBy';

export interface TextOptions {
  min?: number;
  max?: number;
  pattern?: RegExp;
  patternMessage?: string;
}

export interface NumberOptions {
  min?: number;
  max?: number;
}

/** Where the value comes from: a column of the resource's table, a SQL expression, or a join. */
export type FieldSource =
  | { type: 'column'; column?: string }
  | { type: 'computed'; expr: RawBuilder<unknown> }
  | { type: 'joined'; ref: string }
  | { type: 'codeName'; groupCode: string; field: string };

export interface FieldSpec {
  kind: FieldKind;
  source: FieldSource;
  text?: TextOptions;
  number?: NumberOptions;
  enumValues?: readonly string[];
  jsonSchema?: z.ZodType;
  /** In the save body: optional (nullable) or required. */
  save?: 'optional' | 'required';
  saveDefault?: unknown;
  createOnly?: boolean;
  /** Response nullability (default: nullable unless required, id, version, bool or audit). */
  nullable?: boolean;
  sort?: boolean;
  /** What `sort` orders by when not the field's own value (a column reference or SQL). */
  sortBy?: string | RawBuilder<unknown>;
  search?: boolean;
  /** The searchKeyword condition when not `value ILIKE pattern` (e.g. an index-friendly semi-join). */
  searchBy?: (pattern: string) => RawBuilder<unknown>;
  filter?: FilterMode;
  /** English label (`.label('정산월', 'Settle month')` or a legacy English-only `.label('Settle month')`). */
  label?: string;
  /** Korean label. Both fall back to the kit's vocabulary by key (vocabulary.ts). */
  labelKo?: string;
  /** The common-code group of the value (names, tone): `f.codes(group)` or `.codes(group)`. */
  codeGroup?: string;
  /** The resource a reference points to (`f.ref('Agent')`); null: a number with no target. */
  refTarget?: string | null;
  /** The field of this resource holding the target's name (`.shows('agentName')`). */
  refShows?: string;
  refPicker?: 'search' | 'select' | 'tree';
  description?: string;
  export?: false | { label?: string; width?: number };
  masked?: MaskKind;
  encrypted?: boolean;
  hidden?: boolean;
  /** The primary key when it is not a numeric `f.id()` (a code). */
  primaryKey?: boolean;
  /** In the detail response and the export, not in list items. */
  detailOnly?: boolean;
  refine?: (schema: z.ZodType) => z.ZodType;
  audit?: AuditRole;
}

/** One field of a field table. Every flag returns the field so declarations chain. */
export class Field<T = unknown> {
  declare readonly _value: T;
  constructor(readonly spec: FieldSpec) {}

  private with(patch: Partial<FieldSpec>): this {
    Object.assign(this.spec, patch);
    return this;
  }

  /** The column when it differs from the snake_case of the key. */
  column(name: string): this {
    if (this.spec.source.type !== 'column') throw new Error('column() applies to stored fields only');
    return this.with({ source: { type: 'column', column: name } });
  }
  /** In the save body, optional (absent -> null, or the default). */
  save(options?: { default?: unknown }): this {
    return this.with({ save: 'optional', saveDefault: options?.default });
  }
  /** In the save body and required. */
  required(): this {
    return this.with({ save: 'required' });
  }
  /** In the create body only (not changeable by update). */
  createOnly(): this {
    return this.with({ createOnly: true, save: this.spec.save ?? 'optional' });
  }
  nullable(nullable = true): this {
    return this.with({ nullable });
  }
  /** Sortable; `by` orders by another column or SQL expression (a grade name by its level). */
  sort(by?: string | RawBuilder<unknown>): this {
    return this.with({ sort: true, ...(by === undefined ? {} : { sortBy: by }) });
  }
  /**
   * Searched by searchKeyword (`searchType` = the key). `by` builds the condition from the ILIKE pattern
   * when matching the value itself is slow, e.g. a joined name: `ct.agent_id = ANY(ARRAY(SELECT ...))`.
   */
  search(by?: (pattern: string) => RawBuilder<unknown>): this {
    return this.with({ search: true, ...(by === undefined ? {} : { searchBy: by }) });
  }
  filter(mode: FilterMode = 'eq'): this {
    return this.with({ filter: mode });
  }
  /**
   * `.label('정산월', 'Settle month')`: Korean, then English. One argument: Korean when it has Hangul,
   * else English (the other language comes from the vocabulary).
   */
  label(text: string, en?: string): this {
    if (en !== undefined) return this.with({ labelKo: text, label: en });
    return this.with(isKorean(text) ? { labelKo: text } : { label: text });
  }
  /** The common-code group naming the values (tags in the user's language and tone). */
  codes(groupCode: string): this {
    return this.with({ codeGroup: groupCode });
  }
  /** A reference: the field of this resource that holds the target's name (lists show it as a link). */
  shows(field: string): this {
    return this.with({ refShows: field });
  }
  /** A reference: how forms pick it (default from the target: search, select or tree). */
  picker(kind: 'search' | 'select' | 'tree'): this {
    return this.with({ refPicker: kind });
  }
  describe(text: string): this {
    return this.with({ description: text });
  }
  export(options: false | { label?: string; width?: number }): this {
    return this.with({ export: options });
  }
  masked(kind: MaskKind): this {
    return this.with({ masked: kind });
  }
  encrypted(): this {
    return this.with({ encrypted: true });
  }
  /**
   * The table's primary key when it is a code rather than an `f.id()`: item routes take it as the path
   * parameter (`GET/PUT/DELETE path/:idParam`), create takes it in the body (declare it `.required()`)
   * and it never changes afterwards (create-only).
   */
  key(): this {
    return this.with({ primaryKey: true, nullable: false, sort: true, createOnly: true });
  }
  /** Never in responses or exports (e.g. a hash). */
  hidden(): this {
    return this.with({ hidden: true, export: false });
  }
  /** Only in the detail response (and the export), not in list items (personal data, long text). */
  detailOnly(): this {
    return this.with({ detailOnly: true });
  }
  /** Extra zod on the save schema (refinements, transforms). */
  refine(refine: (schema: z.ZodType) => z.ZodType): this {
    return this.with({ refine });
  }
}

const column = (kind: FieldKind, extra: Partial<FieldSpec> = {}): FieldSpec => ({ kind, source: { type: 'column' }, ...extra });

const CODE_PATTERN = /^[A-Za-z0-9_-]+$/;
const PHONE_PATTERN = /^\d{2,3}-?\d{3,4}-?\d{4}$/;

/** The field builder. */
export const f = {
  id: () => new Field<number>(column('id', { nullable: false, sort: true })),
  int: (options: NumberOptions = {}) => new Field<number>(column('int', { number: options })),
  /** An id of another row; `target` names its resource (default: by key, vocabulary REF_BY_KEY; null: none). */
  ref: (target?: string | null) => new Field<number>(column('ref', target === undefined ? {} : { refTarget: target })),
  text: (options: TextOptions = {}) => new Field<string>(column('text', { text: options })),
  code: (options: TextOptions = {}) =>
    new Field<string>(column('code', { text: { pattern: CODE_PATTERN, patternMessage: 'letters, digits, _ and - only', ...options } })),
  enum: <const V extends readonly [string, ...string[]]>(values: V) => new Field<V[number]>(column('enum', { enumValues: values })),
  /** An enum over a value set that is also a common-code group (`f.codes('LEDGER_STATUS')`). */
  codes: <G extends ValueSetName>(groupCode: G) =>
    new Field<(typeof VALUE_SETS)[G][number]>(column('enum', { enumValues: VALUE_SETS[groupCode], codeGroup: groupCode })),
  money: () => new Field<string>(column('money')),
  rate: () => new Field<string>(column('rate')),
  date: () => new Field<string>(column('date')),
  month: () => new Field<string>(column('month')),
  timestamp: () => new Field<string>(column('timestamp')),
  bool: () => new Field<boolean>(column('bool', { nullable: false })),
  json: (schema?: z.ZodType) => new Field<unknown>(column('json', { jsonSchema: schema })),
  phone: () => new Field<string>(column('phone', { text: { max: 20, pattern: PHONE_PATTERN, patternMessage: 'must be a phone number' } })),
  email: () => new Field<string>(column('email', { text: { max: 200 } })),
  version: () => new Field<number>(column('version', { nullable: false })),
  createdAt: () => new Field<string>(column('timestamp', { audit: 'createdAt', nullable: false })),
  updatedAt: () => new Field<string>(column('timestamp', { audit: 'updatedAt', nullable: false })),
  createdBy: () => new Field<number>(column('int', { audit: 'createdBy', export: false })),
  updatedBy: () => new Field<number>(column('int', { audit: 'updatedBy', export: false })),
  /** Read-only SQL expression (may reference the resource's alias). */
  computed: <K extends ValueKind>(expr: RawBuilder<unknown>, kind: K, jsonSchema?: z.ZodType) =>
    new Field<KindValue<K>>({ kind, source: { type: 'computed', expr }, ...(jsonSchema ? { jsonSchema } : {}) }),
  /** A column of the joins of `baseQuery` ('g.grade_name'). */
  joined: <K extends ValueKind>(ref: string, kind: K) => new Field<KindValue<K>>({ kind, source: { type: 'joined', ref } }),
  /** The common_code name of another field's value (group `groupCode`). */
  codeName: (groupCode: string, field: string) =>
    new Field<string>({ kind: 'text', source: { type: 'codeName', groupCode, field } }),
};

export type KindValue<K extends FieldKind> = K extends 'id' | 'int' | 'ref' | 'version'
  ? number
  : K extends 'bool'
    ? boolean
    : K extends 'json'
      ? unknown
      : string;

export type FieldTable = Record<string, Field<any>>;

export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function isStored(spec: FieldSpec): spec is FieldSpec & { source: { type: 'column'; column?: string } } {
  return spec.source.type === 'column';
}

export function columnOf(key: string, spec: FieldSpec): string {
  return isStored(spec) ? (spec.source.column ?? snakeCase(key)) : snakeCase(key);
}

export function isNullable(spec: FieldSpec): boolean {
  if (spec.nullable !== undefined) return spec.nullable;
  // A field saved with a non-null default is never written as null.
  if (spec.saveDefault !== undefined && spec.saveDefault !== null) return false;
  return spec.save !== 'required';
}

// ---- schemas ---------------------------------------------------------------------------------

/** A masked/encrypted field's text: masked-looking is E411 before (and instead of) its format checks. */
function trimmed(writeOnly = false) {
  const s = z.string().trim();
  return writeOnly ? s.refine((v) => !looksMasked(v), { message: MASKED_VALUE_MESSAGE, abort: true }) : s;
}

function textSchema(options: TextOptions = {}, writeOnly = false): z.ZodType {
  let s = trimmed(writeOnly);
  if (options.min !== undefined) s = s.min(options.min);
  if (options.max !== undefined) s = s.max(options.max);
  if (options.pattern) s = s.regex(options.pattern, options.patternMessage);
  return s;
}

function intSchema(options: NumberOptions = {}): z.ZodType {
  let s = z.number().int();
  if (options.min !== undefined) s = s.min(options.min);
  if (options.max !== undefined) s = s.max(options.max);
  return s;
}

/** The zod type a save body accepts for a field. */
/**
 * The zod type a save body accepts for a field. `patch` (partial updates): every field optional, an
 * absent one keeps its value; only fields that may be null take null.
 */
export function saveSchemaOf(spec: FieldSpec, mode: 'save' | 'patch' = 'save'): z.ZodType {
  let s: z.ZodType;
  switch (spec.kind) {
    case 'id':
    case 'ref':
      s = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
      break;
    case 'int':
    case 'version':
      s = intSchema(spec.number);
      break;
    case 'text':
    case 'code':
    case 'phone':
      s = textSchema({ min: spec.save === 'required' ? 1 : undefined, ...spec.text }, Boolean(spec.masked || spec.encrypted));
      break;
    case 'email':
      s = trimmed(Boolean(spec.masked || spec.encrypted)).max(spec.text?.max ?? 200).pipe(z.email());
      break;
    case 'enum':
      s = z.enum(spec.enumValues as [string, ...string[]]);
      break;
    case 'money':
      s = zMoney;
      break;
    case 'rate':
      s = zRate;
      break;
    case 'date':
      s = zDate;
      break;
    case 'month':
      s = zSettleMonth;
      break;
    case 'timestamp':
      s = z.iso.datetime({ offset: true });
      break;
    case 'bool':
      s = z.boolean();
      break;
    case 'json':
      s = spec.jsonSchema ?? z.unknown();
      break;
  }
  if (spec.refine) s = spec.refine(s);
  if (mode === 'patch') return spec.save === 'required' || spec.saveDefault !== undefined ? s.optional() : s.nullable().optional();
  if (spec.save === 'required') return s;
  if (spec.saveDefault !== undefined) return s.default(spec.saveDefault as never);
  return s.nullable().optional();
}

/** The zod type of a field in responses. */
export function responseSchemaOf(spec: FieldSpec): z.ZodType {
  let s: z.ZodType;
  switch (spec.kind) {
    case 'id':
    case 'int':
    case 'ref':
    case 'version':
      s = z.number().int();
      break;
    case 'bool':
      s = z.boolean();
      break;
    case 'enum':
      s = spec.masked ? z.string() : z.enum(spec.enumValues as [string, ...string[]]);
      break;
    case 'json':
      s = spec.jsonSchema ?? z.unknown();
      break;
    default:
      s = z.string();
  }
  if (spec.description) s = s.describe(spec.description);
  return isNullable(spec) ? s.nullable() : s;
}

/** The zod type of an equality filter value in a query string. */
export function querySchemaOf(spec: FieldSpec): z.ZodType {
  switch (spec.kind) {
    case 'id':
    case 'ref':
      return zId;
    case 'int':
    case 'version':
      // int4 range: a filter value the column cannot hold is E411 before any query (or export) starts.
      return z.coerce.number().int().min(-2147483648).max(2147483647);
    case 'bool':
      return zBoolQuery;
    case 'enum':
      return z.enum(spec.enumValues as [string, ...string[]]);
    case 'money':
      return zMoney;
    case 'rate':
      return zRate;
    case 'date':
      return zDate;
    case 'month':
      return zSettleMonth;
    case 'timestamp':
      return zDate;
    default:
      return z.string().max(200);
  }
}

// ---- values ----------------------------------------------------------------------------------

/** A database value as the response carries it (before masking). */
export function formatValue(spec: FieldSpec, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (spec.kind) {
    case 'id':
    case 'int':
    case 'ref':
    case 'version':
      return Number(value);
    case 'money':
      return money(value as string);
    case 'rate':
      return rate(value as string);
    case 'date':
      return isoDate(value as string);
    case 'timestamp':
      return isoTimestamp(value as string);
    case 'bool':
      return Boolean(value);
    case 'json':
      return value;
    default:
      return String(value);
  }
}

/** A save-body value as the column takes it. */
export function storeValue(spec: FieldSpec, value: unknown): unknown {
  if (value === undefined) return null;
  if (spec.kind === 'json' && value !== null) return JSON.stringify(value);
  return value;
}

/** The SQL expression of a field for select, sort, search and filters. */
export function exprOf(key: string, spec: FieldSpec, alias: string, fields: FieldTable): RawBuilder<unknown> {
  const source = spec.source;
  switch (source.type) {
    case 'column':
      return sql.ref(`${alias}.${columnOf(key, spec)}`);
    case 'computed':
      return source.expr;
    case 'joined':
      return sql.ref(source.ref);
    case 'codeName': {
      const target = fields[source.field];
      if (!target) throw new Error(`codeName: unknown field ${source.field}`);
      const code = exprOf(source.field, target.spec, alias, fields);
      return sql`(select cc.code_name from common_code cc where cc.group_code = ${source.groupCode} and cc.code = ${code}::text)`;
    }
  }
}
