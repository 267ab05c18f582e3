import type { Decimal } from 'decimal.js';
import {
  calcSettlementAggregate,
  DEFAULT_SETTLEMENT_TAX_RATE,
  type SettlementAggregate,
  type SettlementSums,
} from './aggregate.js';
import { parseSettleMonth, shiftSettleMonth } from './calendar.js';
import { toDec, type DecimalInput } from './decimal.js';
import { DomainError } from './errors.js';
import { pct } from './rounding.js';

/**
 * Settlement corrections (DECISIONS "Settlement lifecycle"): an approved correction is booked into the
 * first OPEN month as an adjustment the aggregate counts as `correction_total`, part of gross.
 */

export interface SettlementSumsWithCorrection extends SettlementSums {
  /** Sum of the approved corrections booked into the month (signed). */
  correction: DecimalInput;
}

export interface SettlementAggregateWithCorrection extends SettlementAggregate {
  correction: Decimal;
}

/**
 * Rule 4 plus corrections: gross = (rule 4 gross) + correction; tax = pct(gross, TAX_RATE); net = gross - tax.
 * With no correction (0) every figure equals `calcSettlementAggregate`.
 */
export function calcSettlementWithCorrection(
  sums: SettlementSumsWithCorrection,
  taxRate: DecimalInput = DEFAULT_SETTLEMENT_TAX_RATE,
): SettlementAggregateWithCorrection {
  const base = calcSettlementAggregate(sums, taxRate);
  const correction = toDec(sums.correction, 'correction');
  if (correction.isZero()) return { ...base, correction };
  const gross = base.gross.plus(correction);
  const tax = pct(gross, toDec(taxRate, 'taxRate'));
  return { ...base, correction, gross, tax, net: gross.minus(tax) };
}

/** A correction amount: signed money with at most 2 places, never 0. */
export function correctionAmount(value: DecimalInput, field = 'amount'): Decimal {
  const d = toDec(value, field);
  if (d.isZero()) throw new DomainError('INVALID_NUMBER', `${field} must not be 0`, field);
  if (d.decimalPlaces() > 2) throw new DomainError('INVALID_NUMBER', `${field} must have at most 2 decimal places`, field);
  return d;
}

export interface CorrectionTargetInput {
  /** The month the correction is about. */
  originalMonth: string;
  /** CLOSED settle months. */
  closedMonths: ReadonlySet<string>;
  /** Months in which the agent's settlement is CONFIRMED, HOLD or PAID (a re-run would not count the line). */
  lockedMonths: ReadonlySet<string>;
  /** How far to look (default 120 months). */
  horizon?: number;
}

/**
 * The month an approved correction is booked into: the first month from the original month on that is
 * not CLOSED and in which the agent's settlement is still open to recalculation. Closed months are never
 * rewritten; a locked agent-month would not count the line, so it is skipped too.
 */
export function correctionTargetMonth(input: CorrectionTargetInput): string {
  parseSettleMonth(input.originalMonth, 'originalMonth');
  const horizon = input.horizon ?? 120;
  for (let i = 0; i <= horizon; i++) {
    const month = shiftSettleMonth(input.originalMonth, i);
    if (!input.closedMonths.has(month) && !input.lockedMonths.has(month)) return month;
  }
  throw new DomainError(
    'INVALID_SETTLE_MONTH',
    `no open month within ${horizon} months after ${input.originalMonth}`,
    'originalMonth',
  );
}
