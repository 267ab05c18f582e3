import type { Decimal } from 'decimal.js';
import { toDec, type DecimalInput } from './decimal.js';
import { pct } from './rounding.js';

/** system_config TAX_RATE default (spec 8). */
export const DEFAULT_SETTLEMENT_TAX_RATE = '3.3';

export interface SettlementSums {
  recruit: DecimalInput;
  maintain: DecimalInput;
  override: DecimalInput;
  exceptionPlus: DecimalInput;
  exceptionMinus: DecimalInput;
  chargeback: DecimalInput;
}

export interface SettlementAggregate {
  recruit: Decimal;
  maintain: Decimal;
  override: Decimal;
  exceptionPlus: Decimal;
  exceptionMinus: Decimal;
  chargeback: Decimal;
  gross: Decimal;
  tax: Decimal;
  net: Decimal;
}

/**
 * Rule 4: gross = recruit + maintain + override + exceptionPlus - chargeback - exceptionMinus;
 * tax = pct(gross, TAX_RATE) (scale 2; a negative gross gives a negative tax); net = gross - tax.
 * Sums are taken as given (they are totals of signed ledger rows).
 */
export function calcSettlementAggregate(
  sums: SettlementSums,
  taxRate: DecimalInput = DEFAULT_SETTLEMENT_TAX_RATE,
): SettlementAggregate {
  const recruit = toDec(sums.recruit, 'recruit');
  const maintain = toDec(sums.maintain, 'maintain');
  const override = toDec(sums.override, 'override');
  const exceptionPlus = toDec(sums.exceptionPlus, 'exceptionPlus');
  const exceptionMinus = toDec(sums.exceptionMinus, 'exceptionMinus');
  const chargeback = toDec(sums.chargeback, 'chargeback');
  const gross = recruit.plus(maintain).plus(override).plus(exceptionPlus).minus(chargeback).minus(exceptionMinus);
  const tax = pct(gross, toDec(taxRate, 'taxRate'));
  return { recruit, maintain, override, exceptionPlus, exceptionMinus, chargeback, gross, tax, net: gross.minus(tax) };
}

export interface SettlementSumsWithOther extends SettlementSums {
  /** Approved settlement corrections booked into the month (signed); 0 when absent. */
  correction?: DecimalInput;
  /**
   * other_total: the month's collection, renewal, reinstatement, persistency and appointment rows,
   * approved incentives and commission-master adjustments, of the types counted in gross.
   */
  other: DecimalInput;
}

export interface SettlementAggregateWithOther extends SettlementAggregate {
  correction: Decimal;
  other: Decimal;
}

/**
 * Rule 4 plus corrections and other commission types (DECISIONS "Settlement lifecycle"):
 * gross = (rule 4 gross) + correction + other; tax = pct(gross, TAX_RATE); net = gross - tax.
 * With correction and other both 0 every figure equals `calcSettlementAggregate`; with other 0 it
 * equals `calcSettlementWithCorrection`.
 */
export function calcSettlementWithOther(
  sums: SettlementSumsWithOther,
  taxRate: DecimalInput = DEFAULT_SETTLEMENT_TAX_RATE,
): SettlementAggregateWithOther {
  const base = calcSettlementAggregate(sums, taxRate);
  const correction = toDec(sums.correction ?? '0', 'correction');
  const other = toDec(sums.other, 'other');
  if (correction.isZero() && other.isZero()) return { ...base, correction, other };
  const gross = base.gross.plus(correction).plus(other);
  const tax = pct(gross, toDec(taxRate, 'taxRate'));
  return { ...base, correction, other, gross, tax, net: gross.minus(tax) };
}
