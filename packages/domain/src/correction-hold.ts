import { parseIsoDate } from './calendar.js';
import { toDec, type DecimalInput } from './decimal.js';
import { formatMoney } from './rounding.js';

/**
 * Release conditions of settlement holds (DECISIONS "Settlement lifecycle"): every monthly run releases
 * the holds whose condition is met; the list of held rows says why each one is still held.
 */
export type HoldCondition =
  | { type: 'NONE' }
  | { type: 'UNTIL_DATE'; untilDate: string }
  | { type: 'LICENSE_VALID' }
  | { type: 'TRAINING_HOURS'; year: number; hours: DecimalInput }
  | { type: 'DISPUTE_CLOSED'; disputeId: number };

/** What the conditions are decided on, read for the held agent. */
export interface HoldFacts {
  /** The date the condition is checked on (YYYY-MM-DD). */
  today: string;
  /** A license valid on `today` (ACTIVE, issued on or before, not expired), if any. */
  validLicense: { licenseNo: string; expiryDate: string | null } | null;
  /** COMPLETED training hours of the condition's year. */
  trainingHours: DecimalInput;
  /** Status of the condition's dispute (null when it does not exist). */
  disputeStatus: string | null;
}

export interface HoldConditionState {
  met: boolean;
  /** Why it is met (released) or why the row is still held. */
  because: string;
}

const CLOSED_DISPUTE = new Set(['APPROVED', 'REJECTED']);

export function evaluateHoldCondition(condition: HoldCondition, facts: HoldFacts): HoldConditionState {
  parseIsoDate(facts.today, 'today');
  switch (condition.type) {
    case 'NONE':
      return { met: false, because: 'no release condition: released by hand only' };
    case 'UNTIL_DATE': {
      parseIsoDate(condition.untilDate, 'untilDate');
      return facts.today >= condition.untilDate
        ? { met: true, because: `${condition.untilDate} reached` }
        : { met: false, because: `held until ${condition.untilDate}` };
    }
    case 'LICENSE_VALID': {
      const l = facts.validLicense;
      if (!l) return { met: false, because: `no license valid on ${facts.today}` };
      return {
        met: true,
        because: `license ${l.licenseNo} valid ${l.expiryDate ? `until ${l.expiryDate}` : 'without expiry'}`,
      };
    }
    case 'TRAINING_HOURS': {
      const done = toDec(facts.trainingHours, 'trainingHours');
      const needed = toDec(condition.hours, 'hours');
      const text = `${formatMoney(done)} of ${formatMoney(needed)} training hours in ${condition.year}`;
      return done.gte(needed) ? { met: true, because: `${text} completed` } : { met: false, because: text };
    }
    case 'DISPUTE_CLOSED': {
      const status = facts.disputeStatus;
      if (status === null) return { met: false, because: `dispute ${condition.disputeId} not found` };
      return CLOSED_DISPUTE.has(status)
        ? { met: true, because: `dispute ${condition.disputeId} ${status}` }
        : { met: false, because: `dispute ${condition.disputeId} is ${status}` };
    }
  }
}
