import { commissionYearOf, monthEndOf, monthsToMonthEnd, parseIsoDate } from './date-parts.js';
import { DomainError } from './errors.js';

export type PayCycle = 'MONTHLY' | 'QUARTERLY' | 'SEMI_ANNUAL' | 'ANNUAL' | 'SINGLE';

/** Months between two premiums; SINGLE is paid once, at the contract. */
const CYCLE_MONTHS: Record<PayCycle, number | null> = {
  MONTHLY: 1,
  QUARTERLY: 3,
  SEMI_ANNUAL: 6,
  ANNUAL: 12,
  SINGLE: null,
};

const MAINTAIN_STATUSES = new Set(['ACTIVE', 'REVIVE']);

export interface MaintainContract {
  status: string;
  contractDate: string;
  payCycle: string;
}

export type MaintainIneligibleReason = 'STATUS' | 'COMMISSION_YEAR' | 'NO_PREMIUM_DUE';

export interface MaintainEligibility {
  eligible: boolean;
  commissionYear: number;
  reason?: MaintainIneligibleReason;
}

export function cycleMonths(payCycle: string): number | null {
  if (!Object.hasOwn(CYCLE_MONTHS, payCycle)) {
    throw new DomainError('INVALID_PAY_CYCLE', `unknown pay cycle: ${payCycle}`, 'payCycle');
  }
  return CYCLE_MONTHS[payCycle as PayCycle];
}

/**
 * Whether a premium falls due in the settle month: the months from the contract date to the end of
 * the month (= the calendar month difference) divide by the cycle length. SINGLE: only month 0.
 */
export function isPremiumDue(contractDate: string, payCycle: string, settleMonth: string): boolean {
  const cycle = cycleMonths(payCycle);
  const end = monthEndOf(settleMonth);
  return premiumDue(cycle, monthsToMonthEnd(contractDate, parseIsoDate(contractDate, 'from'), end));
}

function premiumDue(cycle: number | null, months: number): boolean {
  if (months < 0) return false;
  return cycle === null ? months === 0 : months % cycle === 0;
}

/**
 * Maintain commission (rule 3 + DECISIONS) is due for ACTIVE/REVIVE contracts in commission years
 * 2 to 5, every month for MONTHLY, otherwise only in months a premium falls due.
 */
export function maintainEligibility(contract: MaintainContract, settleMonth: string): MaintainEligibility {
  // commissionYearInMonth and isPremiumDue in one pass: one month end (memoised), one date parse,
  // one month count; inputs are validated in their order (month, contract date, pay cycle).
  const { contractDate } = contract;
  const end = monthEndOf(settleMonth);
  const months = monthsToMonthEnd(contractDate, parseIsoDate(contractDate, 'from'), end);
  const cycle = cycleMonths(contract.payCycle);
  const commissionYear = commissionYearOf(contractDate, end, months);
  if (!MAINTAIN_STATUSES.has(contract.status)) return { eligible: false, commissionYear, reason: 'STATUS' };
  if (commissionYear < 2 || commissionYear > 5) return { eligible: false, commissionYear, reason: 'COMMISSION_YEAR' };
  if (!premiumDue(cycle, months)) return { eligible: false, commissionYear, reason: 'NO_PREMIUM_DUE' };
  return { eligible: true, commissionYear };
}
