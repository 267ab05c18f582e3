/** Generated accounting entries: commission expense against commission payable (seeded in V032). */
export const COMMISSION_EXPENSE_ACCOUNT = '5110';
export const COMMISSION_PAYABLE_ACCOUNT = '2110';

/** Payments in this status are not income: they are left out of annual income and tax reports. */
export const EXCLUDED_PAYMENT_STATUS = 'FAIL';
