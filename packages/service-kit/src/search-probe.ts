import { sql, type SqlBool } from 'kysely';
import type { AuthUser } from './auth.js';
import type { Db } from '@csp/db';
import type { AnyDb, AnyRow, Resource } from './resource-types.js';

/**
 * Rows of the list order a keyword search looks at first (the probe window). A keyword a trigram index can
 * serve (three characters or more) gets a small window: a page not filled there is rare enough for the index.
 * A shorter one is otherwise a scan of the whole table, so a bigger window is still the cheaper try.
 */
export function searchProbeRows(keyword: string): number {
  return [...keyword.trim()].length >= 3 ? 2_000 : 20_000;
}

export interface ProbedPage {
  /** The ids of the page, in list order. */
  ids: unknown[];
  /** Matches up to the end of the page (pageNum x pageSize) ... */
  hits: number;
  /** ... among this many rows of the list order: the keyword's share of the table. */
  windowRows: number;
}

/**
 * The first pages of a keyword search on a big table, found in the first rows of the
 * list's own order (issue 24: pickers search agents, contracts, products while typing).
 *
 * A frequent keyword (a family name, two digits) matches a large part of a big table: collecting every match
 * to sort it (the fenced path) then reads hundreds of thousands of rows, and a keyword under three characters
 * cannot use a trigram index at all. Those keywords fill a page within the first rows of the order: the
 * window's last key is read first (one index step), then the page is searched inside `key <= last` only, a
 * bounded index range. A page not filled inside the window means a rare keyword, which the fenced path over the
 * trigram indexes answers well: undefined is returned and the caller takes that path. Only when the list is
 * ordered by its id (the default order of the big tables): the window is then exactly the first rows.
 */
export async function probeSearchPage(
  db: Db,
  resource: Resource,
  query: AnyRow & { pageNum: number; pageSize: number; sortField?: string; sortOrder?: 'ASC' | 'DESC' },
  user: AuthUser | undefined,
): Promise<ProbedPage | undefined> {
  const unsearched = { ...query, searchKeyword: undefined, searchType: undefined };
  // Big tables whose only filter is the keyword: the window's share of matches then estimates the total.
  if (!resource.ops.estimateTotal || resource.isFiltered(unsearched, user)) return undefined;
  const any = db as unknown as AnyDb;
  const { key, id, desc } = resource.sortOf(query);
  if (key.compile(any).sql !== id.compile(any).sql) return undefined;
  const needed = query.pageNum * query.pageSize;
  const windowRows = searchProbeRows(String(query.searchKeyword ?? ''));
  if (needed > windowRows) return undefined;

  const edge = await resource
    .orderBy(resource.applyFilters(resource.selectBase(db), unsearched, user), query)
    .select(id.as('edge'))
    .offset(windowRows - 1)
    .limit(1)
    .execute();
  // A table (or filtered set) smaller than the window: the ordinary search reads no more than this would.
  if (edge.length === 0) return undefined;
  const last = (edge[0] as AnyRow).edge;

  const inside = resource
    .applyFilters(resource.selectBase(db), query, user)
    .where(desc ? sql<SqlBool>`${id} >= ${last}` : sql<SqlBool>`${id} <= ${last}`);
  // LIMIT without a count: a frequent keyword fills the page after a few rows of the window.
  const rows = (await resource
    .orderBy(inside, query)
    .select(id.as('page_id'))
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute()) as AnyRow[];
  if (rows.length < query.pageSize) return undefined;
  // How many rows of the order it took (an index-only count up to the page's last id): the keyword's share.
  const pageLast = rows[rows.length - 1]!.page_id;
  const took = await resource
    .applyFilters(resource.selectBase(db), unsearched, user)
    .where(desc ? sql<SqlBool>`${id} >= ${pageLast}` : sql<SqlBool>`${id} <= ${pageLast}`)
    .select(sql<string>`count(*)`.as('n'))
    .execute();
  return { ids: rows.map((r) => r.page_id), hits: needed, windowRows: Number((took[0] as AnyRow).n) };
}

/** The total of a probed search: the window's share of matches over the table's estimated rows (never below what the pages prove). */
export function probedTotal(probe: Pick<ProbedPage, 'hits' | 'windowRows'>, tableRows: number | undefined, shown: number): number {
  const estimate = tableRows === undefined ? probe.hits : Math.round((probe.hits / probe.windowRows) * tableRows);
  return Math.max(estimate, shown);
}
