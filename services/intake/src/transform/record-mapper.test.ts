import { describe, expect, it } from 'vitest';
import { mapRecord, type FieldMapping, type LedgerTable } from './record-mapper.js';
import { resolveLedgerRow, type ContractMatch } from './resolve-ledger-row.js';
import type { TransformContext } from './rules.js';

const ctx: TransformContext = {
  defaultDateFormat: 'yyyy-MM-dd',
  codeMap: (type, code) => (type === 'INSURANCE_TYPE' && code === '01' ? 'LIFE' : undefined),
};

function m(targetField: string, sourceField: string, extra: Partial<FieldMapping> = {}): FieldMapping {
  return {
    targetField,
    sourceField,
    transformRule: null,
    defaultValue: null,
    isRequired: false,
    sortOrder: 0,
    ...extra,
  };
}

const recruitMappings = [
  m('policy_no', 'POLICY', { transformRule: 'TRIM|UPPER', isRequired: true, sortOrder: 1 }),
  m('premium', 'PREM', { transformRule: 'DIVIDE:100', sortOrder: 2 }),
  m('company_amount', 'COMM', { sortOrder: 3 }),
  m('insurance_type', 'TYPE', { transformRule: 'CODE_MAP:INSURANCE_TYPE', sortOrder: 4 }),
];
const mappingsOf = (table: LedgerTable) => (table === 'recruit_ledger' ? recruitMappings : []);

function map(content: unknown, dataType = 'RECRUIT') {
  const rawContent = typeof content === 'string' ? content : JSON.stringify(content);
  return mapRecord({ dataType, rawContent, settleMonth: '202501' }, mappingsOf, ctx);
}

describe('mapRecord', () => {
  it('maps a record through the rules and normalises money to 2 places', () => {
    expect(map({ POLICY: ' p-1 ', PREM: '12345', COMM: 1500.5, TYPE: '01' })).toEqual({
      ok: true,
      reportedAmount: '1500.50',
      record: {
        dataType: 'RECRUIT',
        table: 'recruit_ledger',
        policyNo: 'P-1',
        reportedPremium: '123.45',
        reportedCompanyAmount: '1500.50',
        commissionYear: null,
        productCode: null,
        insuranceType: 'LIFE',
        payMethod: null,
      },
    });
  });

  it('rounds money HALF_UP to 2 places', () => {
    const r = map({ POLICY: 'P', PREM: '100005', COMM: '0.125' });
    expect(r.ok && [r.record.reportedPremium, r.record.reportedCompanyAmount]).toEqual(['1000.05', '0.13']);
  });

  it('checks the data type first, then the mappings, then the JSON', () => {
    expect(map('{not json', 'BONUS')).toMatchObject({
      ok: false,
      error: { errorType: 'UNKNOWN_TYPE', errorField: 'data_type', errorValue: 'BONUS' },
    });
    expect(map('{not json', 'MAINTAIN')).toMatchObject({
      ok: false,
      error: { errorType: 'NO_MAPPING', errorField: null },
    });
    expect(map('{not json')).toMatchObject({
      ok: false,
      error: { errorType: 'JSON_PARSE', errorValue: '{not json' },
    });
  });

  it('refuses content that is not a JSON object, and structured field values', () => {
    expect(map('[1,2]')).toMatchObject({
      error: { errorType: 'INVALID_INPUT', message: 'raw content must be a JSON object' },
    });
    expect(map('"text"')).toMatchObject({ error: { errorType: 'INVALID_INPUT' } });
    expect(map({ POLICY: ['P-1'] })).toMatchObject({
      error: {
        errorType: 'INVALID_INPUT',
        errorField: 'policy_no',
        errorValue: '["P-1"]',
        message: 'POLICY must be a single value',
      },
    });
  });

  it('reports the first failing field in sort order but keeps a parseable company amount', () => {
    expect(map({ POLICY: '', PREM: 'x', COMM: '10' })).toEqual({
      ok: false,
      reportedAmount: '10.00',
      error: {
        errorType: 'REQUIRED',
        errorField: 'policy_no',
        errorValue: '',
        message: 'POLICY is required for policy_no',
      },
    });
    expect(map({ POLICY: 'P', PREM: 'x', COMM: '10' })).toEqual({
      ok: false,
      reportedAmount: '10.00',
      error: {
        errorType: 'TRANSFORM_FAIL',
        errorField: 'premium',
        errorValue: 'x',
        message: "DIVIDE:100: 'x' is not a number",
      },
    });
    expect(map({ POLICY: 'P', COMM: '10', TYPE: '09' })).toMatchObject({
      error: { errorType: 'CODE_MAP_FAIL', errorField: 'insurance_type', errorValue: '09' },
    });
  });

  it('refuses negative, non-numeric and oversized amounts as INVALID_INPUT', () => {
    expect(map({ POLICY: 'P', COMM: '-1' })).toMatchObject({
      reportedAmount: null,
      error: {
        errorType: 'INVALID_INPUT',
        errorField: 'company_amount',
        message: "company_amount must not be negative: '-1'",
      },
    });
    expect(map({ POLICY: 'P', COMM: 'abc' })).toMatchObject({
      error: { errorType: 'INVALID_INPUT', message: "company_amount is not a number: 'abc'" },
    });
    expect(map({ POLICY: 'P', COMM: '10000000000000' })).toMatchObject({
      error: { errorType: 'INVALID_INPUT', message: "company_amount is too large: '10000000000000'" },
    });
  });

  it('uses the default value as is for a blank field, and leaves optional blanks out', () => {
    const withDefault = [
      m('policy_no', 'POLICY', { isRequired: true, defaultValue: 'DEFAULT-1' }),
      m('premium', 'PREM', { transformRule: 'DIVIDE:0' }),
    ];
    const r = mapRecord(
      { dataType: 'RECRUIT', rawContent: '{"POLICY":"  ","PREM":null}', settleMonth: '202501' },
      () => withDefault,
      ctx,
    );
    expect(r).toMatchObject({ ok: true, record: { policyNo: 'DEFAULT-1', reportedPremium: null } });
  });

  it('fails with NO_POLICY when the policy number is not mapped or empty', () => {
    const noPolicy = [m('premium', 'PREM')];
    expect(
      mapRecord(
        { dataType: 'RECRUIT', rawContent: '{"PREM":"1"}', settleMonth: '202501' },
        () => noPolicy,
        ctx,
      ),
    ).toEqual({
      ok: false,
      reportedAmount: null,
      error: {
        errorType: 'NO_POLICY',
        errorField: 'policy_no',
        errorValue: '',
        message: 'policy number is empty',
      },
    });
  });

  it('refuses a mapped settle month that is not the raw row month', () => {
    const withMonth = [m('policy_no', 'POLICY'), m('settle_month', 'MONTH')];
    const r = mapRecord(
      { dataType: 'RECRUIT', rawContent: '{"POLICY":"P","MONTH":"202412"}', settleMonth: '202501' },
      () => withMonth,
      ctx,
    );
    expect(r).toMatchObject({
      error: {
        errorType: 'INVALID_INPUT',
        errorField: 'settle_month',
        message: "settle month '202412' does not match the raw row's month 202501",
      },
    });
  });
});

describe('resolveLedgerRow', () => {
  const contract: ContractMatch = {
    contractId: 7,
    agentId: 3,
    policyNo: 'P-1',
    companyCode: 'L001',
    productCode: 'PR-1',
    insuranceType: 'LIFE',
    premium: '100000.00',
    payCycle: 'MONTHLY',
    contractDate: '2023-03-10',
  };
  const base = {
    dataType: 'MAINTAIN' as const,
    table: 'maintain_ledger' as const,
    policyNo: 'P-1',
    reportedPremium: '100000.00',
    reportedCompanyAmount: '3000.00',
    commissionYear: null,
    productCode: null,
    insuranceType: null,
    payMethod: null,
  };

  it('computes the maintain commission year from the contract date with the domain calendar', () => {
    // 2023-03-10 -> 2025-01-31: 22 whole months -> year 2
    expect(resolveLedgerRow(base, contract, 'L001', '202501')).toMatchObject({
      ok: true,
      row: { commissionYear: 2, contractId: 7, agentId: 3, payMethod: 'MONTHLY' },
    });
    // 2023-03-10 -> 2025-03-31: 24 months -> year 3
    expect(resolveLedgerRow(base, contract, 'L001', '202503')).toMatchObject({
      ok: true,
      row: { commissionYear: 3 },
    });
  });

  it('refuses a maintain record outside commission years 2 to 5', () => {
    expect(resolveLedgerRow(base, contract, 'L001', '202312')).toEqual({
      ok: false,
      error: {
        errorType: 'INVALID_INPUT',
        errorField: 'commission_year',
        errorValue: '1',
        message: 'commission year 1 is not a maintain year (2 to 5)',
      },
    });
  });

  it('reports a missing contract or one of another carrier as CONTRACT_NOT_FOUND', () => {
    expect(resolveLedgerRow(base, undefined, 'L001', '202501')).toMatchObject({
      error: { errorType: 'CONTRACT_NOT_FOUND', message: 'no contract with policy number P-1' },
    });
    expect(resolveLedgerRow(base, contract, 'N002', '202501')).toMatchObject({
      error: {
        errorType: 'CONTRACT_NOT_FOUND',
        message: 'policy P-1 belongs to a product of company L001, not N002',
      },
    });
  });

  it('forces commission year 1 for RECRUIT records', () => {
    const recruit = { ...base, dataType: 'RECRUIT' as const, table: 'recruit_ledger' as const };
    expect(resolveLedgerRow(recruit, contract, 'L001', '202501')).toMatchObject({
      ok: true,
      row: { commissionYear: 1 },
    });
    expect(resolveLedgerRow({ ...recruit, commissionYear: 2 }, contract, 'L001', '202501')).toMatchObject({
      error: { errorType: 'INVALID_INPUT' },
    });
  });
});
