import type { Decimal } from 'decimal.js';
import { isNegative, toDec, toNonNegative, ZERO, type DecimalInput } from './decimal.js';

/**
 * Termination settlement of a leaving agent, final month T = the month of the leave date:
 *
 *   finalNet = unpaidConfirmed - futureChargebacks - pendingDeductions + pendingExceptions
 *
 * Each amount the agent has won or owes is counted exactly once, either here or in its regular channel,
 * never in both:
 * - unpaidConfirmed: gross of the CONFIRMED settle rows (open months) with no live payment and no negative
 *   gross already carried forward (that one is a pending deduction). Gross, because the termination pays or
 *   offsets them instead of payment-tax: on approval they are withheld (HOLD), so they are not paid as well.
 * - futureChargebacks: CALCULATED installments due after T, accelerated (all due now); on approval they are
 *   CANCELLED so the monthly runs of their months do not charge them again. Installments due in T or
 *   earlier stay with the run of their month (the agent's last monthly settlements), like everything else
 *   that month counts.
 * - pendingDeductions: PENDING deductions of T and earlier (CANCELLED on approval: taken over). Deductions of
 *   later months are already scheduled to be netted in their month and are left out.
 * - pendingExceptions (signed): exceptions of open months up to T that no settle row will count: rows of a
 *   month whose settle row is CONFIRMED or PAID that are PENDING or were approved after its calculation
 *   (CANCELLED on approval). Exceptions of months a run still recalculates stay with that run.
 * The final net is then carried by ONE item: negative = a receivable from the agent, ONE deduction of
 * -finalNet; positive = ONE correction of +finalNet booked into the first open month (paid like any gross).
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

/** Kinds of the rows a termination counts (termination_settlement_item.item_kind). */
export type TerminationItemKind = 'UNPAID_CONFIRMED' | 'FUTURE_CHARGEBACK' | 'PENDING_DEDUCTION' | 'PENDING_EXCEPTION';

export interface TerminationItem {
  kind: TerminationItemKind;
  /** signed contribution to the final net: gross of an unpaid row, -installment, -deduction, +/-exception */
  contribution: DecimalInput;
}

export interface TerminationTotals extends TerminationResult {
  unpaidConfirmed: Decimal;
  futureChargebacks: Decimal;
  pendingDeductions: Decimal;
  pendingExceptions: Decimal;
}

/** The four components and the final net of a termination from the rows it counts (each row once). */
export function terminationTotals(items: readonly TerminationItem[]): TerminationTotals {
  const totals: Record<TerminationItemKind, Decimal> = {
    UNPAID_CONFIRMED: ZERO,
    FUTURE_CHARGEBACK: ZERO,
    PENDING_DEDUCTION: ZERO,
    PENDING_EXCEPTION: ZERO,
  };
  for (const item of items) totals[item.kind] = totals[item.kind].plus(toDec(item.contribution, 'contribution'));
  const parts = {
    unpaidConfirmed: totals.UNPAID_CONFIRMED,
    futureChargebacks: totals.FUTURE_CHARGEBACK.negated(),
    pendingDeductions: totals.PENDING_DEDUCTION.negated(),
    pendingExceptions: totals.PENDING_EXCEPTION,
  };
  return { ...parts, ...calcTerminationSettlement(parts) };
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
