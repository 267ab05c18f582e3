import { describe, expect, it } from 'vitest';
import { checkInstallmentYears, checkRegulatoryLimit, lookupRegulatoryLimit, type RegulatoryLimitRow } from './regulatory-limit.js';

describe('regulatory limit', () => {
  it('returns every figure of the check', () => {
    const r = checkRegulatoryLimit({
      limit: { limitType: 'TOTAL_RATIO', limitValue: '1200', unit: 'PERCENT' },
      premium: '100.00',
      accumulated: '1000.00',
      additional: '150.00',
    });
    // 100 x 1200% = 1200.00; 1200 - 1000 - 150 = 50.00
    expect({ ...r, limitValue: r.limitValue.toFixed(), limitAmount: r.limitAmount.toFixed(2), accumulated: r.accumulated.toFixed(2), additional: r.additional.toFixed(2), remaining: r.remaining.toFixed(2) }).toEqual({
      limitType: 'TOTAL_RATIO',
      limitValue: '1200',
      limitAmount: '1200.00',
      accumulated: '1000.00',
      additional: '150.00',
      remaining: '50.00',
      violated: false,
    });
  });

  it('rejects a YEAR limit in the ratio check and a PERCENT limit in the years check', () => {
    expect(() =>
      checkRegulatoryLimit({ limit: { limitType: 'INSTALLMENT_YEARS', limitValue: '7', unit: 'YEAR' }, premium: '1', accumulated: '0', additional: '0' }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_LIMIT_UNIT', field: 'unit' }));
    expect(() => checkInstallmentYears({ limitType: 'TOTAL_RATIO', limitValue: '1200', unit: 'PERCENT' }, 1)).toThrow(
      expect.objectContaining({ code: 'INVALID_LIMIT_UNIT' }),
    );
  });

  it('reports the years check', () => {
    expect(checkInstallmentYears({ limitType: 'INSTALLMENT_YEARS', limitValue: '7', unit: 'YEAR' }, 3)).toEqual(
      expect.objectContaining({ limitType: 'INSTALLMENT_YEARS', years: 3, violated: false }),
    );
  });

  it('looks up active rows only, NULL category meaning all', () => {
    const rows: RegulatoryLimitRow[] = [
      { limitId: 1, limitType: 'TOTAL_RATIO', productCategory: null, limitValue: '1200', unit: 'PERCENT', effectiveFrom: '2020-01-01', effectiveTo: null, isActive: true },
      { limitId: 2, limitType: 'TOTAL_RATIO', productCategory: null, limitValue: '1000', unit: 'PERCENT', effectiveFrom: '2024-01-01', effectiveTo: null, isActive: false },
    ];
    expect(lookupRegulatoryLimit(rows, { limitType: 'TOTAL_RATIO', date: '2024-06-01' })?.limitId).toBe(1);
    expect(lookupRegulatoryLimit(rows, { limitType: 'TOTAL_RATIO', productCategory: 'LIFE', date: '2024-06-01' })?.limitId).toBe(1);
    expect(lookupRegulatoryLimit(rows, { limitType: 'FIRST_YEAR_RATIO', date: '2024-06-01' })).toBeUndefined();
  });
});
