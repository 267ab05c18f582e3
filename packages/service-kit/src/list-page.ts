import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AuthUser } from './auth.js';
import { toPage, type PageResponse } from './envelope.js';
import type { AnyDb, AnyRow, Resource } from './resource-types.js';

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
  if (!resource.selectBase) return legacyPage(app, resource, query, user);
  const db = app.db as unknown as AnyDb;
  const sort = query as Sort;
  const offset = (query.pageNum - 1) * query.pageSize;
  const base = resource.applyFilters(resource.selectBase(app.db), query, user);
  const pageIds = resource.orderBy(base, sort).select(sql.ref(resource.idRef).as('page_id')).limit(query.pageSize).offset(offset);
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

/** v1 definitions: the page query with `count(*) over()` (one round trip). */
async function legacyPage(
  app: FastifyInstance<any, any, any, any, any>,
  resource: Resource,
  query: AnyRow & { pageNum: number; pageSize: number },
  user: AuthUser | undefined,
): Promise<ListPage<AnyRow>> {
  const db = app.db as unknown as AnyDb;
  const filtered = resource.applyFilters(resource.select(app.db), query, user);
  const ordered = resource.orderBy(filtered, query as Sort);
  const offset = (query.pageNum - 1) * query.pageSize;
  const counted = ordered.select(sql<number>`count(*) over()`.as(TOTAL));
  const rows = (await counted.limit(query.pageSize).offset(offset).execute()) as AnyRow[];
  let total = 0;
  if (rows.length > 0) total = Number(rows[0]![TOTAL]);
  else if (offset > 0) {
    const probe = (await db.selectFrom(filtered.as('page_rows')).select(sql<number>`count(*)`.as(TOTAL)).execute()) as AnyRow[];
    total = Number(probe[0]?.[TOTAL] ?? 0);
  }
  for (const row of rows) delete row[TOTAL];
  return toPage(rows, total, query);
}
