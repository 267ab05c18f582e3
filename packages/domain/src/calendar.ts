import {
  commissionYearOf,
  daysInMonth,
  forwardMonths,
  formatIsoDate,
  monthEndOf,
  monthsToMonthEnd,
  pad2,
  pad4,
  parseIsoDate,
  parseSettleMonth,
  type YearMonth,
} from './date-parts.js';
import { DomainError } from './errors.js';

/*
 * Calendar helpers on plain strings: dates are 'YYYY-MM-DD' (as pg returns DATE), settle months
 * 'YYYYMM', quarters 'YYYY-Qn'. No JS Date is involved, so no time zone can shift a day.
 * The parsers and the settle-month end memo live in date-parts.ts.
 */
export { daysInMonth, formatIsoDate, isLeapYear, isValidSettleMonth, parseIsoDate, parseSettleMonth } from './date-parts.js';
export type { YearMonth, YearMonthDay } from './date-parts.js';

const QUARTER = /^(\d{4})-Q([1-4])$/;

export function formatSettleMonth({ year, month }: YearMonth): string {
  return `${pad4(year)}${pad2(month)}`;
}

/** Settle month n months later (n may be negative): shiftSettleMonth('202411', 3) = '202502'. */
export function shiftSettleMonth(settleMonth: string, months: number): string {
  const { year, month } = parseSettleMonth(settleMonth);
  return formatSettleMonth(fromMonthIndex(year * 12 + (month - 1) + months));
}

function fromMonthIndex(index: number): YearMonth {
  return { year: Math.floor(index / 12), month: (((index % 12) + 12) % 12) + 1 };
}

/** Whole settle months from `from` to `to`: ('202411', '202502') = 3. */
export function settleMonthDiff(from: string, to: string): number {
  const a = parseSettleMonth(from, 'from');
  const b = parseSettleMonth(to, 'to');
  return (b.year - a.year) * 12 + (b.month - a.month);
}

/** The settle month a date falls in: '2024-03-15' -> '202403'. */
export function settleMonthOfDate(date: string): string {
  return formatSettleMonth(parseIsoDate(date));
}

export function firstDayOfMonth(settleMonth: string): string {
  return formatIsoDate({ ...parseSettleMonth(settleMonth), day: 1 });
}

export function lastDayOfMonth(settleMonth: string): string {
  return monthEndOf(settleMonth).text;
}

/** True when first day <= date <= last day of the settle month. */
export function isDateInSettleMonth(date: string, settleMonth: string): boolean {
  parseIsoDate(date);
  return date >= firstDayOfMonth(settleMonth) && date <= lastDayOfMonth(settleMonth);
}

/**
 * Adds calendar months and clamps the day to the end of the target month:
 * addMonths('2024-01-31', 1) = '2024-02-29', addMonths('2023-01-31', 1) = '2023-02-28'.
 */
export function addMonths(date: string, months: number): string {
  const { year, month, day } = parseIsoDate(date);
  const target = fromMonthIndex(year * 12 + (month - 1) + months);
  return formatIsoDate({ ...target, day: Math.min(day, daysInMonth(target.year, target.month)) });
}

/**
 * Whole calendar months from `from` to `to`: the largest m with addMonths(from, m) <= to
 * (addMonths clamps to the month end). 2024-01-15 -> 2025-01-14 is 11, -> 2025-01-15 is 12;
 * 2024-01-31 -> 2024-02-28 is 0, -> 2024-02-29 is 1 (the clamped anniversary has been reached).
 * When `to` lies before `from` the result is minus the months from `to` to `from`.
 */
export function monthsElapsed(from: string, to: string): number {
  const a = parseIsoDate(from, 'from');
  const b = parseIsoDate(to, 'to');
  if (to < from) return -forwardMonths(b, a) || 0;
  return forwardMonths(a, b);
}

/**
 * Commission year of a contract in a settle month: floor(monthsElapsed(contractDate, last day of
 * the month) / 12) + 1. A contract dated after the month has not started: 0.
 */
export function commissionYearInMonth(contractDate: string, settleMonth: string): number {
  const end = monthEndOf(settleMonth);
  const elapsed = monthsToMonthEnd(contractDate, parseIsoDate(contractDate, 'from'), end);
  return commissionYearOf(contractDate, end, elapsed);
}

export function parseQuarter(quarter: string): { year: number; quarter: number } {
  const m = QUARTER.exec(quarter);
  if (!m || m[1] === '0000') throw new DomainError('INVALID_QUARTER', `quarter must be YYYY-Qn: ${quarter}`, 'quarter');
  return { year: Number(m[1]), quarter: Number(m[2]) };
}

/** '202405' -> '2024-Q2'. */
export function quarterOfSettleMonth(settleMonth: string): string {
  const { year, month } = parseSettleMonth(settleMonth);
  return `${pad4(year)}-Q${Math.ceil(month / 3)}`;
}

/** '2024-Q2' -> ['202404', '202405', '202406']. */
export function monthsOfQuarter(quarter: string): string[] {
  const { year, quarter: q } = parseQuarter(quarter);
  return [1, 2, 3].map((i) => formatSettleMonth({ year, month: (q - 1) * 3 + i }));
}

/** '2024-Q2' -> '202406'. */
export function lastMonthOfQuarter(quarter: string): string {
  const { year, quarter: q } = parseQuarter(quarter);
  return formatSettleMonth({ year, month: q * 3 });
}

/** Steps 11 and 12 run only in March, June, September and December. */
export function isQuarterEndMonth(settleMonth: string): boolean {
  return parseSettleMonth(settleMonth).month % 3 === 0;
}

/** Step 10 runs only when the settle month ends with 12. */
export function isYearEndMonth(settleMonth: string): boolean {
  return parseSettleMonth(settleMonth).month === 12;
}
