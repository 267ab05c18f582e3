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

/**
 * One page of a resource list. Filtered lists count exactly (`count(*) over()` on the page query,
 * one round trip); an unfiltered list of a big table takes the planner's estimate instead of
 * counting every row, and says so.
 */
export async function listPage(
  app: FastifyInstance<any, any, any, any, any>,
  resource: Resource,
  query: AnyRow & { pageNum: number; pageSize: number },
  user: AuthUser | undefined,
): Promise<ListPage<AnyRow>> {
  const db = app.db as unknown as AnyDb;
  const filtered = resource.applyFilters(resource.select(app.db), query, user);
  const ordered = resource.orderBy(filtered, query as { sortField?: string; sortOrder?: "ASC" | "DESC" });
  const offset = (query.pageNum - 1) * query.pageSize;

  if (resource.ops.estimateTotal && !resource.isFiltered(query, user)) {
    const estimate = await estimatedRows(db, resource.table);
    if (estimate !== undefined) {
      const list = (await ordered.limit(query.pageSize).offset(offset).execute()) as AnyRow[];
      // The estimate can lag behind: never report fewer rows than this page proves exist.
      const total = Math.max(estimate, offset + list.length + (list.length === query.pageSize ? 1 : 0));
      return { ...toPage(list, total, query), totalEstimated: true };
    }
  }

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
