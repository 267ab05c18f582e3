import type { FastifyRequest } from 'fastify';
import { sql, type AliasedRawBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';
import { z } from 'zod';
import {
  applySort,
  listQuery,
  ok,
  pageResponse,
  paginate,
  perm,
  sendSpreadsheet,
  streamRows,
  type ServiceApp,
  type SpreadsheetColumn,
} from '@csp/service-kit';
import { restrictToOwnAgent } from './agent-scope.js';

export type AnyQuery = SelectQueryBuilder<any, any, any>;
export type AnyRow = Record<string, any>;

/** An equality filter: query parameter -> column. */
export interface EqFilter {
  column: string;
  schema: z.ZodType;
}

export function eq(column: string, schema: z.ZodType): EqFilter {
  return { column, schema };
}

/**
 * A read-only list of ledger-like rows: list page + `/excel` export with the same filters, the
 * AGENT-only row filter, money as strings. Every list of this service is one such definition.
 */
export interface ListDefinition<Row extends AnyRow = AnyRow, Resp extends z.ZodObject = z.ZodObject> {
  name: string;
  basePath: string;
  menu: string;
  tags: string[];
  /** Permission of `/excel`: EXPORT where the menu has it, else READ; false = no export. */
  exportPerm: 'EXPORT' | 'READ' | false;
  /** FROM with joins; `columns` are selected on it. */
  from(db: Kysely<any>): AnyQuery;
  columns: ReadonlyArray<string | AliasedRawBuilder<unknown, string>>;
  filters: Record<string, EqFilter>;
  /** API sort field -> column. */
  sortable: Record<string, string>;
  /** Column, optionally followed by ' desc'. */
  defaultSort: string;
  /** Agent columns for the AGENT-only row filter (visible when any equals the user's agent). */
  ownerColumns?: readonly string[];
  respSchema: Resp;
  toResp(row: Row): z.input<Resp>;
  exportColumns: Array<SpreadsheetColumn<Row>>;
}

export function defineList<Row extends AnyRow, Resp extends z.ZodObject>(
  def: ListDefinition<Row, Resp>,
): ListDefinition<Row, Resp> {
  return def;
}

function untyped(app: ServiceApp): Kysely<any> {
  return app.db as unknown as Kysely<any>;
}

/** The definition's select with its filters and the caller's row restriction (no order, no paging). */
export function selectList(
  app: ServiceApp,
  def: ListDefinition<any, any>,
  request: FastifyRequest,
  query: AnyRow,
): AnyQuery {
  let qb = def.from(untyped(app)).select(def.columns as any) as AnyQuery;
  for (const [name, filter] of Object.entries(def.filters)) {
    const value = query[name];
    if (value !== undefined && value !== null && value !== '')
      qb = qb.where(sql.ref(filter.column), '=', value);
  }
  return restrictToOwnAgent(qb, request.user, def.ownerColumns);
}

function today(): string {
  return new Date().toISOString().slice(0, 10).replaceAll('-', '');
}

/** GET basePath (page) and GET basePath/excel (cursor-streamed xlsx), guarded by the definition's menu. */
export function registerList(app: ServiceApp, def: ListDefinition<any, any>): void {
  const shape = Object.fromEntries(Object.entries(def.filters).map(([k, f]) => [k, f.schema.optional()]));
  const query = listQuery(Object.keys(def.sortable), shape);
  const exportQuery = query.omit({ pageNum: true, pageSize: true });
  const sortOptions = { sortable: def.sortable, defaultSort: def.defaultSort };

  app.get(
    def.basePath,
    {
      config: perm(def.menu, 'READ'),
      schema: {
        tags: def.tags,
        summary: `List ${def.name}`,
        querystring: query,
        response: { 200: pageResponse(def.respSchema) },
      },
    },
    async (request) => {
      const q = request.query as AnyRow & { pageNum: number; pageSize: number };
      const page = await paginate(selectList(app, def, request, q), q as never, sortOptions);
      return ok({ ...page, list: page.list.map((row) => def.toResp(row as AnyRow)) });
    },
  );

  if (def.exportPerm === false) return;
  app.get(
    `${def.basePath}/excel`,
    {
      config: perm(def.menu, def.exportPerm),
      schema: {
        tags: def.tags,
        summary: `Export ${def.name} (xlsx, same filters as the list)`,
        querystring: exportQuery,
      },
    },
    async (request, reply) => {
      const q = request.query as AnyRow;
      const qb = applySort(selectList(app, def, request, q), q as never, sortOptions);
      const rows = streamRows<AnyRow>(app.pool, qb.compile());
      return sendSpreadsheet(reply, {
        fileName: `${def.name}-${today()}.xlsx`,
        sheetName: def.name,
        columns: def.exportColumns,
        rows,
      });
    },
  );
}
