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
