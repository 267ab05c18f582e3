import { sql, type SelectQueryBuilder } from 'kysely';
import { toPage, type PageResponse } from './envelope.js';

export interface PaginateQuery {
  pageNum: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: 'ASC' | 'DESC';
}

export interface PaginateOptions {
  /** API sort field -> column reference (only these can be sorted on). */
  sortable: Record<string, string>;
  /** Column used when no sortField is given; append ' desc' for descending ('agent_id desc'). */
  defaultSort: string;
}

const TOTAL = '__total';

/** Applies the requested (whitelisted) order, falling back to `defaultSort`. */
export function applySort<QB extends SelectQueryBuilder<any, any, any>>(
  qb: QB,
  query: { sortField?: string; sortOrder?: 'ASC' | 'DESC' },
  options: PaginateOptions,
): QB {
  // Own keys only: `sortField=toString` must not find Object.prototype.toString.
  const requested = query.sortField && Object.hasOwn(options.sortable, query.sortField) ? options.sortable[query.sortField] : undefined;
  if (requested) {
    return qb.orderBy(sql.ref(requested), query.sortOrder === 'DESC' ? 'desc' : 'asc') as QB;
  }
  const [column, direction] = options.defaultSort.trim().split(/\s+/);
  const desc = (query.sortOrder ?? direction ?? 'asc').toLowerCase() === 'desc';
  return qb.orderBy(sql.ref(column!), desc ? 'desc' : 'asc') as QB;
}

/**
 * One page of a Kysely select plus the total. The total comes from `count(*) over()` on the page
 * query itself (one round trip); only a page past the end needs a second, one-row query.
 */
export async function paginate<O>(
  qb: SelectQueryBuilder<any, any, O>,
  query: PaginateQuery,
  options: PaginateOptions,
): Promise<PageResponse<O>> {
  const counted = (applySort(qb, query, options) as SelectQueryBuilder<any, any, any>).select(
    sql<number>`count(*) over()`.as(TOTAL),
  );
  const offset = (query.pageNum - 1) * query.pageSize;
  const rows = (await counted.limit(query.pageSize).offset(offset).execute()) as Array<Record<string, unknown>>;

  let total = 0;
  if (rows.length > 0) total = Number(rows[0]![TOTAL]);
  else if (offset > 0) {
    const probe = (await counted.limit(1).execute()) as Array<Record<string, unknown>>;
    total = probe.length > 0 ? Number(probe[0]![TOTAL]) : 0;
  }
  const list = rows.map((row) => {
    delete row[TOTAL];
    return row as O;
  });
  return toPage(list, total, query);
}
