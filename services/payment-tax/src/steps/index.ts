import type { StepDefinition } from '@csp/batch';
import { accountingEntryGenerate } from './accounting-entry-generate.js';
import { vatReportQuarterly } from './vat-report-quarterly.js';
import { withholdingTaxQuarterly } from './withholding-tax-quarterly.js';
import { yearEndIncomeAggregate } from './year-end-income-aggregate.js';

export { accountingEntryGenerate } from './accounting-entry-generate.js';
export { yearEndIncomeAggregate } from './year-end-income-aggregate.js';
export { withholdingTaxQuarterly } from './withholding-tax-quarterly.js';
export { vatReportQuarterly } from './vat-report-quarterly.js';
export {
  COMMISSION_EXPENSE_ACCOUNT,
  COMMISSION_PAYABLE_ACCOUNT,
  EXCLUDED_PAYMENT_STATUS,
} from './accounting-codes.js';

/** Steps 9-12 of the settlement batch, hosted by the payment-tax service. */
export const paymentTaxSteps: readonly StepDefinition[] = [
  accountingEntryGenerate,
  yearEndIncomeAggregate,
  withholdingTaxQuarterly,
  vatReportQuarterly,
];
