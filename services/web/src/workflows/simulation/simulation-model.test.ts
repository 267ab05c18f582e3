import { describe, expect, it } from 'vitest';
import type { ResourceMeta } from '../../resources/meta.js';
import { changedKeys, changedLines, totalDiff } from './explain-diff.js';
import {
  bucketLabel,
  canRun,
  directionOf,
  etaParts,
  formFieldPath,
  isActive,
  isChangeable,
  monthStart,
  nextMonthStart,
  orgTree,
  progressPercent,
  replaceStart,
  ruleRowLabel,
  scopeOf,
  serverSort,
  signedMoney,
  signedPct,
  toChangeInput,
} from './simulation-model.js';

const payout: ResourceMeta = {
  name: 'PayoutRule',
  path: '/api/rules/payout',
  menu: 'RULE_PAYOUT',
  idParam: 'id',
  idField: 'ruleId',
  permissions: { list: null, detail: null, create: null, update: null, delete: null, export: null },
  fields: [
    { key: 'ruleId', kind: 'id', sort: true, search: false, save: false, required: false, readOnly: true },
    { key: 'gradeId', kind: 'ref', ref: { resource: 'Grade', displayField: 'gradeName' }, sort: false, search: false, save: true, required: true, readOnly: false },
    { key: 'gradeName', kind: 'joined', twinOf: 'gradeId', sort: false, search: false, save: false, required: false, readOnly: true },
    { key: 'commissionYear', kind: 'int', sort: false, search: false, save: true, required: true, readOnly: false },
    { key: 'payoutPct', kind: 'rate', sort: false, search: false, save: true, required: true, readOnly: false },
    { key: 'effectiveFrom', kind: 'date', sort: false, search: false, save: true, required: true, readOnly: false },
    { key: 'effectiveTo', kind: 'date', sort: false, search: false, save: true, required: false, readOnly: false },
    { key: 'version', kind: 'version', sort: false, search: false, save: true, required: false, readOnly: false },
  ],
};

describe('what a simulation status allows', () => {
  it('polls while queued or running, and edits, deletes and runs only a draft, a finished or a failed one', () => {
    expect(['QUEUED', 'RUNNING', 'DONE'].map((s) => isActive(s as 'DONE'))).toEqual([true, true, false]);
    expect(['DRAFT', 'DONE', 'FAILED', 'RUNNING', 'ADOPTION_PENDING', 'ADOPTED'].map((s) => isChangeable(s as 'DONE'))).toEqual([true, true, true, false, false, false]);
    expect(canRun('DRAFT', 0)).toBe(false);
    expect(canRun('DRAFT', 1)).toBe(true);
  });

  it('shows progress as whole percent of processed/total and the time left in minutes and seconds', () => {
    expect(progressPercent({ status: 'RUNNING', processed: 1, total: 3 })).toBe(33);
    expect(progressPercent({ status: 'QUEUED', processed: 0, total: 0 })).toBe(0);
    expect(progressPercent({ status: 'DONE', processed: 5, total: 9 })).toBe(100);
    expect(etaParts(125.2)).toEqual({ minutes: 2, seconds: 6 });
    expect(etaParts(null)).toBeUndefined();
  });
});

describe('a difference', () => {
  it('has its direction and sign read from the decimal string, never a JS number', () => {
    expect(['12.50', '-0.01', '0.00', '-0', null].map(directionOf)).toEqual(['up', 'down', 'same', 'same', 'same']);
    expect(signedMoney('1234567.5')).toBe('+1,234,567.50');
    expect(signedMoney('-50.00')).toBe('-50.00');
    expect(signedMoney('0.00')).toBe('0.00');
    expect(signedPct('8.33')).toBe('+8.33%');
    expect(signedPct('-12.50')).toBe('-12.5%');
    expect(signedPct(null)).toBe('-');
  });

  it('between a real and a simulated total is exact to the cent', () => {
    expect(totalDiff('600000.00', '650000.00')).toBe('50000.00');
    expect(totalDiff('0.10', '0.05')).toBe('-0.05');
    expect(totalDiff('99999999999999.99', '100000000000000.00')).toBe('0.01');
    expect(totalDiff('12.00', '12.0')).toBeUndefined();
    expect(totalDiff(null, '3.00')).toBe('3.00');
  });
});

describe('an explain line', () => {
  it('is marked changed when the other side has no equal line, ledger ids aside', () => {
    const real = [
      { ledgerId: 1, policyNo: 'P1', payoutRate: '60', agentAmount: '600.00' },
      { ledgerId: 2, policyNo: 'P2', payoutRate: '50', agentAmount: '500.00' },
    ];
    const simulated = [
      { ledgerId: 91, policyNo: 'P1', payoutRate: '65', agentAmount: '650.00' },
      { ledgerId: 92, policyNo: 'P2', payoutRate: '50', agentAmount: '500.00' },
    ];
    expect([...changedLines(simulated, real)]).toEqual([0]);
    expect([...changedLines(real, simulated)]).toEqual([0]);
    expect([...changedKeys(real, simulated)].sort()).toEqual(['agentAmount', 'payoutRate']);
  });
});

describe('a rule change', () => {
  it('sends the new row for an add, the target and values for a replacement, the target and day for an end', () => {
    expect(toChangeInput({ ruleTable: 'payout_rule', action: 'ADD', values: { payoutPct: '65', payMethodCond: '', gradeId: 3 } })).toEqual({
      ruleTable: 'payout_rule',
      action: 'ADD',
      values: { payoutPct: '65', gradeId: 3 },
    });
    expect(toChangeInput({ ruleTable: 'payout_rule', action: 'REPLACE', targetId: 12, values: { payoutPct: '65' } })).toEqual({
      ruleTable: 'payout_rule',
      action: 'REPLACE',
      targetId: 12,
      values: { payoutPct: '65' },
    });
    expect(toChangeInput({ ruleTable: 'payout_rule', action: 'END', targetId: 12, endDate: '2026-01-01', values: { x: 1 } })).toEqual({
      ruleTable: 'payout_rule',
      action: 'END',
      targetId: 12,
      endDate: '2026-01-01',
    });
  });

  it('reads a rule row by its values and period, and a replacement starts from its saved values', () => {
    const row = { ruleId: 12, gradeId: 3, gradeName: '선임', commissionYear: 1, payoutPct: '60.0000', effectiveFrom: '2025-01-01', effectiveTo: null, version: 2 };
    expect(ruleRowLabel(payout, row, 'ruleId')).toBe('#12 · 선임 · 1 · 60% · 2025-01-01 ~ ');
    const coded: ResourceMeta = {
      ...payout,
      fields: [
        ...payout.fields,
        { key: 'insuranceType', kind: 'text', codeGroup: 'INSURANCE_TYPE', sort: false, search: false, save: true, required: true, readOnly: false },
        { key: 'insuranceTypeName', kind: 'codeName', twinOf: 'insuranceType', sort: false, search: false, save: false, required: false, readOnly: true },
      ],
    };
    expect(ruleRowLabel(coded, { ...row, insuranceType: 'AUTO', insuranceTypeName: '자동차보험' }, 'ruleId')).toBe('#12 · 선임 · 1 · 60% · 자동차보험 · 2025-01-01 ~ ');
    expect(replaceStart(payout, row)).toEqual({ gradeId: 3, commissionYear: 1, payoutPct: '60.0000', effectiveFrom: '2025-01-01' });
  });

  it('finds its field errors under the form names and starts on the first day of the base month', () => {
    expect(formFieldPath('changes[0].values.payoutPct')).toBe('changes.0.values.payoutPct');
    expect(monthStart('202601')).toBe('2026-01-01');
    expect(monthStart('2026-13')).toBeUndefined();
    expect(nextMonthStart('2026-12-15')).toBe('2027-01-01');
    expect(nextMonthStart('2026-03-31')).toBe('2026-04-01');
  });
});

describe('the results', () => {
  it('roll organizations up as a tree, an org without its parent in the answer being a root', () => {
    const org = (orgId: number, parentId: number | null) => ({
      orgId, parentId, orgName: `o${orgId}`, orgLevel: null, grossBefore: '0', grossAfter: '0', grossDiff: '0', netBefore: '0', netAfter: '0', netDiff: '0', agentCount: 1,
    });
    const tree = orgTree([org(1, null), org(2, 1), org(3, 2), org(4, 99)]);
    expect(tree.map((n) => n.orgId)).toEqual([1, 4]);
    expect(tree[0]!.children!.map((n) => n.orgId)).toEqual([2]);
    expect(tree[0]!.children![0]!.children!.map((n) => n.orgId)).toEqual([3]);
    expect(tree[1]!.children).toBeUndefined();
  });

  it('name histogram buckets and scopes in words and sort on the server with a minus for descending', () => {
    expect(bucketLabel({ from: '0.00', to: '0.00', count: 3 })).toBe('0');
    expect(bucketLabel({ from: '-1000.00', to: '0.00', count: 2 })).toBe('-1,000.00 ~ 0.00');
    expect(scopeOf({ scopeType: 'AGENTS', scopeOrgId: null, scopeOrgName: null, scopeAgentIds: [1, 2] })).toEqual({ kind: 'AGENTS', count: 2 });
    expect(scopeOf({ scopeType: 'ORG', scopeOrgId: 5, scopeOrgName: '강남지점', scopeAgentIds: [] })).toEqual({ kind: 'ORG', name: '강남지점' });
    expect(serverSort('grossDiff', 'DESC')).toBe('-grossDiff');
    expect(serverSort('agentName', 'ASC')).toBe('agentName');
    expect(serverSort(undefined, 'ASC')).toBeUndefined();
  });
});
