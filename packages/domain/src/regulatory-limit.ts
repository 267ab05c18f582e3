import type { Decimal } from 'decimal.js';
import { D, toDec, toNonNegative, type DecimalInput } from './decimal.js';
import { DomainError } from './errors.js';
import { findClosed, type EffectiveRow } from './lookup.js';
import { pct } from './rounding.js';

export type LimitType = 'TOTAL_RATIO' | 'FIRST_YEAR_RATIO' | 'INSTALLMENT_YEARS';
export type LimitUnit = 'PERCENT' | 'YEAR';

export interface RegulatoryLimitRow extends EffectiveRow {
  limitId?: number;
  limitType: string;
  /** NULL or 'ALL' = all categories */
  productCategory?: string | null;
  limitValue: DecimalInput;
  unit: string;
}

export interface LimitCheckInput {
  limit: Pick<RegulatoryLimitRow, 'limitType' | 'limitValue' | 'unit'>;
  /** The contract's premium: the basis of the ratio. */
  premium: DecimalInput;
  /** TOTAL_RATIO: agent_amount of recruit + maintain ledgers; FIRST_YEAR_RATIO: recruit year 1 only. */
  accumulated: DecimalInput;
  additional: DecimalInput;
}

export interface LimitCheck {
  limitType: string;
  limitValue: Decimal;
  limitAmount: Decimal;
  accumulated: Decimal;
  additional: Decimal;
  /** limitAmount - accumulated - additional; negative when violated. */
  remaining: Decimal;
  violated: boolean;
}

export interface YearLimitCheck {
  limitType: string;
  limitValue: Decimal;
  years: number;
  violated: boolean;
}

/** Closed lookup (2.4) of the limit of a type for a product category, valid on the base date. */
export function lookupRegulatoryLimit<T extends RegulatoryLimitRow>(
  limits: readonly T[],
  query: { limitType: string; productCategory?: string | null; date: string },
): T | undefined {
  return findClosed(limits, query.date, (l) => l.limitType === query.limitType, {
    category: query.productCategory ?? null,
  });
}

function requireUnit(unit: string, expected: LimitUnit): void {
  if (unit !== expected) {
    throw new DomainError('INVALID_LIMIT_UNIT', `limit unit must be ${expected}, got ${unit}`, 'unit');
  }
}

/**
 * Rule 8 + DECISIONS, unit PERCENT: limitAmount = pct(premium, limitValue); violated when
 * accumulated + additional > limitAmount (reaching the limit exactly is allowed).
 */
export function checkRegulatoryLimit(input: LimitCheckInput): LimitCheck {
  requireUnit(input.limit.unit, 'PERCENT');
  const limitValue = toNonNegative(input.limit.limitValue, 'limitValue');
  const limitAmount = pct(toNonNegative(input.premium, 'premium'), limitValue);
  const accumulated = toDec(input.accumulated, 'accumulated');
  const additional = toDec(input.additional, 'additional');
  const remaining = limitAmount.minus(accumulated).minus(additional);
  return {
    limitType: input.limit.limitType,
    limitValue,
    limitAmount,
    accumulated,
    additional,
    remaining,
    violated: remaining.lt(0),
  };
}

/** INSTALLMENT_YEARS (unit YEAR): a plan of `years` years is violated when years > limitValue. */
export function checkInstallmentYears(
  limit: Pick<RegulatoryLimitRow, 'limitType' | 'limitValue' | 'unit'>,
  years: number,
): YearLimitCheck {
  requireUnit(limit.unit, 'YEAR');
  const limitValue = toNonNegative(limit.limitValue, 'limitValue');
  return { limitType: limit.limitType, limitValue, years, violated: new D(years).gt(limitValue) };
}
