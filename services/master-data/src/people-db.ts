import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@csp/db';
import { invalid } from '@csp/service-kit';

export type * from '@csp/db';
export type MdDatabase = Database;
export type MdDb = Kysely<MdDatabase>;
export type MdExecutor = MdDb | Transaction<MdDatabase>;

/** The app's Kysely instance seen with the master-data tables. */
export function mdDb(app: FastifyInstance): MdDb {
  return app.db as unknown as MdDb;
}

/** `code_name` of a common code, looked up in SQL (NULL when the code is unknown). */
export function codeName(group: string, code: Expression<string | null>) {
  return sql<string | null>`(SELECT cc.code_name FROM common_code cc WHERE cc.group_code = ${group} AND cc.code = ${code})`;
}

/** Today's date `YYYY-MM-DD` in the server's calendar. */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** created_by/updated_by of an insert made by the caller. */
export function insertAudit(ctx: { userId: number | null }) {
  return { created_by: ctx.userId, updated_by: ctx.userId };
}

/** updated_at/updated_by of an update made by the caller. */
export function updateAudit(ctx: { userId: number | null }) {
  return { updated_at: new Date(), updated_by: ctx.userId };
}

/** E411 on `field` unless a row with `column = id` exists in `table`; returns the row. */
export async function requireRow<T extends keyof MdDatabase & string>(
  trx: unknown,
  table: T,
  column: string,
  id: number,
  field: string,
  label: string,
): Promise<Record<string, unknown>> {
  const row = await (trx as Kysely<any>).selectFrom(table).selectAll().where(column, '=', id).executeTakeFirst();
  if (!row) throw invalid(field, `${label} not found`);
  return row as Record<string, unknown>;
}
