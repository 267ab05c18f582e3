import type { Database } from '@csp/db';
import type { Kysely } from 'kysely';

export type LedgerDatabase = Database;
export type LedgerDb = Kysely<LedgerDatabase>;

/** The same Kysely instance (or transaction) seen with the ledger tables. */
export function ledgerDb(db: Kysely<Database>): LedgerDb {
  return db;
}

/** Settle rows in these states freeze the agent's month for the batch. */
export const LOCKED_SETTLE_STATUSES = ['CONFIRMED', 'HOLD', 'PAID'] as const;
