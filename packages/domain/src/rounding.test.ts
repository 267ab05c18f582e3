import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { D, isNegative, rateOrZero, sum, toDec, toNonNegative } from './decimal.js';
import { DomainError } from './errors.js';
import { decOfScaled, roundHalfUpDiv, scaledOf } from './fixed-point.js';
import { formatMoney, formatRate, pct, pctExact, roundHalfUp } from './rounding.js';

describe('decimal inputs', () => {
  it('returns a Decimal of D as is and converts everything else', () => {
    const ours = new D('1.5');
    expect(toDec(ours, 'x')).toBe(ours);
    const converted = toDec(new Decimal('2.5'), 'x');
    expect(converted.constructor).toBe(D);
    expect(converted.toString()).toBe('2.5');
  });

  it('throws a DomainError with code and field', () => {
    const error = (() => {
      try {
        toDec('12,5', 'amount');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'DomainError', code: 'INVALID_NUMBER', field: 'amount' });
  });

  it('knows negatives, missing rates and sums', () => {
    expect(isNegative(new D('-0'))).toBe(false);
    expect(isNegative(new D('-0.01'))).toBe(true);
    expect(rateOrZero(null, 'r').isZero()).toBe(true);
    expect(rateOrZero(undefined, 'r').isZero()).toBe(true);
    expect(() => toNonNegative('-2', 'premium')).toThrow(expect.objectContaining({ code: 'NEGATIVE_AMOUNT', field: 'premium' }));
    expect(sum([new D('0.1'), new D('0.2')]).toString()).toBe('0.3');
    expect(sum([]).toString()).toBe('0');
  });
});

describe('rounding helpers', () => {
  it('rounds at any scale and keeps pct exact before rounding', () => {
    expect(roundHalfUp('1.2345', 3).toString()).toBe('1.235');
    expect(pctExact('123.45', '3.3').toString()).toBe('4.07385');
  });

  it('formats rates with up to four places', () => {
    expect(formatRate('3.30')).toBe('3.3');
    expect(formatRate('12.34565')).toBe('12.3457');
    expect(formatRate('-0.00001')).toBe('0');
    expect(formatRate('1200')).toBe('1200');
  });

  it('formats money from a Decimal of another precision', () => {
    expect(formatMoney(new Decimal('2.675'))).toBe('2.68');
  });

  it('keeps pct exact for negative rates via decimal.js', () => {
    expect(pct('100', '-3.3').toFixed(2)).toBe('-3.30');
  });
});

describe('fixed-point helpers', () => {
  it('scales plain strings and Decimals exactly or declines', () => {
    expect(scaledOf('12.3', 2)).toBe(1230n);
    expect(scaledOf('12.300', 2)).toBe(1230n);
    expect(scaledOf('12.301', 2)).toBeNull();
    expect(scaledOf('1e3', 2)).toBeNull();
    expect(scaledOf('-1', 2)).toBeNull();
    expect(scaledOf(new D('-1'), 2)).toBeNull();
    expect(scaledOf(new D('NaN'), 2)).toBeNull();
    expect(scaledOf(new D('1e70'), 2)).toBeNull();
    expect(scaledOf(new D('1e-70'), 2)).toBeNull();
    expect(scaledOf(new D('0.001'), 2)).toBeNull();
    expect(scaledOf(new D('123.45'), 4)).toBe(1234500n);
    expect(scaledOf(new D('0'), 2)).toBe(0n);
  });

  it('rounds integer division half away from zero', () => {
    expect([roundHalfUpDiv(5n, 10n), roundHalfUpDiv(4n, 10n), roundHalfUpDiv(-5n, 10n), roundHalfUpDiv(-4n, 10n)]).toEqual([1n, 0n, -1n, 0n]);
  });

  it('builds Decimals equal to the parsed value', () => {
    for (const [v, s] of [[0n, 2], [1n, 2], [-5n, 2], [1000000001n, 2], [10n ** 17n, 2], [-1n, 4], [7n, 0], [-100000000n, 0]] as const) {
      const built = decOfScaled(v, s);
      expect(built.eq(new D(v.toString()).div(10 ** s))).toBe(true);
      expect(built.constructor).toBe(D);
    }
  });
});
