import type { Database } from '@csp/db';
import type { Kysely } from 'kysely';
// Until the lead merges PaymentTaxTables (and ledger-settlement's LedgerTables) into @csp/db's
// Database, the service widens the type here, and only here.
import type { LedgerTables } from '../../../packages/db/src/schema/ledger.js';
import type { PaymentTaxTables } from '../../../packages/db/src/schema/payment-tax.js';

export type PaymentTaxDatabase = Database & PaymentTaxTables & LedgerTables;
export type PaymentTaxDb = Kysely<PaymentTaxDatabase>;

/** The same Kysely instance (or transaction) seen with the payment-tax and ledger tables. */
export function paymentTaxDb(db: Kysely<Database>): PaymentTaxDb {
  return db as unknown as PaymentTaxDb;
}
