import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calcCommission,
  calcCommissionDecimal,
  calcCommissionFormatted,
  lookupCommissionRate,
  type CommissionRateRow,
} from './commission.js';
import { D, toNonNegative, type DecimalInput } from './decimal.js';
import { findHalfOpen } from './lookup.js';
import { formatMoney, formatMoneyDecimal } from './rounding.js';
import { reconcileLedgerAmount, reconcileLedgerMoney } from './ledger-reconcile.js';
import { centsOf, formatCents, isCanonicalMoney } from './money-text.js';

/*
 * The string/cents paths for money against decimal.js: formatMoneyDecimal is the former formatMoney,
 * calcCommissionDecimal + formatMoney the former commission formatting, reconcileLedgerAmount +
 * formatMoney the former reconcile formatting.
 */
const RUNS = { numRuns: 2000 };

function plain(v: bigint, scale: number): string {
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(scale + 1, '0');
  const cut = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}${scale > 0 ? `.${digits.slice(cut)}` : ''}`;
}

function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (e) {
    const error = e as Error & { code?: string; field?: string };
    return { error: { class: error.constructor.name, code: error.code, message: error.message, field: error.field } };
  }
}

function parses(s: string): boolean {
  try {
    return new D(s) !== undefined;
  } catch {
    return false;
  }
}

const cents = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });
/** numeric(15,2) as pg writes it. */
const pgMoney = fc.bigInt({ min: 0n, max: 999_999_999_999_999n }).map((c) => plain(c, 2));
const pgSignedMoney = fc.bigInt({ min: -999_999_999_999_999n, max: 999_999_999_999_999n }).map((c) => plain(c, 2));
/** numeric(7,4) rate in percent as pg writes it. */
const pgRate = fc.bigInt({ min: 0n, max: 9_999_999n }).map((r) => plain(r, 4));
/** Decimal strings of 0..5 places, signed, some with leading zeros, '+', exponents or junk. */
const decimalText = fc.oneof(
  fc.tuple(fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }), fc.integer({ min: 0, max: 5 })).map(([v, s]) => plain(v, s)),
  fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 8n }), fc.integer({ min: 0, max: 4 })).map(([v, s]) => `00${plain(v, s)}`),
  fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 8n }), fc.integer({ min: 0, max: 4 })).map(([v, s]) => `-0${plain(v, s)}`),
  fc.constantFrom('-0', '-0.00', '-0.004', '-0.005', '0.005', '0.004', '+1.00', '1e3', '1.5e-2', '.5', '5.', '', '-', '--1', 'abc', ' 1.00', '1.00 ', 'NaN', 'Infinity', '0x10', '1_000.00', '١.٠٠'),
  fc.string({ unit: fc.constantFrom('0', '1', '5', '9', '.', '-'), maxLength: 8 }),
);
const anyMoneyInput: fc.Arbitrary<DecimalInput> = fc.oneof(
  decimalText,
  decimalText.filter(parses).map((s) => new D(s)),
  decimalText.filter(parses).map((s) => new Decimal(s)),
);

describe('money formatting fast paths equal decimal.js', () => {
  it('formatCents writes what formatMoney writes for the same cents', () => {
    fc.assert(
      fc.property(cents, (c) => {
        expect(formatCents(c)).toBe(formatMoneyDecimal(plain(c, 2)));
      }),
      RUNS,
    );
  });

  it('a canonical money string is its own formatting, and only those are called canonical', () => {
    fc.assert(
      fc.property(fc.oneof(cents.map((c) => plain(c, 2)), decimalText), (s) => {
        if (isCanonicalMoney(s)) expect(formatMoneyDecimal(s)).toBe(s);
        const formatted = outcome(() => formatMoneyDecimal(s)) as { value?: string };
        expect(isCanonicalMoney(s)).toBe(formatted.value === s);
      }),
      RUNS,
    );
  });

  it('centsOf reads exactly the strings that are whole cents', () => {
    fc.assert(
      fc.property(decimalText, (s) => {
        const c = centsOf(s);
        if (c !== null) expect(formatCents(c)).toBe(formatMoneyDecimal(s));
      }),
      RUNS,
    );
    expect(centsOf(new D('12.30'))).toBeNull();
    expect(centsOf('-12.300')).toBe(-1230n);
    expect(centsOf('-12.301')).toBeNull();
  });

  it('formatMoney equals the decimal.js formatting for any input, errors included', () => {
    fc.assert(
      fc.property(anyMoneyInput, (v) => {
        expect(outcome(() => formatMoney(v))).toEqual(outcome(() => formatMoneyDecimal(v)));
      }),
      RUNS,
    );
  });

  it('formats the edge cases as before', () => {
    const values = ['0.00', '-0.00', '-0', '0.005', '-0.005', '0.004', '146000.00', '146000', '146000.5', '007.50', '-12.345', '1e3'];
    expect(values.map(formatMoney)).toEqual(['0.00', '0.00', '0.00', '0.01', '-0.01', '0.00', '146000.00', '146000.00', '146000.50', '7.50', '-12.35', '1000.00']);
    expect(values.map(formatMoney)).toEqual(values.map(formatMoneyDecimal));
    expect(formatMoney(`${'9'.repeat(40)}.99`)).toBe(`${'9'.repeat(40)}.99`);
    expect(() => formatMoney('abc')).toThrow(expect.objectContaining({ code: 'INVALID_NUMBER', field: 'value' }));
    expect(() => formatMoney(null as unknown as string)).toThrow(expect.objectContaining({ code: 'INVALID_NUMBER' }));
  });
});

function formatted(r: ReturnType<typeof calcCommission>) {
  return { companyAmount: formatMoney(r.companyAmount), agentAmount: formatMoney(r.agentAmount), tax: formatMoney(r.tax) };
}

const rateInput = fc.oneof(
  pgRate,
  pgRate.map((r) => new D(r)),
  pgRate.map((r) => new Decimal(r)),
  fc.constant(null),
  fc.constant(undefined),
);

describe('calcCommissionFormatted', () => {
  it('equals formatMoney of the decimal.js rule for database-shaped inputs', () => {
    fc.assert(
      fc.property(fc.oneof(pgMoney, pgMoney.map((m) => new D(m))), rateInput, rateInput, (premium, companyRate, payoutRate) => {
        const input = { premium, companyRate, payoutRate };
        expect(calcCommissionFormatted(input)).toEqual(formatted(calcCommissionDecimal(input)));
        expect(calcCommissionFormatted(input)).toEqual(formatted(calcCommission(input)));
      }),
      RUNS,
    );
  });

  // Against calcCommission, not calcCommissionDecimal: beyond numeric(7,4) a product can pass the
  // 40 digits decimal.js keeps, where the two rules already differed before this path existed.
  it('equals formatMoney of calcCommission for any input, the decimal.js fallback and errors included', () => {
    fc.assert(
      fc.property(anyMoneyInput, fc.oneof(anyMoneyInput, rateInput), fc.oneof(anyMoneyInput, rateInput), (premium, companyRate, payoutRate) => {
        const input = { premium, companyRate, payoutRate };
        expect(outcome(() => calcCommissionFormatted(input))).toEqual(outcome(() => formatted(calcCommission(input))));
      }),
      RUNS,
    );
  });

  it('rounds half up at every step and writes zero without a sign', () => {
    // 1.00 x 0.5 % = 0.005 -> 0.01; x 50 % = 0.005 -> 0.01; tax 0.00033 -> 0.00
    expect(calcCommissionFormatted({ premium: '1.00', companyRate: '0.5000', payoutRate: '50.0000' })).toEqual({
      companyAmount: '0.01',
      agentAmount: '0.01',
      tax: '0.00',
    });
    expect(calcCommissionFormatted({ premium: '146000.00', companyRate: '12.3450', payoutRate: '65.0000' })).toEqual({
      companyAmount: '18023.70',
      agentAmount: '11715.41',
      tax: '386.61',
    });
    expect(calcCommissionFormatted({ premium: '0.00', companyRate: null })).toEqual({ companyAmount: '0.00', agentAmount: '0.00', tax: '0.00' });
    expect(calcCommissionFormatted({ premium: '100.005', companyRate: '10', payoutRate: '100' })).toEqual({
      companyAmount: '10.00',
      agentAmount: '10.00',
      tax: '0.33',
    });
    expect(() => calcCommissionFormatted({ premium: '-1.00', companyRate: '1' })).toThrow(
      expect.objectContaining({ code: 'NEGATIVE_AMOUNT', field: 'premium' }),
    );
  });
});

function refReconcileMoney(reported: DecimalInput | null | undefined, computed: DecimalInput, threshold: DecimalInput) {
  const r = reconcileLedgerAmount(reported, computed, threshold);
  return { status: r.status, diff: r.diff === null ? null : formatMoney(r.diff) };
}

/** Thresholds as system_config holds them, with more places than cents too. */
const threshold: fc.Arbitrary<DecimalInput> = fc.oneof(
  fc.constantFrom('0', '0.00', '1', '1.00', '0.5', '0.005', '0.019999', '0.01', '10', '-0', '0.0099999999999999999999999999999999999999999999'),
  fc.tuple(fc.bigInt({ min: 0n, max: 100_000n }), fc.integer({ min: 0, max: 6 })).map(([v, s]) => plain(v, s)),
  fc.constantFrom('1.00', '0.5').map((t) => new D(t)),
);

describe('reconcileLedgerMoney', () => {
  it('equals reconcileLedgerAmount with its diff formatted, for pg amounts', () => {
    fc.assert(
      fc.property(fc.option(pgSignedMoney), pgMoney, threshold, (reported, computed, t) => {
        expect(reconcileLedgerMoney(reported, computed, t)).toEqual(refReconcileMoney(reported, computed, t));
      }),
      RUNS,
    );
  });

  it('lands on the threshold exactly: a diff equal to it matches, one cent more does not', () => {
    fc.assert(
      fc.property(pgMoney, fc.bigInt({ min: 0n, max: 10_000n }), (computed, limitCents) => {
        const limit = plain(limitCents, 2);
        const reported = plain(BigInt(computed.replace('.', '')) + limitCents, 2);
        expect(reconcileLedgerMoney(reported, computed, limit).status).toBe('MATCHED');
        const over = plain(BigInt(computed.replace('.', '')) - limitCents - 1n, 2);
        expect(reconcileLedgerMoney(over, computed, limit)).toEqual(refReconcileMoney(over, computed, limit));
        expect(reconcileLedgerMoney(over, computed, limit).status).toBe('DIFF');
      }),
      RUNS,
    );
  });

  it('equals it for any input, the decimal.js fallback and errors included', () => {
    fc.assert(
      fc.property(fc.option(anyMoneyInput), anyMoneyInput, fc.oneof(threshold, anyMoneyInput), (reported, computed, t) => {
        expect(outcome(() => reconcileLedgerMoney(reported, computed, t))).toEqual(outcome(() => refReconcileMoney(reported, computed, t)));
      }),
      RUNS,
    );
  });

  it('handles the cases the batch meets', () => {
    expect(reconcileLedgerMoney(null, '100.00', '1.00')).toEqual({ status: 'PENDING', diff: null });
    expect(reconcileLedgerMoney('100.00', '100.00', '0')).toEqual({ status: 'MATCHED', diff: '0.00' });
    expect(reconcileLedgerMoney('99.00', '100.00', '1.00')).toEqual({ status: 'MATCHED', diff: '-1.00' });
    expect(reconcileLedgerMoney('98.99', '100.00', '1.00')).toEqual({ status: 'DIFF', diff: '-1.01' });
    expect(reconcileLedgerMoney('-5.00', '0.00', '1')).toEqual({ status: 'DIFF', diff: '-5.00' });
    expect(reconcileLedgerMoney('100.005', '100.00', '0.01')).toEqual({ status: 'MATCHED', diff: '0.01' });
    expect(() => reconcileLedgerMoney(null, '1', '-1')).toThrow(expect.objectContaining({ code: 'NEGATIVE_AMOUNT', field: 'threshold' }));
    expect(() => reconcileLedgerMoney('x', '1', '1')).toThrow(expect.objectContaining({ code: 'INVALID_NUMBER', field: 'reported' }));
  });

  it('keeps reconcileLedgerAmount right while the threshold changes between calls', () => {
    for (const t of ['0', '1.00', '0', new D('1.00'), '0.50']) {
      expect(reconcileLedgerAmount('99.50', '100.00', t).status).toBe(t === '0' ? 'DIFF' : 'MATCHED');
    }
  });
});

/** lookupCommissionRate as it was: the premium parsed up front. */
function refLookupCommissionRate(rates: readonly CommissionRateRow[], query: Parameters<typeof lookupCommissionRate>[1]) {
  const premium = query.premium === null || query.premium === undefined ? null : toNonNegative(query.premium, 'premium');
  return findHalfOpen(
    rates,
    query.date,
    (r) =>
      r.productId === query.productId &&
      r.commissionYear === query.commissionYear &&
      (r.payMethodCond === null || r.payMethodCond === undefined || query.payMethod === null || query.payMethod === undefined || r.payMethodCond === query.payMethod) &&
      (premium === null || r.minPremium === null || r.minPremium === undefined || premium.gte(r.minPremium)),
  );
}

describe('lookupCommissionRate with a lazily parsed premium', () => {
  const row = (over: Partial<CommissionRateRow>): CommissionRateRow => ({
    productId: 1,
    commissionYear: 2,
    ratePct: '10',
    effectiveFrom: '2020-01-01',
    effectiveTo: null,
    ...over,
  });
  const minPremium = fc.oneof(fc.constant(null), fc.constant(undefined), pgMoney, pgMoney.map((m) => new D(m)));

  it('picks the same row and throws the same errors as the eager parse', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(minPremium, fc.integer({ min: 1, max: 3 })), { maxLength: 4 }),
        fc.option(fc.oneof(pgMoney, anyMoneyInput)),
        (specs, premium) => {
          const rates = specs.map(([min, version], i) => row({ rateId: i, minPremium: min, version }));
          const query = { productId: 1, commissionYear: 2, date: '2024-05-01', payMethod: 'MONTHLY', premium };
          expect(outcome(() => lookupCommissionRate(rates, query))).toEqual(outcome(() => refLookupCommissionRate(rates, query)));
        },
      ),
      RUNS,
    );
  });

  it('still refuses a bad premium when no row has a minimum', () => {
    const rates = [row({ rateId: 1 })];
    const query = { productId: 1, commissionYear: 2, date: '2024-05-01' };
    expect(() => lookupCommissionRate(rates, { ...query, premium: 'abc' })).toThrow(expect.objectContaining({ code: 'INVALID_NUMBER', field: 'premium' }));
    expect(() => lookupCommissionRate(rates, { ...query, premium: '-1.00' })).toThrow(expect.objectContaining({ code: 'NEGATIVE_AMOUNT' }));
    expect(lookupCommissionRate([row({ rateId: 2, minPremium: '50000.00' })], { ...query, premium: '49999.99' })).toBeUndefined();
    expect(lookupCommissionRate([row({ rateId: 3, minPremium: '50000.00' })], { ...query, premium: '50000.00' })?.rateId).toBe(3);
  });
});
