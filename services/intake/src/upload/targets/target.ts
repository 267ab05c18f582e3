import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database, UploadTargetTable, UploadTargetType } from '@csp/db';
import type { FieldCipher, PermCode } from '@csp/service-kit';

/** A field of a target table a template column can fill (GET /api/upload-templates/target-fields/{table}). */
export interface TargetField {
  field: string;
  label: string;
  type: UploadTargetType;
  required: boolean;
  description?: string;
}

export interface ImportContext {
  /** For reads (lookups); writes get their own transaction. */
  db: Kysely<Database>;
  cipher: FieldCipher;
  userId: number | null;
  /** The template's carrier (NULL = any). */
  companyCode: string | null;
}

export type { RowScope } from './owner-body.js';
import type { RowScope } from './owner-body.js';

export type Prepared<V> = { ok: true; values: V } | { ok: false; field: string | null; message: string };

/**
 * One of the nine whitelisted import targets (spec 2.5). The row schema and `prepare` apply the
 * rules of the owning resource's API: its save schema (fields, value sets, formats) per row, then
 * its business checks batched (existence of references, periods, encryption).
 */
export interface ImportTarget<D = unknown, V = unknown> {
  table: UploadTargetTable;
  label: string;
  /** The service that owns the table. */
  owner: 'master-data' | 'ledger-settlement' | 'payment-tax';
  /** What the importing user must also hold for this table (besides the upload route's own pair). */
  permission: { menu: string; perm: PermCode };
  fields: readonly TargetField[];
  /**
   * The row schema of one import (built once per import): the owning resource's save schema where
   * the owner has one (owner-body.ts), else intake's own cells for the owner's columns.
   */
  rowSchema(scope: RowScope): z.ZodType<D>;
  /** One import's session (its caches live as long as the import). */
  open(ctx: ImportContext): TargetSession<D, V>;
}

/** Batch lookups and business checks of validated rows: the row to insert, or why not. */
interface SessionChecks<D, V> {
  prepare(rows: readonly D[]): Promise<Prepared<V>[]>;
}

/**
 * One import's session. A batch goes into `copyTable` (values: one column per key, the same keys in
 * every row) by COPY, and when the database refuses it, by plain inserts of the same rows there;
 * `insert` writes a batch (in the batch's transaction) where that is not enough (e.g. RETURNING
 * for a second table).
 */
export type TargetSession<D, V> = SessionChecks<D, V> &
  (
    | {
        copyTable: keyof Database & string;
        insert?(trx: Kysely<Database>, rows: readonly V[]): Promise<void>;
      }
    | { copyTable?: undefined; insert(trx: Kysely<Database>, rows: readonly V[]): Promise<void> }
  );

export function rejected(field: string | null, message: string): Prepared<never> {
  return { ok: false, field, message };
}

/** A cache of id -> answer across the batches of one import. */
export async function cachedLookup<K, A>(
  cache: Map<K, A>,
  keys: Iterable<K>,
  load: (missing: K[]) => Promise<Map<K, A>>,
  absent: A,
): Promise<Map<K, A>> {
  const missing = [...new Set(keys)].filter((k) => !cache.has(k));
  if (missing.length) {
    const found = await load(missing);
    for (const k of missing) cache.set(k, found.get(k) ?? absent);
  }
  return cache;
}
