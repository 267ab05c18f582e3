import type { Decimal } from 'decimal.js';
import { ZERO, toDec, toNonNegative, type DecimalInput } from './decimal.js';

export interface DeductionRow {
  deductionId: number;
  amount: DecimalInput;
  status: string;
}

export interface AppliedDeduction {
  deductionId: number;
  amount: Decimal;
}

export interface DeductionApplication {
  /** One payment_deduction_detail row each; every one becomes APPLIED. */
  applied: AppliedDeduction[];
  deductionSum: Decimal;
  net: Decimal;
}

/**
 * Rule 6: the PENDING deductions (of the payment's agent and settle month; the caller selects those)
 * are summed and taken off the current net: net = currentNet - deductionSum. Other statuses are
 * ignored. A net may become negative; the payment screen shows it, nothing here clamps it.
 */
export function applyDeductions(currentNet: DecimalInput, deductions: readonly DeductionRow[]): DeductionApplication {
  const net = toDec(currentNet, 'currentNet');
  const applied: AppliedDeduction[] = [];
  let deductionSum = ZERO;
  for (const d of deductions) {
    if (d.status !== 'PENDING') continue;
    const amount = toNonNegative(d.amount, 'deduction.amount');
    applied.push({ deductionId: d.deductionId, amount });
    deductionSum = deductionSum.plus(amount);
  }
  return { applied, deductionSum, net: net.minus(deductionSum) };
}
