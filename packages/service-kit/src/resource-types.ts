import type { FastifyRequest } from 'fastify';
import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Db } from '@csp/db';
import type { FieldCipher } from './crypto.js';
import type { SpreadsheetColumn } from './spreadsheet.js';
import type { AuthUser } from './auth.js';

export type AnyQuery = SelectQueryBuilder<any, any, any>;
export type AnyRow = Record<string, any>;

/** What `toInsert`/`toUpdate`/`validate` get besides the body. */
export interface ResourceContext {
  user: AuthUser | undefined;
  /** The caller's user id or null (for created_by/updated_by). */
  userId: number | null;
  request: FastifyRequest;
  cipher: FieldCipher;
  /** The transaction of the write (use it for lookups that must see the same snapshot). */
  trx: Transaction<any> | Kysely<any>;
}

export type ResourceDelete = { mode: 'hard' } | { mode: 'soft'; column: string; value: unknown } | false;

export interface ResourceDefinition<
  Resp extends z.ZodObject = z.ZodObject,
  Save extends z.ZodObject = z.ZodObject,
  Filters extends z.ZodRawShape = Record<never, never>,
  Row extends AnyRow = AnyRow,
> {
  /** Display name used in OpenAPI summaries and messages ("Company"). */
  name: string;
  /** '/api/companies' */
  basePath: string;
  /** Table written by create/update/delete. */
  table: string;
  /** Primary key; may be qualified ('c.company_id') when baseQuery aliases the table. Writes use the bare name. */
  idColumn: string;
  /** Menu code of every route's permission (READ/CREATE/UPDATE/DELETE, EXPORT or READ for /excel). */
  menu: string;
  tags?: string[];
  /** Path parameter name (default 'id'). */
  idParam?: string;
  /** Select list of list/detail/export ('c.company_name', 'g.grade_name as gradeName', ...). */
  columns: readonly string[];
  respSchema: Resp;
  toResp(row: Row): z.input<Resp>;
  saveSchema: Save;
  toInsert(body: z.output<Save>, ctx: ResourceContext): AnyRow;
  toUpdate(body: z.output<Save>, ctx: ResourceContext): AnyRow;
  /** Extra business checks before create (existing undefined) and update (existing = the row). */
  validate?(body: z.output<Save>, ctx: ResourceContext, existing?: AnyRow): Promise<void> | void;
  filters?: {
    shape: Filters;
    apply(qb: AnyQuery, query: z.output<z.ZodObject<Filters>>): AnyQuery;
  };
  /** API sort field -> column. */
  sortable: Record<string, string>;
  /** Column (optionally ' desc') used without sortField. */
  defaultSort: string;
  /** searchType -> column; searchKeyword is matched with ILIKE (all columns OR-ed without searchType). */
  searchable?: Record<string, string>;
  /** startDate/endDate filter (inclusive days). */
  dateColumn?: string;
  /** `status` filter (equality). */
  statusColumn?: string;
  /** Optimistic lock column: update bodies must carry `version`; a stale one gives B002. */
  versionColumn?: string;
  /** false: no PUT route (create-only resources). */
  update?: false;
  /** Default hard delete; false: no DELETE route. Soft-deleted rows disappear from list/detail. */
  delete?: ResourceDelete;
  /** /excel columns; default: every key of respSchema from `toResp`. */
  exportColumns?: Array<SpreadsheetColumn<Row>>;
  /** Permission of /excel (default 'READ'); false: no /excel route. */
  exportPerm?: 'EXPORT' | 'READ' | false;
  /** Base select for list/detail/export (joins); default `db.selectFrom(table)`. */
  baseQuery?(db: Db): AnyQuery;
}
