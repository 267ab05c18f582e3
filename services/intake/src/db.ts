import type { Database } from '@csp/db';
import type { Kysely } from 'kysely';

export type IntakeDatabase = Database;
export type IntakeDb = Kysely<IntakeDatabase>;

/** The service's Kysely instance (or transaction). */
export function intakeDb(db: Kysely<Database>): IntakeDb {
  return db;
}
