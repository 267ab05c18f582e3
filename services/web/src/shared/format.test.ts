import { describe, expect, it } from 'vitest';
import { formatCount, formatDate, formatMoney, formatMonth, formatRate, formatTimestamp, toWireMonth } from './format.js';

describe('values read the same way on every page', () => {
  it('money is grouped #,##0.00 from the decimal string, never through a number', () => {
    expect(formatMoney('1234567.89')).toBe('1,234,567.89');
    expect(formatMoney('-1000')).toBe('-1,000.00');
    expect(formatMoney('0.5')).toBe('0.50');
    expect(formatMoney('90071992547409931.25')).toBe('90,071,992,547,409,931.25');
    expect(formatMoney(null)).toBe('-');
    expect(formatMoney('n/a')).toBe('n/a');
  });

  it('a stored percent reads with % and without trailing zeros', () => {
    expect(formatRate('3.3000')).toBe('3.3%');
    expect(formatRate('50.0000')).toBe('50%');
    expect(formatRate('0.1250')).toBe('0.125%');
    expect(formatRate('-2.5')).toBe('-2.5%');
  });

  it('a month on the wire (YYYYMM) reads YYYY-MM and a typed YYYY-MM goes back as YYYYMM', () => {
    expect(formatMonth('202610')).toBe('2026-10');
    expect(formatMonth('2026-10')).toBe('2026-10');
    expect(toWireMonth('2026-10')).toBe('202610');
    expect(toWireMonth('202610')).toBe('202610');
    expect(toWireMonth('2026-13')).toBeUndefined();
    expect(toWireMonth('2026-1')).toBeUndefined();
  });

  it('a date is shown as sent and a timestamp in Asia/Seoul (nine hours after UTC)', () => {
    expect(formatDate('2026-10-31')).toBe('2026-10-31');
    expect(formatDate('2026-10-31T00:00:00.000Z')).toBe('2026-10-31');
    expect(formatTimestamp('2026-10-31T15:30:00.000Z')).toBe('2026-11-01 00:30');
    expect(formatTimestamp('2026-10-31T06:05:59Z')).toBe('2026-10-31 15:05');
    expect(formatTimestamp('2026-10-31T06:05:00+09:00')).toBe('2026-10-31 06:05');
    expect(formatTimestamp('2026-10-31 06:05:00')).toBe('2026-10-31 15:05');
  });

  it('counts are grouped', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(0)).toBe('0');
  });
});
