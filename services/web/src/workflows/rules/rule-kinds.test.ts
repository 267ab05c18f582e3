import { describe, expect, it } from 'vitest';
import { ruleKindOf, validityOn, versionsOf } from './rule-kinds.js';

describe('rule versions', () => {
  const kind = ruleKindOf('RULE_OVERRIDE')!;

  it('finds the versions of one rule by its key (NULL matches NULL), oldest first', () => {
    const rows = [
      { overrideId: 3, fromGrade: 1, toGrade: 3, insuranceTypeCond: null, effectiveFrom: '2026-01-01', version: 2 },
      { overrideId: 1, fromGrade: 1, toGrade: 3, insuranceTypeCond: null, effectiveFrom: '2000-01-01', version: 1 },
      { overrideId: 2, fromGrade: 1, toGrade: 3, insuranceTypeCond: 'LIFE', effectiveFrom: '2000-01-01', version: 1 },
      { overrideId: 4, fromGrade: 2, toGrade: 3, insuranceTypeCond: null, effectiveFrom: '2000-01-01', version: 1 },
    ];
    expect(versionsOf(kind, rows, rows[1]!).map((r) => r.overrideId)).toEqual([1, 3]);
    expect(versionsOf(kind, rows, rows[2]!).map((r) => r.overrideId)).toEqual([2]);
  });

  it('reads validity half-open: the end day belongs to the next version', () => {
    const row = { effectiveFrom: '2025-01-01', effectiveTo: '2026-01-01' };
    expect(validityOn(row, '2024-12-31')).toBe('future');
    expect(validityOn(row, '2025-01-01')).toBe('current');
    expect(validityOn(row, '2025-12-31')).toBe('current');
    expect(validityOn(row, '2026-01-01')).toBe('ended');
    expect(validityOn({ effectiveFrom: '2000-01-01', effectiveTo: null }, '2099-01-01')).toBe('current');
  });

  it('offers revision where the server has the endpoint only', () => {
    expect(['RULE_COMMISSION', 'RULE_PAYOUT', 'RULE_OVERRIDE', 'RULE_CHARGEBACK'].map((m) => !!ruleKindOf(m)?.revise)).toEqual([true, true, true, true]);
  });
});
