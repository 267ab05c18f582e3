import type { Database } from '@csp/db';
import type { Kysely } from 'kysely';
// Until the lead merges IntakeTables (and ledger-settlement's LedgerTables) into @csp/db's Database,
// the service widens the type here, and only here.
import type { IntakeTables } from '../../../packages/db/src/schema/intake.js';
import type { LedgerTables } from '../../../packages/db/src/schema/ledger.js';

export type IntakeDatabase = Database & IntakeTables & LedgerTables;
export type IntakeDb = Kysely<IntakeDatabase>;

/** The same Kysely instance (or transaction) seen with the intake and ledger tables. */
export function intakeDb(db: Kysely<Database>): IntakeDb {
  return db as unknown as IntakeDb;
}
