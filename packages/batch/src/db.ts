import type { Database, Db } from '@csp/db';
import type { Kysely } from 'kysely';
// TEMPORARY until the lead merges BatchTables into `Database` (packages/db/src/schema/index.ts);
// then import BatchTables from '@csp/db' and drop this relative path. The only place that widens.
import type { BatchTables } from '../../db/src/schema/batch.js';

export type {
  BatchChunkStatus,
  BatchJobLog,
  BatchChunk,
  BatchStatus,
  BatchTables,
} from '../../db/src/schema/batch.js';

export type BatchDatabase = Database & BatchTables;
export type BatchDb = Kysely<BatchDatabase>;

/** The service's Kysely instance seen with the batch tables (same object, wider type). */
export function batchDb(db: Db | Kysely<Database>): BatchDb {
  return db as unknown as BatchDb;
}
