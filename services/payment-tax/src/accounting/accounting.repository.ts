import type { PaymentTaxDb } from '../db.js';

/** The balance snapshots of a close, by account code. */
export function accountCloseSnapshots(db: PaymentTaxDb, closeId: number) {
  return db
    .selectFrom('account_balance_snapshot')
    .select(['account_code', 'account_name', 'debit_amount', 'credit_amount', 'balance_amount'])
    .where('close_id', '=', closeId)
    .orderBy('account_code')
    .execute();
}
