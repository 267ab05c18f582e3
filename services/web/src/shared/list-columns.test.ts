import { describe, expect, it } from 'vitest';
import type { FieldMeta } from '../resources/meta.js';
import { listColumns } from './list-columns.js';

const field = (key: string, kind = 'text', extra: Partial<FieldMeta> = {}): FieldMeta => ({
  key, kind, sort: false, search: false, save: false, required: false, readOnly: true, ...extra,
});
const keys = (fields: FieldMeta[]) => fields.map((f) => f.key);

describe('the columns of a generic list', () => {
  it('shows every field of a short field table, without audit fields, name twins and detail-only fields', () => {
    const fields = [
      field('gradeId', 'id'),
      field('gradeName'),
      field('gradeGroup', 'text', { codeGroup: 'GRADE_GROUP' }),
      field('gradeGroupName', 'codeName', { twinOf: 'gradeGroup' }),
      field('description', 'text', { detailOnly: true }),
      field('options', 'json'),
      field('version', 'version'),
      field('createdBy', 'createdBy'),
      field('updatedAt', 'updatedAt'),
    ];
    expect(keys(listColumns({ fields }))).toEqual(['gradeId', 'gradeName', 'gradeGroup', 'updatedAt']);
  });

  it('cuts a long table after 12 fields but keeps every amount after them, in the field table order', () => {
    // A KPI row: 5 counts and months, then 12 amounts (the parts of gross, gross, tax, net), then 2 more fields.
    const fields = [
      field('kpiMonthlyId', 'id'),
      field('settleMonth', 'month'),
      field('agentsSettled', 'int'),
      field('agentsPaid', 'int'),
      field('newContracts', 'int'),
      ...['newPremium', 'recruitTotal', 'maintainTotal', 'overrideTotal', 'otherTotal', 'correctionTotal', 'exceptionPlusTotal',
        'exceptionMinusTotal', 'chargebackTotal', 'grossTotal', 'taxTotal', 'netTotal', 'avgNetPerAgent'].map((k) => field(k, 'money')),
      field('refreshId', 'ref', { display: 'id' }),
      field('refreshedAt', 'timestamp'),
    ];
    const columns = keys(listColumns({ fields }));
    expect(columns).toHaveLength(18);
    expect(columns.slice(0, 12)).toEqual(keys(fields.slice(0, 12)));
    expect(columns.slice(12)).toEqual(['exceptionMinusTotal', 'chargebackTotal', 'grossTotal', 'taxTotal', 'netTotal', 'avgNetPerAgent']);
  });

  it('counts a field shown as money (a display kind) as an amount', () => {
    const fields = [...Array.from({ length: 12 }, (_, i) => field(`f${i}`)), field('late'), field('amountText', 'text', { display: 'money' })];
    expect(keys(listColumns({ fields })).slice(11)).toEqual(['f11', 'amountText']);
  });

  it('keeps the status field among the columns in place of the twelfth, at its own position', () => {
    const fields = [
      ...Array.from({ length: 12 }, (_, i) => field(`f${i}`)),
      field('amount', 'money'),
      field('state', 'enum'),
      field('note'),
    ];
    expect(keys(listColumns({ fields, statusField: 'state' }))).toEqual([...Array.from({ length: 11 }, (_, i) => `f${i}`), 'amount', 'state']);
    expect(keys(listColumns({ fields: fields.map((f) => (f.key === 'state' ? { ...f, key: 'status' } : f)) })).at(-1)).toBe('status');
  });
});
