/** Generated accounting entries: commission expense against commission payable (seeded in V032). */
export const COMMISSION_EXPENSE_ACCOUNT = '5110';
export const COMMISSION_PAYABLE_ACCOUNT = '2110';
/** Payment entries (V032, V050): withholding tax payable, cash, agent receivables (deductions), input VAT. */
export const WITHHOLDING_PAYABLE_ACCOUNT = '2120';
export const CASH_ACCOUNT = '1110';
export const AGENT_RECEIVABLE_ACCOUNT = '1130';
export const INPUT_VAT_ACCOUNT = '1350';

/** Payments in this status are not income: they are left out of annual income and tax reports. */
export const EXCLUDED_PAYMENT_STATUS = 'FAIL';
