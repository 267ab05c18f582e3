import type { Database } from '@csp/db';
import { sql, type Kysely, type RawBuilder } from 'kysely';

export type LedgerDatabase = Database;
export type LedgerDb = Kysely<LedgerDatabase>;

/** The same Kysely instance (or transaction) seen with the ledger tables. */
export function ledgerDb(db: Kysely<Database>): LedgerDb {
  return db;
}

/** Settle rows in these states freeze the agent's month for the batch (one list in packages/db values.ts). */
export { LOCKED_SETTLE_STATUSES } from '@csp/db';

/** Tables the steps write and also read in other months than the run's (history). */
export type HistoryTable = 'recruit_ledger' | 'maintain_ledger' | 'exception_ledger' | 'chargeback';

/**
 * The real table, schema-qualified, for reads of months other than the run's month. In a real run it is the
 * same table as the unqualified name; in a what-if simulation (search_path = sim_<id>, public, issue 26) the
 * unqualified name is the scratch copy holding only the simulated month, and history must come from public.
 */
export function historyTable(table: HistoryTable): RawBuilder<unknown> {
  return sql.table(`public.${table}`);
}
