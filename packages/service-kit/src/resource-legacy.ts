import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import type { Db } from '@csp/db';
import { invalid } from './errors.js';
import { listQuery } from './schemas.js';
import { applySort } from './paginate.js';
import { escapeLike } from './text.js';
import type { SpreadsheetColumn } from './spreadsheet.js';
import type { AnyDb, AnyQuery, AnyRow, Resource, ResourceContext, ResourceDeclaration, ResourceMeta } from './resource-types.js';

/**
 * The kit v1 resource shape (hand-written schemas and mappers). Kept only while services move to
 * field tables; compiled into the same `Resource` the routes use.
 */
export interface LegacyResourceDefinition<
  Resp extends z.ZodObject = z.ZodObject,
  Save extends z.ZodObject = z.ZodObject,
  Filters extends z.ZodRawShape = Record<never, never>,
  Row extends AnyRow = AnyRow,
> {
  name: string;
  basePath: string;
  table: string;
  idColumn: string;
  menu: string;
  tags?: string[];
  idParam?: string;
  columns: readonly string[];
  respSchema: Resp;
  toResp(row: Row): z.input<Resp>;
  saveSchema: Save;
  toInsert(body: z.output<Save>, ctx: ResourceContext): AnyRow;
  toUpdate(body: z.output<Save>, ctx: ResourceContext): AnyRow;
  validate?(body: z.output<Save>, ctx: ResourceContext, existing?: AnyRow): Promise<void> | void;
  filters?: { shape: Filters; apply(qb: AnyQuery, query: z.output<z.ZodObject<Filters>>): AnyQuery };
  sortable: Record<string, string>;
  defaultSort: string;
  searchable?: Record<string, string>;
  dateColumn?: string;
  statusColumn?: string;
  versionColumn?: string;
  update?: false;
  delete?: { mode: 'hard' } | { mode: 'soft'; column: string; value: unknown } | false;
  exportColumns?: Array<SpreadsheetColumn<Row>>;
  exportPerm?: 'EXPORT' | 'READ' | false;
  baseQuery?(db: Db): AnyQuery;
}

export function isLegacy(def: object): def is LegacyResourceDefinition<any, any, any, any> {
  return 'basePath' in def && 'toResp' in def;
}

function bare(column: string): string {
  return column.slice(column.lastIndexOf('.') + 1);
}

export function compileLegacy<D extends LegacyResourceDefinition<any, any, any, any>>(def: D): Omit<D, keyof Resource> & Resource {
  const softDelete = def.delete && def.delete.mode === 'soft' ? def.delete : undefined;
  const listQ = listQuery(Object.keys(def.sortable), def.filters?.shape ?? {});
  const select = (db: Db): AnyQuery => {
    let qb = (def.baseQuery ? def.baseQuery(db) : (db as unknown as AnyDb).selectFrom(def.table)) as AnyQuery;
    qb = qb.select(def.columns as never);
    if (softDelete) qb = qb.where(sql<SqlBool>`${sql.ref(softDelete.column)} is distinct from ${softDelete.value}`);
    return qb;
  };
  const applyFilters = (input: AnyQuery, query: AnyRow): AnyQuery => {
    let qb = input;
    const keyword = typeof query.searchKeyword === 'string' ? query.searchKeyword.trim() : '';
    if (keyword && def.searchable) {
      const pattern = `%${escapeLike(keyword)}%`;
      const like = (column: string) => sql<SqlBool>`${sql.ref(column)}::text ilike ${pattern}`;
      if (query.searchType) {
        const column = def.searchable[query.searchType];
        if (!column) throw invalid('searchType', `must be one of: ${Object.keys(def.searchable).join(', ')}`);
        qb = qb.where(like(column));
      } else {
        const columns = Object.values(def.searchable);
        qb = qb.where((eb: ExpressionBuilder<any, any>) => eb.or(columns.map((c) => like(c) as Expression<SqlBool>)));
      }
    }
    if (def.dateColumn) {
      const column = sql.ref(def.dateColumn);
      if (query.startDate) qb = qb.where(sql<SqlBool>`${column} >= ${query.startDate}::date`);
      if (query.endDate) qb = qb.where(sql<SqlBool>`${column} < ${query.endDate}::date + 1`);
    }
    if (def.statusColumn && query.status) qb = qb.where(sql<SqlBool>`${sql.ref(def.statusColumn)} = ${query.status}`);
    if (def.filters) qb = def.filters.apply(qb, query as never);
    return qb;
  };
  const direction = def.defaultSort.trim().split(/\s+/)[1];
  const exportColumns: Array<SpreadsheetColumn<AnyRow>> =
    def.exportColumns ?? Object.keys(def.respSchema.shape).map((key) => ({ header: key, key }));
  const meta: ResourceMeta = {
    name: def.name,
    path: def.basePath,
    menu: def.menu,
    idParam: def.idParam ?? 'id',
    idField: Object.keys(def.respSchema.shape)[0] ?? 'id',
    permissions: {
      list: { menu: def.menu, perm: 'READ' },
      detail: { menu: def.menu, perm: 'READ' },
      create: { menu: def.menu, perm: 'CREATE' },
      update: def.update === false ? null : { menu: def.menu, perm: 'UPDATE' },
      delete: def.delete === false ? null : { menu: def.menu, perm: 'DELETE' },
      export: def.exportPerm === false ? null : { menu: def.menu, perm: def.exportPerm ?? 'READ' },
    },
    fields: Object.keys(def.respSchema.shape).map((key) => ({
      key,
      kind: 'text',
      label: key,
      sort: key in def.sortable,
      search: Boolean(def.searchable && key in def.searchable),
      save: key in def.saveSchema.shape,
      required: false,
      createOnly: false,
      readOnly: !(key in def.saveSchema.shape),
      nullable: true,
    })),
    defaultSort: direction?.toLowerCase() === 'desc' ? `-${meta_id(def)}` : meta_id(def),
    searchTypes: Object.keys(def.searchable ?? {}),
  };
  const compiled: Resource = {
    declaration: { legacy: true } as unknown as ResourceDeclaration,
    name: def.name,
    path: def.basePath,
    table: def.table,
    menu: def.menu,
    tags: def.tags ?? [def.name],
    idParam: def.idParam ?? 'id',
    idColumn: bare(def.idColumn),
    idRef: def.idColumn,
    ...(def.versionColumn ? { versionColumn: bare(def.versionColumn) } : {}),
    schemas: {
      save: def.saveSchema,
      update: def.versionColumn ? def.saveSchema.extend({ version: z.number().int().min(0).optional() }) : def.saveSchema,
      response: def.respSchema,
      listQuery: listQ,
      exportQuery: listQ.omit({ pageNum: true, pageSize: true }),
    },
    select,
    applyFilters,
    isFiltered: () => true,
    orderBy: (qb, query) => applySort(qb, query, { sortable: def.sortable, defaultSort: def.defaultSort }),
    ...(def.validate ? { validate: def.validate } : {}),
    ops: {
      create: true,
      update: def.update !== false,
      detail: true,
      delete: def.delete === undefined ? { mode: 'hard' } : def.delete,
      export: def.exportPerm ?? 'READ',
      estimateTotal: false,
    },
    exportFromRaw: Boolean(def.exportColumns),
    toResp: (row) => def.toResp(row) as AnyRow,
    toInsert: async (body, ctx) => def.toInsert(body, ctx),
    toUpdate: async (body, ctx) => def.toUpdate(body, ctx),
    exportColumns,
    meta,
  };
  // The v1 properties stay readable (baseQuery, columns, ...) for the routes that still use them.
  return Object.assign({}, def, compiled);
}

function meta_id(def: LegacyResourceDefinition<any, any, any, any>): string {
  return Object.keys(def.respSchema.shape)[0] ?? 'id';
}
