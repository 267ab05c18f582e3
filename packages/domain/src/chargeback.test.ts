import { describe, expect, it } from 'vitest';
import { calcChargeback, lookupChargebackRule, splitInstallments, type ChargebackRuleRow } from './chargeback.js';
import { calcDifferentialChargeback } from './chargeback-grade.js';

const rule = (cbRuleId: number, extra: Partial<ChargebackRuleRow> = {}): ChargebackRuleRow => ({
  cbRuleId,
  companyCode: 'C01',
  insuranceType: 'LIFE',
  lapseMonthFrom: 0,
  lapseMonthTo: 12,
  cbRate: '100',
  includeOverride: false,
  installmentAllowed: false,
  maxInstallments: null,
  effectiveFrom: '2020-01-01',
  effectiveTo: null,
  ...extra,
});

describe('chargeback rule lookup', () => {
  const rules = [rule(1), rule(2, { companyCode: 'C02' }), rule(3, { insuranceType: 'NONLIFE' }), rule(4, { lapseMonthFrom: 13, lapseMonthTo: 24 }), rule(5, { version: 2, effectiveFrom: '2024-01-01' })];

  it('matches company, insurance type and the lapse-month range, newest version first', () => {
    const q = { companyCode: 'C01', insuranceType: 'LIFE', date: '2023-06-01' };
    expect(lookupChargebackRule(rules, { ...q, lapseMonths: 12 })?.cbRuleId).toBe(1);
    expect(lookupChargebackRule(rules, { ...q, lapseMonths: 13 })?.cbRuleId).toBe(4);
    expect(lookupChargebackRule(rules, { ...q, lapseMonths: 25 })).toBeUndefined();
    expect(lookupChargebackRule(rules, { ...q, lapseMonths: 3, date: '2024-06-01' })?.cbRuleId).toBe(5);
    expect(lookupChargebackRule(rules, { ...q, companyCode: 'C02', lapseMonths: 3 })?.cbRuleId).toBe(2);
  });
});

describe('calcChargeback', () => {
  const input = {
    companyCode: 'C01',
    insuranceType: 'LIFE',
    contractDate: '2024-01-10',
    lapseDate: '2024-03-10',
    settleMonth: '202403',
    base: '1000.00',
  };

  it('gives no rows when no rule applies', () => {
    const r = calcChargeback({ ...input, rules: [rule(1, { companyCode: 'X' })] });
    expect([r.lapseMonths, r.rule, r.cbAmount.toFixed(2), r.installments]).toEqual([2, undefined, '0.00', []]);
  });

  it('writes one row when installments are allowed but the maximum is 1 or missing', () => {
    for (const maxInstallments of [1, null]) {
      const r = calcChargeback({ ...input, rules: [rule(1, { installmentAllowed: true, maxInstallments })] });
      expect(r.installments.map((i) => [i.installmentSeq, i.installmentTotal, i.settleMonth, i.amount.toFixed(2)])).toEqual([[1, 1, '202403', '1000.00']]);
    }
  });

  it('ignores max_installments when installments are not allowed', () => {
    const r = calcChargeback({ ...input, rules: [rule(1, { maxInstallments: 6 })] });
    expect(r.installments).toHaveLength(1);
  });

  it('spans a year end with consecutive settle months', () => {
    const r = calcChargeback({ ...input, settleMonth: '202411', rules: [rule(1, { installmentAllowed: true, maxInstallments: 3 })] });
    expect(r.installments.map((i) => i.settleMonth)).toEqual(['202411', '202412', '202501']);
  });

  it('rejects a bad settle month and a negative base', () => {
    expect(() => calcChargeback({ ...input, settleMonth: '2024', rules: [] })).toThrow(expect.objectContaining({ code: 'INVALID_SETTLE_MONTH' }));
    expect(() => calcChargeback({ ...input, base: '-1', rules: [] })).toThrow(expect.objectContaining({ code: 'NEGATIVE_AMOUNT', field: 'base' }));
    expect(() => calcChargeback({ ...input, overrideBase: '-1', rules: [] })).toThrow(expect.objectContaining({ field: 'overrideBase' }));
  });
});

describe('splitInstallments', () => {
  it('truncates the equal rows and gives the remainder to the last', () => {
    expect(splitInstallments('200.00', 3).map((d) => d.toFixed(2))).toEqual(['66.66', '66.66', '66.68']);
    expect(splitInstallments('0.04', 6).map((d) => d.toFixed(2))).toEqual(['0.00', '0.00', '0.00', '0.00', '0.00', '0.04']);
    expect(splitInstallments('5', 1).map((d) => d.toFixed(2))).toEqual(['5.00']);
  });

  it.each([0, -1, 1.5])('rejects %s installments', (n) => {
    expect(() => splitInstallments('1', n)).toThrow(expect.objectContaining({ code: 'INVALID_INSTALLMENTS' }));
  });
});

describe('differential chargeback input checks', () => {
  it('rejects a negative original commission', () => {
    expect(() =>
      calcDifferentialChargeback({ grades: [], contractDate: '2024-01-01', terminationDate: '2024-05-01', originalCommission: '-1' }),
    ).toThrow(expect.objectContaining({ code: 'NEGATIVE_AMOUNT', field: 'originalCommission' }));
  });
});
