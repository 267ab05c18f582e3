import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AuthUser } from './auth.js';
import { toPage, type PageResponse } from './envelope.js';
import type { AnyDb, AnyQuery, AnyRow, Resource } from './resource-types.js';
import { probedTotal, probeSearchPage } from './search-probe.js';
import { readTarget } from './read-db.js';
import { isSettleMonth, monthPartitionName } from '@csp/db';

const TOTAL = '__total';

export interface ListPage<T> extends PageResponse<T> {
  /** The total is the planner's estimate (an unfiltered list of a big table). */
  totalEstimated?: boolean;
}

/**
 * The planner's row count of a table (pg_class.reltuples), or undefined when never analyzed. A partitioned
 * table (V130: the month tables) counts its partitions': autovacuum never analyzes the parent itself.
 */
async function estimatedRows(db: AnyDb, table: string): Promise<number | undefined> {
  const { rows } = await sql<{ n: number }>`
    select case when p.relkind = 'p'
             then (select case when bool_or(c.reltuples >= 0) then sum(greatest(c.reltuples, 0)) end
                     from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = p.oid)
             else p.reltuples end::float8 as n
      from pg_class p where p.oid = to_regclass(${table})`.execute(db);
  const n = rows[0]?.n;
  return n === undefined || n === null || n < 0 ? undefined : Math.round(n);
}

/**
 * A month filter's total on a big table: at least this many rows in the month's partition (planner
 * estimate) and the list totals the month by that estimate instead of counting it. Counting one month
 * of the 1M book's maintain ledger (475,000 rows, a 460 MB partition) is a sequential scan of the
 * partition: 330-360 ms, most of a first page's 230-400 ms (issue 27's history bench); a smaller month
 * is counted exactly, as before.
 */
export const MONTH_ESTIMATE_MIN_ROWS = 100_000;

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

/** The planner's total of a big table's list: the whole table unfiltered, a month's partition filtered by that month alone. */
async function estimatedTotal(db: AnyDb, resource: Resource, query: AnyRow, user: AuthUser | undefined): Promise<number | undefined> {
  if (!resource.isFiltered(query, user)) return estimatedRows(db, resource.table);
  const month = resource.onlyMonthFilter(query, user);
  if (month === undefined || !isSettleMonth(month)) return undefined;
  // the month's partition when the table has one (estimatedRows of a name that is no table: undefined)
  const n = await estimatedRows(db, monthPartitionName(resource.table, month));
  return n !== undefined && n >= MONTH_ESTIMATE_MIN_ROWS ? n : undefined;
}

/**
 * One page of a resource list.
 *
 * Field-table resources page in two steps (a "deferred join"): the ids of the page are found on the
 * bare FROM with its filters and order (joins only a filter or the sort needs are kept; the select
 * list, computed columns and code names are not evaluated for the rows skipped over), then only
 * those rows are read in full. The total is a separate count on the same bare FROM; an unfiltered
 * list of a big table, or one filtered by a big month alone, takes the planner's estimate instead, and
 * says so (`totalEstimated`).
 */
export async function listPage(
  app: FastifyInstance<any, any, any, any, any>,
  resource: Resource,
  query: AnyRow & { pageNum: number; pageSize: number },
  user: AuthUser | undefined,
): Promise<ListPage<AnyRow>> {
  // The read replica when it is healthy and has this user's last write (read-db.ts), else the primary.
  const readDb = (await readTarget(app, user?.userId)).db;
  const db = readDb as unknown as AnyDb;
  const sort = query as Sort;
  const offset = (query.pageNum - 1) * query.pageSize;
  const base = resource.applyFilters(resource.selectBase(readDb), query, user);
  // A frequent keyword on a big table: its first pages come from the first rows of the order (search-probe.ts).
  const probe = searching(query) ? await probeSearchPage(readDb, resource, query, user) : undefined;
  if (probe) {
    const rows = (await resource.orderBy(resource.select(readDb).where(sql.ref(resource.idRef), 'in', probe.ids), sort).execute()) as AnyRow[];
    const shown = offset + rows.length + (rows.length === query.pageSize ? 1 : 0);
    return { ...toPage(rows, probedTotal(probe, await estimatedRows(db, resource.table), shown), query), totalEstimated: true };
  }
  const pageIds = searching(query) ? fencedPageIds(db, resource, base, sort, query.pageSize, offset)
    : resource.orderBy(base, sort).select(sql.ref(resource.idRef).as('page_id')).limit(query.pageSize).offset(offset);
  // The page's rows carry the filters again: redundant for the ids, but a month filter then prunes the
  // id lookup to the month's partition instead of probing every month's (issue 27).
  const listQuery = resource.orderBy(
    resource.applyFilters(resource.select(readDb), query, user).where(sql.ref(resource.idRef), 'in', pageIds),
    sort,
  );

  const estimate = resource.ops.estimateTotal ? await estimatedTotal(db, resource, query, user) : undefined;
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
