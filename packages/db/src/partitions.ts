import { AsyncLocalStorage } from 'node:async_hooks';
import {
  OperationNodeTransformer,
  TableNode,
  sql,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * Month partitions (V130, issue 27): the month tables are LIST-partitioned by settle_month, one partition per
 * month (`<table>_p<YYYYMM>`) plus a default. Partitions are made by ensureMonthPartitions only: by the run before
 * a month's steps write and by the maintenance job ahead of time. A closed month's partitions can be detached into
 * schema `archive` (archiveMonth) and re-attached (restoreMonth); `archive_read.<table>` views read them.
 */
export const SETTLE_MONTH_TABLES = [
  'recruit_ledger',
  'maintain_ledger',
  'exception_ledger',
  'settle_master',
  'override_settle',
  'other_commission_ledger',
  'contract_accounting_entry',
  'commission_master',
] as const;
export type SettleMonthTable = (typeof SETTLE_MONTH_TABLES)[number];

/** Tables archiveMonth leaves attached: payments, holds and disputes hold (settle_id, month) keys into them. */
export const NEVER_ARCHIVED_TABLES: readonly SettleMonthTable[] = ['settle_master'];

const MONTH = /^[0-9]{4}(0[1-9]|1[0-2])$/;

/** Whether `month` is a settle month `YYYYMM` (the partition names' and the month lists' form). */
export function isSettleMonth(month: string): boolean {
  return MONTH.test(month);
}

function checkMonth(month: string): void {
  if (!isSettleMonth(month)) throw new RangeError(`settle month ${month} is not YYYYMM`);
}

/** The name of `table`'s partition of `month` (V130's convention: `<table>_p<YYYYMM>`). */
export function monthPartitionName(table: string, month: string): string {
  checkMonth(month);
  return `${table}_p${month}`;
}

/**
 * Creates the month's partition of every month table that has none (rows of the month already in a default
 * partition move into it). Idempotent and safe to call concurrently (serialized in PostgreSQL by an advisory
 * lock). Returns the number of partitions created. Refuses an archived month.
 */
export async function ensureMonthPartitions<DB>(db: Kysely<DB>, month: string): Promise<number> {
  checkMonth(month);
  const { rows } = await sql<{ n: number }>`SELECT ensure_settle_month_partitions(${month}) AS n`.execute(db);
  return rows[0]!.n;
}

/**
 * Fresh planner statistics for one month's rows of `tables` (after a step wrote them): ANALYZE of the month's
 * partition only. `ANALYZE <partitioned table>` samples every partition of every month as well, so its cost grows
 * with the months kept (measured on the 1M book, 12 months: 38.7-48.2 s for the parents recruit_ledger and
 * maintain_ledger against 1.6-3.0 s for their month partitions, loaded machine). The names resolve through the
 * search_path like the step's own statements; a table that is not partitioned (a simulation's scratch copy) is
 * analyzed whole. Returns the relations analyzed.
 */
export async function analyzeMonthPartitions<DB>(db: Kysely<DB>, tables: readonly SettleMonthTable[], month: string): Promise<string[]> {
  checkMonth(month);
  for (const t of tables) if (!partitioned.has(t)) throw new RangeError(`${t} is not a month table`);
  const { rows } = await sql<{ rel: string }>`
    SELECT coalesce(
             (SELECT c.oid::regclass::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
               WHERE i.inhparent = t.oid AND c.relname = t.relname || '_p' || ${month}),
             t.oid::regclass::text) AS rel
      FROM unnest(${[...tables]}::text[]) WITH ORDINALITY AS n(name, ord)
      JOIN LATERAL (SELECT to_regclass(n.name) AS oid, (SELECT relname FROM pg_class WHERE oid = to_regclass(n.name)) AS relname) t ON t.oid IS NOT NULL
     ORDER BY n.ord`.execute(db);
  const rels = rows.map((r) => r.rel);
  // The names come from pg_class (regclass text is quoted where needed), never from the caller.
  if (rels.length > 0) await sql.raw(`ANALYZE ${rels.join(', ')}`).execute(db);
  return rels;
}

/** The months of `from` and the `ahead` months after it (YYYYMM). */
export function monthsAhead(from: string, ahead: number): string[] {
  checkMonth(from);
  const year = Number(from.slice(0, 4));
  const month = Number(from.slice(4)) - 1;
  return Array.from({ length: ahead + 1 }, (_, i) => {
    const m = month + i;
    return `${year + Math.floor(m / 12)}${String((m % 12) + 1).padStart(2, '0')}`;
  });
}

/** The settle months that have a live partition of `table`, ascending. */
export async function partitionMonths<DB>(db: Kysely<DB>, table: SettleMonthTable): Promise<string[]> {
  const { rows } = await sql<{ m: string }>`
    SELECT substring(c.relname FROM '_p([0-9]{6})$') AS m
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = to_regclass(${`public.${table}`}) AND c.relname ~ '_p[0-9]{6}$'
     ORDER BY 1`.execute(db);
  return rows.map((r) => r.m);
}

/** The settle months with at least one partition in schema archive, ascending. */
export async function archivedMonths<DB>(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ m: string }>`
    SELECT DISTINCT substring(relname FROM '_p([0-9]{6})$') AS m
      FROM pg_class
     WHERE relnamespace = 'archive'::regnamespace AND relkind = 'r' AND relname ~ '_p[0-9]{6}$'
     ORDER BY 1`.execute(db);
  return rows.map((r) => r.m);
}

/**
 * Detaches the month's partitions (all month tables but NEVER_ARCHIVED_TABLES) into schema archive. Run it in a
 * transaction with the guard that the month is closed. Returns the tables moved.
 */
export async function archiveMonth<DB>(db: Kysely<DB>, month: string): Promise<string[]> {
  checkMonth(month);
  const { rows } = await sql<{ moved: string[] }>`SELECT archive_settle_month(${month}) AS moved`.execute(db);
  return rows[0]!.moved;
}

/** Re-attaches the month's archived partitions. Returns the tables moved back. */
export async function restoreMonth<DB>(db: Kysely<DB>, month: string): Promise<string[]> {
  checkMonth(month);
  const { rows } = await sql<{ moved: string[] }>`SELECT restore_settle_month(${month}) AS moved`.execute(db);
  return rows[0]!.moved;
}

const ARCHIVE_READ_SCHEMA = 'archive_read';
const partitioned = new Set<string>(SETTLE_MONTH_TABLES);

class ArchiveReadTransformer extends OperationNodeTransformer {
  protected override transformTable(node: TableNode): TableNode {
    const table = super.transformTable(node);
    if (table.table.schema !== undefined || !partitioned.has(table.table.identifier.name)) return table;
    return TableNode.createWithSchema(ARCHIVE_READ_SCHEMA, table.table.identifier.name);
  }
}

/**
 * A Kysely plugin that reads the month tables through `archive_read.<table>` (the live table plus its archived
 * months). Only for reads: a write through it fails, as views of a UNION cannot be written.
 */
export class ArchiveReadPlugin implements KyselyPlugin {
  readonly #transformer = new ArchiveReadTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const archiveReads = new AsyncLocalStorage<boolean>();
const plugin = new ArchiveReadPlugin();

/** Runs `work` (and everything it starts) with the month tables read through archive_read. */
export function withArchiveReads<T>(work: () => T): T {
  return archiveReads.run(true, work);
}

/** `db`, reading the archived months too when the current request asked for them (withArchiveReads). */
export function archiveAware<DB>(db: Kysely<DB>): Kysely<DB> {
  return archiveReads.getStore() === true ? db.withPlugin(plugin) : db;
}
