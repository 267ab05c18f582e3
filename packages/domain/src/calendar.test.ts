import { describe, expect, it } from 'vitest';
import {
  addMonths,
  commissionYearInMonth,
  daysInMonth,
  firstDayOfMonth,
  formatSettleMonth,
  isDateInSettleMonth,
  isQuarterEndMonth,
  isValidSettleMonth,
  isYearEndMonth,
  lastDayOfMonth,
  lastMonthOfQuarter,
  monthsElapsed,
  monthsOfQuarter,
  parseIsoDate,
  parseQuarter,
  parseSettleMonth,
  quarterOfSettleMonth,
  settleMonthDiff,
  settleMonthOfDate,
  shiftSettleMonth,
} from './calendar.js';
import { DomainError } from './errors.js';

describe('settle months', () => {
  it('parses YYYYMM and formats it back', () => {
    expect(parseSettleMonth('202401')).toEqual({ year: 2024, month: 1 });
    expect(formatSettleMonth({ year: 987, month: 3 })).toBe('098703');
  });

  it.each(['202413', '202400', '2024-01', '20241', '2024011', 'abcdef', '000001', ''])('rejects %j with INVALID_SETTLE_MONTH', (bad) => {
    expect(() => parseSettleMonth(bad)).toThrow(expect.objectContaining({ code: 'INVALID_SETTLE_MONTH', field: 'settleMonth' }));
    expect(isValidSettleMonth(bad)).toBe(false);
  });

  it('names the field it was given', () => {
    expect(() => parseSettleMonth('x', 'fromMonth')).toThrow(expect.objectContaining({ field: 'fromMonth' }));
  });

  it('accepts valid months', () => {
    expect(isValidSettleMonth('199912')).toBe(true);
  });

  it('shifts across year ends in both directions', () => {
    expect(shiftSettleMonth('202411', 3)).toBe('202502');
    expect(shiftSettleMonth('202402', -14)).toBe('202212');
    expect(shiftSettleMonth('202401', 0)).toBe('202401');
  });

  it('counts months between settle months', () => {
    expect(settleMonthDiff('202411', '202502')).toBe(3);
    expect(settleMonthDiff('202502', '202411')).toBe(-3);
  });

  it('gives the first and last day and the month of a date', () => {
    expect(firstDayOfMonth('202402')).toBe('2024-02-01');
    expect(lastDayOfMonth('202404')).toBe('2024-04-30');
    expect(lastDayOfMonth('202412')).toBe('2024-12-31');
    expect(settleMonthOfDate('2024-03-15')).toBe('202403');
  });

  it('tells whether a date lies in a settle month (both ends included)', () => {
    expect(isDateInSettleMonth('2024-02-01', '202402')).toBe(true);
    expect(isDateInSettleMonth('2024-02-29', '202402')).toBe(true);
    expect(isDateInSettleMonth('2024-03-01', '202402')).toBe(false);
    expect(isDateInSettleMonth('2024-01-31', '202402')).toBe(false);
  });
});

describe('dates', () => {
  it('knows month lengths and leap years', () => {
    expect([1, 2, 3, 4, 6, 9, 11, 12].map((m) => daysInMonth(2023, m))).toEqual([31, 28, 31, 30, 30, 30, 30, 31]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
  });

  it.each(['2023-02-29', '2024-13-01', '2024-00-10', '2024-01-00', '2024-1-1', '0000-01-01', '20240101'])('rejects %j with INVALID_DATE', (bad) => {
    expect(() => parseIsoDate(bad)).toThrow(expect.objectContaining({ code: 'INVALID_DATE' }));
  });

  it('adds months and clamps to the month end', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2023-01-31', 1)).toBe('2023-02-28');
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2024-05-15', 20)).toBe('2026-01-15');
  });

  it('counts whole months, negative when the end lies before the start', () => {
    expect(monthsElapsed('2024-01-15', '2024-01-15')).toBe(0);
    expect(monthsElapsed('2023-01-31', '2023-02-28')).toBe(1);
    expect(monthsElapsed('2025-01-15', '2024-01-15')).toBe(-12);
    expect(monthsElapsed('2024-01-20', '2024-01-10')).toBe(0);
    expect(Object.is(monthsElapsed('2024-01-20', '2024-01-10'), -0)).toBe(false);
  });

  it('rejects a bad date in monthsElapsed with the field name', () => {
    expect(() => monthsElapsed('2024-02-30', '2024-03-01')).toThrow(expect.objectContaining({ field: 'from' }));
    expect(() => monthsElapsed('2024-02-01', 'x')).toThrow(expect.objectContaining({ field: 'to' }));
  });
});

describe('commission year', () => {
  it('is 1 in the contract month and 0 before the contract', () => {
    expect(commissionYearInMonth('2024-05-31', '202405')).toBe(1);
    expect(commissionYearInMonth('2024-06-01', '202405')).toBe(0);
  });

  it('moves to year 6 after 60 months', () => {
    expect(commissionYearInMonth('2023-05-31', '202805')).toBe(6);
    expect(commissionYearInMonth('2023-05-31', '202804')).toBe(5);
  });
});

describe('quarters', () => {
  it('parses, lists and ends quarters', () => {
    expect(parseQuarter('2024-Q3')).toEqual({ year: 2024, quarter: 3 });
    expect(monthsOfQuarter('2024-Q1')).toEqual(['202401', '202402', '202403']);
    expect(lastMonthOfQuarter('2024-Q3')).toBe('202409');
    expect(quarterOfSettleMonth('202412')).toBe('2024-Q4');
    expect(quarterOfSettleMonth('202401')).toBe('2024-Q1');
  });

  it.each(['2024-Q5', '2024-Q0', '2024Q1', '0000-Q1'])('rejects %j with INVALID_QUARTER', (bad) => {
    expect(() => parseQuarter(bad)).toThrow(DomainError);
  });

  it('knows quarter-end and year-end months', () => {
    expect(['202403', '202406', '202409', '202412', '202401', '202405'].map(isQuarterEndMonth)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(isYearEndMonth('202412')).toBe(true);
    expect(isYearEndMonth('202411')).toBe(false);
  });
});
