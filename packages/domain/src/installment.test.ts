import { describe, expect, it } from 'vitest';
import {
  generateInstallmentPlan,
  installmentSequence,
  selectInstallmentRatios,
  type InstallmentRatioRow,
} from './installment.js';

describe('installment sequence', () => {
  it('is (year - 1) x 12 + month, month 1 for an annual ratio', () => {
    expect(installmentSequence(3, 5)).toBe(29);
    expect(installmentSequence(1, null)).toBe(1);
    expect(installmentSequence(7, 12)).toBe(84);
  });
});

describe('installment plan', () => {
  it('orders rows by sequence whatever the input order and keeps plan_month NULL', () => {
    const rows = generateInstallmentPlan({
      ratios: [
        { planYear: 2, planMonth: null, ratioPercent: '60' },
        { planYear: 1, planMonth: 6, ratioPercent: '40' },
      ],
      firstSettleMonth: '202412',
      total: '500.00',
    });
    expect(rows.map((r) => [r.planYear, r.planMonth, r.sequence, r.settleMonth, r.ratioPercent.toFixed(), r.amount.toFixed(2)])).toEqual([
      [1, 6, 6, '202505', '40', '200.00'],
      [2, null, 13, '202512', '60', '300.00'],
    ]);
  });

  it.each([
    ['no ratios', []],
    ['a plan year of 8', [{ planYear: 8, planMonth: null, ratioPercent: '100' }]],
    ['a plan year of 0', [{ planYear: 0, planMonth: null, ratioPercent: '100' }]],
    ['a plan month of 13', [{ planYear: 1, planMonth: 13, ratioPercent: '100' }]],
    ['a fractional plan month', [{ planYear: 1, planMonth: 1.5, ratioPercent: '100' }]],
    ['an annual and a month-1 ratio in one year', [{ planYear: 1, planMonth: null, ratioPercent: '50' }, { planYear: 1, planMonth: 1, ratioPercent: '50' }]],
    ['ratios not adding up to 100', [{ planYear: 1, planMonth: null, ratioPercent: '99.9999' }]],
  ])('rejects %s with INVALID_RATIOS', (_name, ratios) => {
    expect(() => generateInstallmentPlan({ ratios, firstSettleMonth: '202401', total: '100' })).toThrow(
      expect.objectContaining({ code: 'INVALID_RATIOS', field: 'ratios' }),
    );
  });

  it('rejects a bad first settle month and a negative total', () => {
    const ratios = [{ planYear: 1, planMonth: null, ratioPercent: '100' }];
    expect(() => generateInstallmentPlan({ ratios, firstSettleMonth: '2024-01', total: '1' })).toThrow(
      expect.objectContaining({ code: 'INVALID_SETTLE_MONTH', field: 'firstSettleMonth' }),
    );
    expect(() => generateInstallmentPlan({ ratios, firstSettleMonth: '202401', total: '-1' })).toThrow(
      expect.objectContaining({ code: 'NEGATIVE_AMOUNT' }),
    );
  });
});

describe('installment ratio selection', () => {
  const row = (ratioId: number, productCategory: string | null, planYear: number, planMonth: number | null, effectiveFrom: string, extra: Partial<InstallmentRatioRow> = {}): InstallmentRatioRow => ({
    ratioId,
    productCategory,
    planYear,
    planMonth,
    ratioPercent: '50',
    effectiveFrom,
    effectiveTo: null,
    ...extra,
  });
  const rows = [
    row(1, null, 1, null, '2020-01-01'),
    row(2, null, 2, null, '2020-01-01'),
    row(3, null, 1, null, '2024-01-01'),
    row(4, 'LIFE', 2, null, '2020-01-01'),
    row(5, 'LIFE', 1, 3, '2020-01-01'),
    row(6, 'LIFE', 1, 1, '2020-01-01', { isActive: false }),
    row(7, 'ALL', 3, null, '2020-01-01', { effectiveTo: '2023-12-31' }),
  ];

  it('takes the newest general row per (year, month) when the category has no set', () => {
    expect(selectInstallmentRatios(rows, { productCategory: 'ANNUITY', date: '2024-06-01' }).map((r) => r.ratioId)).toEqual([3, 2]);
    expect(selectInstallmentRatios(rows, { date: '2023-12-31' }).map((r) => r.ratioId)).toEqual([1, 2, 7]);
  });

  it('uses the category set alone when it has one', () => {
    expect(selectInstallmentRatios(rows, { productCategory: 'LIFE', date: '2024-06-01' }).map((r) => r.ratioId)).toEqual([5, 4]);
  });

  it('returns nothing before any ratio is valid', () => {
    expect(selectInstallmentRatios(rows, { productCategory: 'LIFE', date: '2019-01-01' })).toEqual([]);
  });
});
