import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  calcCommission,
  calcCommissionDecimal,
  lookupCommissionRate,
  lookupPayoutRate,
  type CommissionRateRow,
  type PayoutRuleRow,
} from './commission.js';
import { D } from './decimal.js';

const money = (r: { companyAmount: Decimal; agentAmount: Decimal; tax: Decimal }) =>
  [r.companyAmount, r.agentAmount, r.tax].map((d) => d.toFixed(2));

describe('calcCommission', () => {
  it('accepts Decimals and strings alike', () => {
    expect(money(calcCommission({ premium: new D('100000'), companyRate: new D('50'), payoutRate: '60' }))).toEqual([
      '50000.00',
      '30000.00',
      '990.00',
    ]);
  });

  it('takes the decimal.js path for inputs with more places than numeric(15,2)/(7,4) and agrees with it', () => {
    // 100.005 x 10% = 10.0005 => 10.00; x 100% = 10.00; x 3.3% = 0.33
    expect(money(calcCommission({ premium: '100.005', companyRate: '10', payoutRate: '100' }))).toEqual(['10.00', '10.00', '0.33']);
    // rate 33.33333 (5 places): 300 x 33.33333% = 99.999990 => 100.00
    expect(money(calcCommission({ premium: '300', companyRate: '33.33333', payoutRate: '100' }))).toEqual(['100.00', '100.00', '3.30']);
  });

  it('treats a Decimal from another precision like any other value', () => {
    const foreign = new Decimal('123456.78');
    expect(money(calcCommission({ premium: foreign, companyRate: '35.5', payoutRate: '72.5' }))).toEqual(
      money(calcCommissionDecimal({ premium: '123456.78', companyRate: '35.5', payoutRate: '72.5' })),
    );
  });

  it('rejects negative and non-numeric inputs with a DomainError naming the field', () => {
    expect(() => calcCommission({ premium: '100', companyRate: '-1' })).toThrow(
      expect.objectContaining({ code: 'NEGATIVE_AMOUNT', field: 'companyRate' }),
    );
    expect(() => calcCommission({ premium: '100', payoutRate: 'x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_NUMBER', field: 'payoutRate' }),
    );
    expect(() => calcCommission({ premium: 'NaN' })).toThrow(expect.objectContaining({ code: 'INVALID_NUMBER', field: 'premium' }));
    expect(() => calcCommission({ premium: 'Infinity' })).toThrow(expect.objectContaining({ code: 'INVALID_NUMBER' }));
  });

  it('accepts negative zero as zero', () => {
    expect(money(calcCommission({ premium: '-0', companyRate: '10', payoutRate: '10' }))).toEqual(['0.00', '0.00', '0.00']);
  });
});

describe('commission rate lookup', () => {
  const base = { effectiveFrom: '2024-01-01', effectiveTo: null, version: 1 };
  const rates: CommissionRateRow[] = [
    { ...base, rateId: 1, productId: 1, commissionYear: 1, ratePct: '30' },
    { ...base, rateId: 2, productId: 1, commissionYear: 2, ratePct: '10' },
    { ...base, rateId: 3, productId: 2, commissionYear: 1, ratePct: '20' },
    { ...base, rateId: 4, productId: 1, commissionYear: 1, ratePct: '40', version: 2, payMethodCond: 'CARD' },
    { ...base, rateId: 5, productId: 1, commissionYear: 1, ratePct: '50', version: 3, minPremium: '1000000' },
  ];

  it('matches product and year and takes the newest version that applies', () => {
    expect(lookupCommissionRate(rates, { productId: 1, commissionYear: 2, date: '2024-05-01' })?.rateId).toBe(2);
    expect(lookupCommissionRate(rates, { productId: 2, commissionYear: 1, date: '2024-05-01' })?.rateId).toBe(3);
    expect(lookupCommissionRate(rates, { productId: 1, commissionYear: 1, date: '2024-05-01' })?.rateId).toBe(5);
  });

  it('honours min_premium and pay_method_cond only when the query gives them', () => {
    expect(lookupCommissionRate(rates, { productId: 1, commissionYear: 1, date: '2024-05-01', premium: '999999.99' })?.rateId).toBe(4);
    expect(lookupCommissionRate(rates, { productId: 1, commissionYear: 1, date: '2024-05-01', premium: '1000000' })?.rateId).toBe(5);
    expect(
      lookupCommissionRate(rates, { productId: 1, commissionYear: 1, date: '2024-05-01', premium: '10', payMethod: 'CASH' })?.rateId,
    ).toBe(1);
    expect(
      lookupCommissionRate(rates, { productId: 1, commissionYear: 1, date: '2024-05-01', premium: null, payMethod: null })?.rateId,
    ).toBe(5);
  });

  it('returns undefined when nothing applies', () => {
    expect(lookupCommissionRate(rates, { productId: 9, commissionYear: 1, date: '2024-05-01' })).toBeUndefined();
  });
});

describe('payout rule lookup', () => {
  const base = { effectiveFrom: '2024-01-01', effectiveTo: null };
  const rules: PayoutRuleRow[] = [
    { ...base, ruleId: 1, gradeId: 1, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '60', version: 1 },
    { ...base, ruleId: 2, gradeId: 1, insuranceType: 'NONLIFE', commissionYear: 1, payoutPct: '50', version: 1 },
    { ...base, ruleId: 3, gradeId: 2, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '70', version: 1 },
    { ...base, ruleId: 4, gradeId: 1, insuranceType: 'LIFE', commissionYear: 2, payoutPct: '40', version: 1 },
    { ...base, ruleId: 5, gradeId: 1, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '65', version: 2, payMethodCond: 'CARD' },
  ];

  it('matches grade, insurance type and year', () => {
    expect(lookupPayoutRate(rules, { gradeId: 1, insuranceType: 'NONLIFE', commissionYear: 1, date: '2024-02-01' })?.ruleId).toBe(2);
    expect(lookupPayoutRate(rules, { gradeId: 2, insuranceType: 'LIFE', commissionYear: 1, date: '2024-02-01' })?.ruleId).toBe(3);
    expect(lookupPayoutRate(rules, { gradeId: 1, insuranceType: 'LIFE', commissionYear: 2, date: '2024-02-01' })?.ruleId).toBe(4);
    expect(lookupPayoutRate(rules, { gradeId: 1, insuranceType: 'LIFE', commissionYear: 3, date: '2024-02-01' })).toBeUndefined();
  });

  it('skips a rule for another pay method', () => {
    expect(lookupPayoutRate(rules, { gradeId: 1, insuranceType: 'LIFE', commissionYear: 1, date: '2024-02-01' })?.ruleId).toBe(5);
    expect(
      lookupPayoutRate(rules, { gradeId: 1, insuranceType: 'LIFE', commissionYear: 1, date: '2024-02-01', payMethod: 'CASH' })?.ruleId,
    ).toBe(1);
  });
});
