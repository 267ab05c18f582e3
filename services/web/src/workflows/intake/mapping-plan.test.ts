import { describe, expect, it } from 'vitest';
import { columnLetter, guessTargets, planChanges, wantedMappings, type SavedMapping } from './mapping-plan.js';

describe('mapping wizard: columns to ledger fields', () => {
  it('guesses fields from English and Korean headers, each field once, a year before an amount', () => {
    expect(guessTargets(['Policy No', 'Prem', 'COMM_YEAR', 'Comm Amt', 'Memo'])).toEqual([
      'policy_no',
      'premium',
      'commission_year',
      'company_amount',
      undefined,
    ]);
    expect(guessTargets(['증권번호', '보험료', '수수료', '상품코드'])).toEqual(['policy_no', 'premium', 'company_amount', 'product_code']);
    expect(guessTargets(['POLICY', 'POLICY_OLD'])).toEqual(['policy_no', undefined]);
  });

  it('builds the wanted mappings in column order, pinned to their columns when asked', () => {
    const { wanted, problems } = wantedMappings(['A', 'B', 'C'], [{ target: 'policy_no' }, {}, { target: 'premium', transformRule: ' DIVIDE:100 ' }], true);
    expect(problems).toEqual([]);
    expect(wanted).toEqual([
      { targetField: 'policy_no', sourceField: 'A', sourceColIndex: 0, dataType: 'STRING', transformRule: null, isRequired: true, sortOrder: 1 },
      { targetField: 'premium', sourceField: 'C', sourceColIndex: 2, dataType: 'NUMBER', transformRule: 'DIVIDE:100', isRequired: false, sortOrder: 2 },
    ]);
    expect(wantedMappings(['A'], [{ target: 'policy_no' }], false).wanted[0]!.sourceColIndex).toBeNull();
  });

  it('refuses a mapping without a policy column or with a field fed twice', () => {
    expect(wantedMappings(['A', 'B'], [{ target: 'premium' }, {}], true).problems).toEqual(['no column is mapped to policy_no']);
    expect(wantedMappings(['A', 'B', 'C'], [{ target: 'policy_no' }, { target: 'premium' }, { target: 'premium' }], true).problems).toEqual([
      'premium is mapped twice (B, C)',
    ]);
  });

  it('saves only new or changed fields and ends fields no column feeds any more', () => {
    const saved: SavedMapping[] = [
      { mappingId: 1, targetField: 'policy_no', sourceField: 'A', sourceColIndex: 0, dataType: 'STRING', transformRule: null, isRequired: true },
      { mappingId: 2, targetField: 'premium', sourceField: 'B', sourceColIndex: 1, dataType: 'NUMBER', transformRule: null, isRequired: false },
      { mappingId: 3, targetField: 'pay_method', sourceField: 'P', sourceColIndex: null, dataType: 'STRING', transformRule: null, isRequired: false },
    ];
    const { wanted } = wantedMappings(['A', 'B', 'C'], [{ target: 'policy_no' }, { target: 'premium', transformRule: 'TRIM' }, { target: 'company_amount' }], true);
    const plan = planChanges(saved, wanted);
    expect(plan.same.map((w) => w.targetField)).toEqual(['policy_no']);
    expect(plan.save.map((w) => w.targetField)).toEqual(['premium', 'company_amount']);
    expect(plan.end.map((s) => s.mappingId)).toEqual([3]);
  });

  it('names columns as a spreadsheet does', () => {
    expect([0, 1, 25, 26, 27, 701, 702].map(columnLetter)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});
