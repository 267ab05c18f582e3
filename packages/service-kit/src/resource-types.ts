import type { FastifyRequest } from 'fastify';
import type { Kysely, RawBuilder, SelectQueryBuilder, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Db } from '@csp/db';
import type { FieldCipher } from './crypto.js';
import type { SpreadsheetColumn } from './spreadsheet.js';
import type { AuthUser } from './auth.js';
import type { FieldTable } from './fields.js';
import type { PermCode } from './guard.js';

// The kit names tables at run time (from declarations), so its own queries are untyped; services
// see typed rows through the declaration's response type.
export type AnyQuery = SelectQueryBuilder<any, any, any>;
export type AnyRow = Record<string, any>;
export type AnyDb = Kysely<any>;

/** What `validate`/`beforeWrite` get besides the body. */
export interface ResourceContext {
  user: AuthUser | undefined;
  /** The caller's user id or null (for created_by/updated_by). */
  userId: number | null;
  request: FastifyRequest;
  cipher: FieldCipher;
  /** The transaction of the write (use it for lookups that must see the same snapshot). */
  trx: Transaction<any> | Kysely<any>;
}

export type ResourceDelete = 'hard' | { soft: string; value?: unknown } | false;

/** AGENT row scope: the keys of fields holding an agent id, or a function on the list query. */
export type AgentScope = string | readonly string[] | ((qb: AnyQuery, user: AuthUser | undefined) => AnyQuery);

export interface ResourceFilters<S extends z.ZodRawShape = z.ZodRawShape> {
  shape: S;
  apply(qb: AnyQuery, query: z.output<z.ZodObject<S>>): AnyQuery;
}

/** A resource declared with a field table (kit v2). */
export interface ResourceDeclaration<F extends FieldTable = FieldTable> {
  /** Display name for OpenAPI summaries, messages and file names ("Company"). */
  name: string;
  /** '/api/companies' */
  path: string;
  /** Where the paged list lives when `path` itself serves something else (a tree); default `path`. */
  listPath?: string;
  /** Table written by create/update/delete (and read unless baseQuery says otherwise). */
  table: string;
  /** Alias of the table in queries (default: the table name). */
  alias?: string;
  menu: string;
  tags?: readonly string[];
  /** Path parameter name (default 'id'). */
  idParam?: string;
  fields: F;
  /** Field key used without sortField; prefix '-' for descending. Default: the id, descending. */
  defaultSort?: string;
  /** Field key filtered by startDate/endDate (inclusive days). */
  dateFilter?: string;
  /** Field key filtered by `?status=` (equality). */
  statusField?: string;
  agentScope?: AgentScope;
  /** FROM with joins (alias must be `alias`); the kit adds the field selections. */
  baseQuery?(db: AnyDb): AnyQuery;
  filters?: ResourceFilters;
  /** Business checks before create (existing undefined) and update (existing = the raw row). */
  validate?(body: AnyRow, ctx: ResourceContext, existing?: AnyRow): Promise<void> | void;
  /** Adjust the columns about to be written (computed columns, normalisation). */
  beforeWrite?(values: AnyRow, body: AnyRow, ctx: ResourceContext, existing?: AnyRow): AnyRow | Promise<AnyRow>;
  /** Custom response on top of the derived one. */
  mapResponse?(resp: AnyRow, row: AnyRow): AnyRow;
  create?: false;
  update?: false;
  /** Update bodies take any subset of the save fields; absent ones keep their value (default: all replaced). */
  partialUpdate?: boolean;
  /** false: no `GET path/:id` (a hand-written detail, or a list without one). */
  detail?: false;
  /** Default 'hard'. */
  delete?: ResourceDelete;
  /** Permission of /excel (default 'READ'); false: no /excel route. */
  export?: 'EXPORT' | 'READ' | false;
  /** Unfiltered lists answer with the planner's row estimate (`totalEstimated: true`). */
  bigTable?: boolean;
  /** Extra export columns (on the response object) after the fields'. */
  exportExtra?: Array<SpreadsheetColumn<AnyRow>>;
}

export interface ResourceFieldMeta {
  key: string;
  kind: string;
  /** Korean and English (declared, else the kit vocabulary). */
  label: { ko: string; en: string };
  /** How to show the value: the kind, or `code` (a common code of `codeGroup`) / `ref` (see `ref`). */
  display: string;
  enumValues?: readonly string[];
  codeGroup?: string;
  /** This field only names `twinOf` (a code's name, a reference's joined name). */
  twinOf?: string;
  ref?: { resource: string; valueField: string; labelField: string; displayField?: string; picker: 'search' | 'select' | 'tree' };
  filter?: string;
  sort: boolean;
  search: boolean;
  save: boolean;
  required: boolean;
  createOnly: boolean;
  readOnly: boolean;
  nullable: boolean;
  masked?: string;
  detailOnly?: boolean;
}

export interface ResourceMeta {
  name: string;
  path: string;
  listPath?: string;
  menu: string;
  idParam: string;
  idField: string;
  /** `number` for an `f.id()`, `string` for a code `.key()`. */
  idType: 'number' | 'string';
  service?: string;
  permissions: Record<'list' | 'detail' | 'create' | 'update' | 'delete' | 'export', { menu: string; perm: PermCode } | null>;
  fields: ResourceFieldMeta[];
  defaultSort: string;
  searchTypes: string[];
  dateFilter?: string;
  statusField?: string;
}

/** What `registerResource` needs; built from a declaration by `defineResource`. */
export interface Resource<Resp extends AnyRow = AnyRow> {
  readonly declaration: ResourceDeclaration;
  readonly name: string;
  readonly path: string;
  /** The paged list's path when it is not `path`. */
  readonly listPath?: string;
  readonly table: string;
  readonly menu: string;
  readonly tags: string[];
  readonly idParam: string;
  /** Bare primary-key column for writes; qualified reference for reads. */
  readonly idColumn: string;
  readonly idRef: string;
  /** `number` (an `f.id()`) or `string` (a code `.key()`): the type of the path parameter and of create's `id`. */
  readonly idType: 'number' | 'string';
  /** The path parameter's schema (a positive id, or the key field's text rules). */
  readonly idSchema: z.ZodType;
  readonly versionColumn?: string;
  readonly schemas: {
    save: z.ZodObject;
    update: z.ZodObject;
    response: z.ZodObject;
    listQuery: z.ZodObject;
    exportQuery: z.ZodObject;
    /** A list item when it has fewer fields than the detail (`.detailOnly()` fields). */
    listItem?: z.ZodObject;
  };
  /** The base select with every field selected under its key, soft-deleted rows excluded. */
  select(db: Db): AnyQuery;
  /** FROM with joins (soft-deleted rows excluded) and nothing selected: id pages and counts. */
  selectBase(db: Db): AnyQuery;
  /** Search, dates, status, field filters, extra filters and the AGENT scope. */
  applyFilters(qb: AnyQuery, query: AnyRow, user: AuthUser | undefined): AnyQuery;
  /** Whether the query narrows the rows (exact totals are cheap then). */
  isFiltered(query: AnyRow, user: AuthUser | undefined): boolean;
  /**
   * The settle month a list asks for when that month is its only filter (an equality filter on the
   * `settle_month` column, no other filter, no row scope); undefined otherwise. A big month-partitioned
   * table then totals the month by its partition's row estimate (list-page.ts).
   */
  onlyMonthFilter(query: AnyRow, user: AuthUser | undefined): string | undefined;
  /** ORDER BY of lists and exports: the requested (whitelisted) sort field or the default. */
  orderBy(qb: AnyQuery, query: { sortField?: string; sortOrder?: 'ASC' | 'DESC' }): AnyQuery;
  /** The sort expression, the id (tie-breaker) and the direction of a list query. */
  sortOf(query: { sortField?: string; sortOrder?: 'ASC' | 'DESC' }): { key: RawBuilder<unknown>; id: RawBuilder<unknown>; desc: boolean };
  validate?(body: AnyRow, ctx: ResourceContext, existing?: AnyRow): Promise<void> | void;
  ops: {
    create: boolean;
    update: boolean;
    detail: boolean;
    delete: { mode: 'hard' } | { mode: 'soft'; column: string; value: unknown } | false;
    export: 'EXPORT' | 'READ' | false;
    /** Whether unfiltered lists use the planner's estimate for the total. */
    estimateTotal: boolean;
  };
  toResp(row: AnyRow, cipher: FieldCipher): Resp;
  /** A list item (without the detail-only fields); default `toResp`. */
  toListResp?(row: AnyRow, cipher: FieldCipher): AnyRow;
  toInsert(body: AnyRow, ctx: ResourceContext): Promise<AnyRow>;
  toUpdate(body: AnyRow, ctx: ResourceContext, existing: AnyRow): Promise<AnyRow>;
  exportColumns: Array<SpreadsheetColumn<AnyRow>>;
  /** The export's select: only the exported fields when nothing else can read the row (else `select`). */
  exportSelect(db: Db): AnyQuery;
  /** A selected export row as `exportColumns` read it (else `toResp`). */
  exportRow(row: AnyRow, cipher: FieldCipher): AnyRow;
  /**
   * The narrow export over array rows (pg rowMode 'array', values in `exportSelect`'s order): the same
   * cells as `exportColumns` over `exportRow`, without an object per row. Absent when not narrow.
   */
  exportArray?: {
    columns: Array<SpreadsheetColumn<unknown[]>>;
    /** Decrypts (formats, masks) the encrypted values in place. */
    row(row: unknown[], cipher: FieldCipher): unknown[];
  };
  meta: ResourceMeta;
}
