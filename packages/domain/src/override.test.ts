import { describe, expect, it } from 'vitest';
import { buildOverrideIndex, calcOverrides, findOverrideReceiver, type OverrideRuleRow } from './override.js';

const OPEN = { effectiveFrom: '2020-01-01', effectiveTo: null };
const rules: OverrideRuleRow[] = [
  { ...OPEN, overrideId: 1, fromGrade: 1, toGrade: 2, overridePct: '10', capAmount: null },
  { ...OPEN, overrideId: 2, fromGrade: 1, toGrade: 2, overridePct: '12', capAmount: null, effectiveFrom: '2024-01-01' },
  { ...OPEN, overrideId: 3, fromGrade: 1, toGrade: 9, overridePct: '1', capAmount: null },
  { ...OPEN, overrideId: 4, fromGrade: 1, toGrade: 3, overridePct: '5', capAmount: '100', insuranceTypeCond: 'LIFE' },
  { ...OPEN, overrideId: 5, fromGrade: 1, toGrade: 4, overridePct: '5', capAmount: '500', effectiveTo: '2021-01-01' },
];
const index = buildOverrideIndex({
  orgs: [
    { orgId: 1, parentOrgId: null },
    { orgId: 2, parentOrgId: 1 },
    { orgId: 5, parentOrgId: 6 },
    { orgId: 6, parentOrgId: 5 },
  ],
  agents: [
    { agentId: 10, orgId: 2, gradeId: 1, status: 'ACTIVE' },
    { agentId: 30, orgId: 1, gradeId: 2, status: 'ACTIVE' },
    { agentId: 20, orgId: 1, gradeId: 2, status: 'ACTIVE' },
    { agentId: 40, orgId: 1, gradeId: 3, status: 'ACTIVE' },
    { agentId: 50, orgId: 5, gradeId: 1, status: 'ACTIVE' },
    { agentId: 60, orgId: 7, gradeId: 1, status: 'SUSPEND' },
  ],
  rules,
});

describe('override', () => {
  it('uses the newest rule per target grade and reports receivers that do not exist', () => {
    const r = calcOverrides(index, { agentId: 10, base: '1000', date: '2024-05-31' });
    expect(r.rows.map((x) => [x.basis.overrideId, x.toAgentId, x.overrideAmount.toFixed(2), x.uncappedAmount.toFixed(2), x.capped])).toEqual([
      [2, 20, '120.00', '120.00', false],
    ]);
    expect(r.rows[0]!.basis).toEqual({ overrideId: 2, fromGrade: 1, toGrade: 2, overridePct: '12', capAmount: null, orgsWalked: [2, 1], receiverOrgId: 1 });
    expect(r.skipped).toEqual([{ overrideId: 3, toGrade: 9, reason: 'no receiver', orgsWalked: [2, 1] }]);
  });

  it('applies a rule with an insurance type condition only to a base of that type', () => {
    const r = calcOverrides(index, { agentId: 10, base: '10000', date: '2024-05-31', insuranceType: 'LIFE' });
    const life = r.rows.find((x) => x.basis.overrideId === 4)!;
    // 10000 x 5% = 500.00, capped at 100.00
    expect([life.toAgentId, life.uncappedAmount.toFixed(2), life.overrideAmount.toFixed(2), life.capped, life.basis.capAmount]).toEqual([
      40,
      '500.00',
      '100.00',
      true,
      '100.00',
    ]);
    const other = calcOverrides(index, { agentId: 10, base: '10000', date: '2024-05-31', insuranceType: 'NONLIFE' });
    expect(other.rows.some((x) => x.basis.overrideId === 4)).toBe(false);
  });

  it('gives an amount equal to the cap as not capped', () => {
    const r = calcOverrides(index, { agentId: 10, base: '2000', date: '2024-05-31', insuranceType: 'LIFE' });
    const row = r.rows.find((x) => x.basis.overrideId === 4)!;
    expect([row.overrideAmount.toFixed(2), row.capped]).toEqual(['100.00', false]);
  });

  it('uses a rule only inside its half-open validity', () => {
    const r = calcOverrides(index, { agentId: 10, base: '1000', date: '2020-06-30' });
    expect(r.rows.map((x) => x.basis.overrideId)).toEqual([1]);
    expect(r.skipped.map((x) => x.overrideId)).toEqual([3, 5]);
  });

  it('gives nothing for a zero base, an unknown agent or a grade without rules', () => {
    expect(calcOverrides(index, { agentId: 10, base: '0', date: '2024-05-31' })).toEqual({ rows: [], skipped: [] });
    expect(calcOverrides(index, { agentId: 999, base: '10', date: '2024-05-31' })).toEqual({ rows: [], skipped: [] });
    expect(calcOverrides(index, { agentId: 20, base: '10', date: '2024-05-31' })).toEqual({ rows: [], skipped: [] });
  });

  it('rejects a negative base', () => {
    expect(() => calcOverrides(index, { agentId: 10, base: '-1', date: '2024-05-31' })).toThrow(expect.objectContaining({ code: 'NEGATIVE_AMOUNT', field: 'base' }));
  });

  it('stops the walk on a cycle and at an organization missing from the tree', () => {
    expect(findOverrideReceiver(index, { agentId: 50, orgId: 5, gradeId: 1, status: 'ACTIVE' }, 2)).toEqual({ receiverId: undefined, orgsWalked: [5, 6] });
    expect(findOverrideReceiver(index, { agentId: 60, orgId: 7, gradeId: 1, status: 'ACTIVE' }, 2)).toEqual({ receiverId: undefined, orgsWalked: [7] });
  });
});
