import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Db } from '@csp/db';
import { invalid } from './errors.js';
import type { AnyQuery, ResourceDefinition } from './resource-types.js';

export interface ResourceListQuery {
  searchType?: string;
  searchKeyword?: string;
  startDate?: string;
  endDate?: string;
  status?: string;
  [key: string]: unknown;
}

/** The bare column name of a possibly qualified reference ('c.company_id' -> 'company_id'). */
export function bareColumn(column: string): string {
  return column.slice(column.lastIndexOf('.') + 1);
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The definition's base select with its columns, soft-deleted rows excluded. */
export function baseSelect(def: ResourceDefinition<any, any, any, any>, db: Db): AnyQuery {
  let qb = (def.baseQuery ? def.baseQuery(db) : (db as any).selectFrom(def.table)) as AnyQuery;
  qb = qb.select(def.columns as any);
  if (def.delete && def.delete.mode === 'soft') {
    const { column, value } = def.delete;
    qb = qb.where(sql<SqlBool>`${sql.ref(column)} is distinct from ${value}`);
  }
  return qb;
}

/** Common search parameters (search, dates, status) and the resource's own filters. */
export function applyListFilters(def: ResourceDefinition<any, any, any, any>, qb: AnyQuery, query: ResourceListQuery): AnyQuery {
  const keyword = query.searchKeyword?.trim();
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
  if (def.statusColumn && query.status) {
    qb = qb.where(sql<SqlBool>`${sql.ref(def.statusColumn)} = ${query.status}`);
  }
  if (def.filters) qb = def.filters.apply(qb, query as never);
  return qb;
}
