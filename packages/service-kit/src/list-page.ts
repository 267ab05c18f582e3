import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AuthUser } from './auth.js';
import { toPage, type PageResponse } from './envelope.js';
import type { AnyDb, AnyQuery, AnyRow, Resource } from './resource-types.js';

const TOTAL = '__total';

export interface ListPage<T> extends PageResponse<T> {
  /** The total is the planner's estimate (an unfiltered list of a big table). */
  totalEstimated?: boolean;
}

/** The planner's row count of a table (pg_class.reltuples), or undefined when never analyzed. */
async function estimatedRows(db: AnyDb, table: string): Promise<number | undefined> {
  const { rows } = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = to_regclass(${table})`.execute(db);
  const n = rows[0]?.n;
  return n === undefined || n < 0 ? undefined : Math.round(n);
}

type Sort = { sortField?: string; sortOrder?: 'ASC' | 'DESC' };

const searching = (query: AnyRow) => typeof query.searchKeyword === 'string' && query.searchKeyword.trim() !== '';

/**
 * The page's ids of a keyword search: the matches are collected first (an OFFSET 0 subquery is a
 * planning fence), then sorted and cut. With LIMIT on the same level the planner tends to walk the
 * sort index and test row after row against the ILIKE, which on a big table with a rare keyword
 * reads most of it; collecting the matches uses the trigram indexes instead.
 */
function fencedPageIds(db: AnyDb, resource: Resource, base: AnyQuery, sort: Sort, limit: number, offset: number) {
  const { key, id, desc } = resource.sortOf(sort);
  const dir = desc ? sql`desc` : sql`asc`;
  const matches = base.select([key.as('sort_key'), id.as('page_id')]).offset(0);
  return db
    .selectFrom(matches.as('m'))
    .select('m.page_id')
    .orderBy(sql`m.sort_key ${dir}`)
    .orderBy(sql`m.page_id ${dir}`)
    .limit(limit)
    .offset(offset);
}

/**
 * One page of a resource list.
 *
 * Field-table resources page in two steps (a "deferred join"): the ids of the page are found on the
 * bare FROM with its filters and order (joins only a filter or the sort needs are kept; the select
 * list, computed columns and code names are not evaluated for the rows skipped over), then only
 * those rows are read in full. The total is a separate count on the same bare FROM; an unfiltered
 * list of a big table takes the planner's estimate instead, and says so (`totalEstimated`).
 */
export async function listPage(
  app: FastifyInstance<any, any, any, any, any>,
  resource: Resource,
  query: AnyRow & { pageNum: number; pageSize: number },
  user: AuthUser | undefined,
): Promise<ListPage<AnyRow>> {
  const db = app.db as unknown as AnyDb;
  const sort = query as Sort;
  const offset = (query.pageNum - 1) * query.pageSize;
  const base = resource.applyFilters(resource.selectBase(app.db), query, user);
  const pageIds = searching(query) ? fencedPageIds(db, resource, base, sort, query.pageSize, offset)
    : resource.orderBy(base, sort).select(sql.ref(resource.idRef).as('page_id')).limit(query.pageSize).offset(offset);
  const listQuery = resource.orderBy(resource.select(app.db).where(sql.ref(resource.idRef), 'in', pageIds), sort);

  const estimate =
    resource.ops.estimateTotal && !resource.isFiltered(query, user) ? await estimatedRows(db, resource.table) : undefined;
  const [list, counted] = await Promise.all([
    listQuery.execute() as Promise<AnyRow[]>,
    estimate === undefined
      ? (db.selectFrom(base.select(sql`1`.as('one')).as('filtered')).select(sql<string>`count(*)`.as(TOTAL)).execute() as Promise<AnyRow[]>)
      : Promise.resolve(undefined),
  ]);
  if (counted) return toPage(list, Number(counted[0]?.[TOTAL] ?? 0), query);
  // The estimate can lag behind: never report fewer rows than this page proves exist.
  const total = Math.max(estimate!, offset + list.length + (list.length === query.pageSize ? 1 : 0));
  return { ...toPage(list, total, query), totalEstimated: true };
}
