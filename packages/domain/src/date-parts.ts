import { DomainError } from './errors.js';

/**
 * Parsing behind calendar.ts, written for the settlement batch's per-contract path: fixed-width
 * strings are read by char code (no regex, no match arrays) with exactly the validation the former
 * patterns /^(\d{4})(0[1-9]|1[0-2])$/ and /^(\d{4})-(\d{2})-(\d{2})$/ applied. Values that are not
 * strings are converted like RegExp#exec converts them, so untyped callers see the same errors.
 */
export interface YearMonth {
  year: number;
  month: number;
}

export interface YearMonthDay extends YearMonth {
  day: number;
}

/** The last day of a settle month, parsed and as 'YYYY-MM-DD'. Shared by the memo: never mutate. */
export interface MonthEnd extends YearMonthDay {
  readonly text: string;
}

const ZERO_CODE = 48;
const DASH_CODE = 45;

export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

export function pad4(n: number): string {
  return String(n).padStart(4, '0');
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function asText(value: string): string {
  return typeof value === 'string' ? value : `${value as unknown as string}`;
}

/** The number written by s[from..to) when every char is an ASCII digit, else -1. */
function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - ZERO_CODE;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** 'YYYYMM' with month 01..12 and year not 0000, else null. */
function settleMonthParts(s: string): YearMonth | null {
  if (s.length !== 6) return null;
  const year = digits(s, 0, 4);
  const month = digits(s, 4, 6);
  return year > 0 && month >= 1 && month <= 12 ? { year, month } : null;
}

function invalidSettleMonth(settleMonth: string, field: string): DomainError {
  return new DomainError('INVALID_SETTLE_MONTH', `settle month must be YYYYMM: ${settleMonth}`, field);
}

export function parseSettleMonth(settleMonth: string, field = 'settleMonth'): YearMonth {
  const parts = settleMonthParts(asText(settleMonth));
  if (parts === null) throw invalidSettleMonth(settleMonth, field);
  return parts;
}

export function isValidSettleMonth(settleMonth: string): boolean {
  return settleMonthParts(asText(settleMonth)) !== null;
}

export function parseIsoDate(date: string, field = 'date'): YearMonthDay {
  const s = asText(date);
  if (s.length === 10 && s.charCodeAt(4) === DASH_CODE && s.charCodeAt(7) === DASH_CODE) {
    const year = digits(s, 0, 4);
    const month = digits(s, 5, 7);
    const day = digits(s, 8, 10);
    if (year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) {
      return { year, month, day };
    }
  }
  throw new DomainError('INVALID_DATE', `date must be a real YYYY-MM-DD date: ${date}`, field);
}

export function formatIsoDate({ year, month, day }: YearMonthDay): string {
  return `${pad4(year)}-${pad2(month)}-${pad2(day)}`;
}

/*
 * A batch asks for one settle month per contract, hundreds of thousands of times; the month end is
 * computed once per month. Bounded: a caller cycling through many months just starts over.
 */
const MONTH_END_CAPACITY = 64;
const monthEnds = new Map<string, MonthEnd>();

/** The month end of a settle month; an invalid month throws like parseSettleMonth(settleMonth). */
export function monthEndOf(settleMonth: string): MonthEnd {
  const key = asText(settleMonth);
  const cached = monthEnds.get(key);
  if (cached !== undefined) return cached;
  const parts = settleMonthParts(key);
  if (parts === null) throw invalidSettleMonth(settleMonth, 'settleMonth');
  const { year, month } = parts;
  const day = daysInMonth(year, month);
  const end: MonthEnd = Object.freeze({ year, month, day, text: formatIsoDate({ year, month, day }) });
  if (monthEnds.size >= MONTH_END_CAPACITY) monthEnds.clear();
  monthEnds.set(key, end);
  return end;
}

/** Whole months from a to b when a <= b (see calendar.ts monthsElapsed). */
export function forwardMonths(a: YearMonthDay, b: YearMonthDay): number {
  const months = (b.year - a.year) * 12 + (b.month - a.month);
  // addMonths(a, months) lies in b's month on day min(a.day, month length); one less when past b.
  return Math.min(a.day, daysInMonth(b.year, b.month)) > b.day ? months - 1 : months;
}

/**
 * monthsElapsed(date, end.text) for a date already parsed: the canonical strings order like the
 * dates, so the string comparison picks the direction exactly as monthsElapsed does.
 */
export function monthsToMonthEnd(date: string, parsed: YearMonthDay, end: MonthEnd): number {
  if (end.text < date) return -forwardMonths(end, parsed) || 0;
  return forwardMonths(parsed, end);
}

/** Commission year from the months to the month end: 0 for a contract dated after the month. */
export function commissionYearOf(date: string, end: MonthEnd, elapsed: number): number {
  return date > end.text ? 0 : Math.floor(elapsed / 12) + 1;
}
