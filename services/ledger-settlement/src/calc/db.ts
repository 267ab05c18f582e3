import type { Database } from '@csp/db';
import type { Kysely } from 'kysely';
// Until the lead merges LedgerTables into @csp/db's Database, the service widens the type here (and only here).
import type { LedgerTables } from '../../../../packages/db/src/schema/ledger.js';

export type LedgerDatabase = Database & LedgerTables;
export type LedgerDb = Kysely<LedgerDatabase>;

/** The same Kysely instance (or transaction) seen with the ledger tables. */
export function ledgerDb(db: Kysely<Database>): LedgerDb {
  return db as unknown as LedgerDb;
}

/** Settle rows in these states freeze the agent's month for the batch. */
export const LOCKED_SETTLE_STATUSES = ['CONFIRMED', 'HOLD', 'PAID'] as const;
