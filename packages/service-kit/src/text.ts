import { z } from 'zod';
import { sql, type Kysely } from 'kysely';
import type { Db } from '@csp/db';
import { invalid } from './errors.js';

/** Escapes LIKE wildcards so a search keyword matches literally (`ILIKE ... ESCAPE '\'`, PostgreSQL's default). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `?flag=true|false` in a query string (also the schema's `Y`/`N` and `1`/`0`). */
export const zBoolQuery = z
  .enum(['true', 'false', 'Y', 'N', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === 'Y' || v === '1');

/** Today's calendar date `YYYY-MM-DD` (server local time). */
export function today(date = new Date()): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** Today as `YYYYMMDD` (file names). */
export function todayCompact(date = new Date()): string {
  return today(date).replaceAll('-', '');
}

/** E411 on `field` unless a row with `column = id` exists in `table`; returns the row. */
export async function requireRow(
  db: Kysely<any> | Db,
  table: string,
  column: string,
  id: number,
  field: string,
  label: string,
): Promise<Record<string, unknown>> {
  const row = await (db as Kysely<any>).selectFrom(table).selectAll().where(sql.ref(column), '=', id).executeTakeFirst();
  if (!row) throw invalid(field, `${label} not found`);
  return row as Record<string, unknown>;
}

/** system_config values of `keys` (missing keys are absent from the map). */
export async function readSystemConfig(db: Db, keys: readonly string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db.selectFrom('system_config').select(['config_key', 'config_value']).where('config_key', 'in', [...keys]).execute();
  return new Map(rows.map((r) => [r.config_key, r.config_value]));
}
