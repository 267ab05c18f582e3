import type { BatchTables, Database, Db } from '@csp/db';
import type { Kysely } from 'kysely';

export type { BatchChunkStatus, BatchJobLog, BatchChunk, BatchStatus, BatchTables } from '@csp/db';

export type BatchDatabase = Database & BatchTables;
export type BatchDb = Kysely<BatchDatabase>;

/** The service's Kysely instance seen with the batch tables (same object, wider type). */
export function batchDb(db: Db | Kysely<Database>): BatchDb {
  return db as unknown as BatchDb;
}
