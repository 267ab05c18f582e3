import { commissionYearInMonth, lastDayOfMonth, monthsElapsed } from './calendar.js';
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
  const months = monthsElapsed(contractDate, lastDayOfMonth(settleMonth));
  if (months < 0) return false;
  return cycle === null ? months === 0 : months % cycle === 0;
}

/**
 * Maintain commission (rule 3 + DECISIONS) is due for ACTIVE/REVIVE contracts in commission years
 * 2 to 5, every month for MONTHLY, otherwise only in months a premium falls due.
 */
export function maintainEligibility(contract: MaintainContract, settleMonth: string): MaintainEligibility {
  const commissionYear = commissionYearInMonth(contract.contractDate, settleMonth);
  const due = isPremiumDue(contract.contractDate, contract.payCycle, settleMonth);
  if (!MAINTAIN_STATUSES.has(contract.status)) return { eligible: false, commissionYear, reason: 'STATUS' };
  if (commissionYear < 2 || commissionYear > 5) return { eligible: false, commissionYear, reason: 'COMMISSION_YEAR' };
  if (!due) return { eligible: false, commissionYear, reason: 'NO_PREMIUM_DUE' };
  return { eligible: true, commissionYear };
}
