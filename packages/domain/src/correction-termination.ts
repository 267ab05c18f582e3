import type { Decimal } from 'decimal.js';
import { isNegative, toDec, toNonNegative, ZERO, type DecimalInput } from './decimal.js';

/**
 * Termination settlement of a leaving agent: what is still owed to the agent (confirmed, unpaid net)
 * minus the chargeback installments still to come (accelerated: all due now) minus pending deductions,
 * plus the signed net of approved exceptions not yet settled. A negative final net is a receivable from
 * the agent, carried as a deduction.
 */
export interface TerminationInput {
  unpaidConfirmed: DecimalInput;
  futureChargebacks: DecimalInput;
  pendingDeductions: DecimalInput;
  /** signed: PLUS exceptions minus MINUS exceptions */
  pendingExceptions: DecimalInput;
}

export interface TerminationResult {
  finalNet: Decimal;
  /** -finalNet when negative, else 0 */
  receivable: Decimal;
}

export function calcTerminationSettlement(input: TerminationInput): TerminationResult {
  const finalNet = toDec(input.unpaidConfirmed, 'unpaidConfirmed')
    .minus(toNonNegative(input.futureChargebacks, 'futureChargebacks'))
    .minus(toNonNegative(input.pendingDeductions, 'pendingDeductions'))
    .plus(toDec(input.pendingExceptions, 'pendingExceptions'));
  return { finalNet, receivable: isNegative(finalNet) ? finalNet.negated() : ZERO };
}

export interface TaxInvoiceAmounts {
  supply: Decimal;
  vat: Decimal;
  total: Decimal;
}

/** A tax invoice of a TAXABLE agent's payment: supply = the payment amount, VAT = its VAT (rule 5). */
export function taxInvoiceAmounts(supply: DecimalInput, vat: DecimalInput): TaxInvoiceAmounts {
  const s = toNonNegative(supply, 'supply');
  const v = toNonNegative(vat, 'vat');
  return { supply: s, vat: v, total: s.plus(v) };
}
