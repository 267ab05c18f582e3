import type { Database } from '@csp/db';
import type { Kysely } from 'kysely';

export type PaymentTaxDatabase = Database;
export type PaymentTaxDb = Kysely<PaymentTaxDatabase>;

/** The service's Kysely instance (or transaction). */
export function paymentTaxDb(db: Kysely<Database>): PaymentTaxDb {
  return db;
}
