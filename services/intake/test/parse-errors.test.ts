import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv, startApi, type Api } from './api-helpers.js';
import { insertContract, insertRaw, seedMaster, type MasterIds } from './helpers.js';

let api: Api;
let ids: MasterIds;
const MONTH = '202503';

const rows: Array<[label: string, cells: string[]]> = [
  ['OK', ['P-1', '1000', '100', 'L', 'RECRUIT']],
  ['UNKNOWN_TYPE', ['P-1', '1000', '100', 'L', 'BONUS']],
  ['NO_MAPPING', ['P-M', '1000', '50', 'L', 'MAINTAIN']],
  ['INVALID_INPUT', ['P-2', '-5', '100', 'L', 'RECRUIT']],
  ['REQUIRED', ['P-3', '1000', '', 'L', 'RECRUIT']],
  ['TRANSFORM_FAIL', ['P-4', 'abc', '100', 'L', 'RECRUIT']],
  ['NO_POLICY', ['   ', '1000', '100', 'L', 'RECRUIT']],
  ['CONTRACT_NOT_FOUND', ['P-404', '1000', '100', 'L', 'RECRUIT']],
  ['CODE_MAP_FAIL', ['P-5', '1000', '100', '99', 'RECRUIT']],
];

interface ErrorView {
  errorId: number;
  rawId: number;
  errorType: string;
  errorField: string | null;
  errorValue: string | null;
  resolveStatus: string;
}

let errors: Map<string, ErrorView>;

beforeAll(async () => {
  api = await startApi();
  ids = await seedMaster(api.db);
  for (const p of ['P-1', 'P-2', 'P-3', 'P-4', 'P-5']) await insertContract(api.db, ids, p, '2025-03-03');
  await insertContract(api.db, ids, 'P-M', '2023-01-10');
  await api.call('POST', '/api/mapping/profiles', { companyCode: 'L001', dataFormat: 'CSV' });
  const map = (body: Record<string, unknown>) =>
    api.call('POST', '/api/mapping/L001/fields', { targetTable: 'recruit_ledger', ...body });
  await map({ targetField: 'policy_no', sourceField: 'POLICY', transformRule: 'TRIM', sortOrder: 1 });
  await map({ targetField: 'premium', sourceField: 'PREM', transformRule: 'DIVIDE:1', sortOrder: 2 });
  await map({ targetField: 'company_amount', sourceField: 'COMM', isRequired: true, sortOrder: 3 });
  await map({
    targetField: 'insurance_type',
    sourceField: 'TYPE',
    transformRule: 'CODE_MAP:INSURANCE_TYPE',
    sortOrder: 4,
  });
  await api.call('POST', '/api/mapping/L001/codes', {
    codeType: 'INSURANCE_TYPE',
    sourceCode: 'L',
    targetCode: 'LIFE',
  });

  const file = csv([['POLICY', 'PREM', 'COMM', 'TYPE', 'DATA_TYPE'], ...rows.map(([, cells]) => cells)]);
  const up = await api.upload(
    '/api/receive/upload',
    { companyCode: 'L001', settleMonth: MONTH },
    { filename: 'errors.csv', content: Buffer.from(file) },
  );
  expect(up.body.data.rowCount).toBe(9);
  // JSON_PARSE only happens to rows of receivers that store text as it comes (EDI/API): crafted directly
  await insertRaw(api.db, 'L001', MONTH, 'RECRUIT', '{"POLICY": "P-1", broken');
  const processed = await api.call('POST', '/api/receive/process', {
    companyCode: 'L001',
    settleMonth: MONTH,
  });
  expect(processed.body.data.steps[0]).toMatchObject({ total: 10, success: 1, error: 9 });

  const list = await api.call(
    'GET',
    `/api/receive/errors?settleMonth=${MONTH}&companyCode=L001&pageSize=50&sortField=errorId&sortOrder=ASC`,
  );
  errors = new Map((list.body.data.list as ErrorView[]).map((e) => [e.errorType, e]));
});

afterAll(async () => {
  await api?.close();
});

async function resolve(
  type: string,
  status: 'RESOLVED' | 'IGNORED',
  note?: string,
  method: 'POST' | 'PUT' = 'POST',
) {
  return api.call(method, `/api/receive/errors/${errors.get(type)!.errorId}/resolve`, {
    status,
    ...(note ? { note } : {}),
  });
}

async function errorRow(type: string) {
  return api.db
    .selectFrom('parse_error_log')
    .select(['resolve_status', 'resolve_note', 'resolved_by'])
    .where('error_id', '=', errors.get(type)!.errorId)
    .executeTakeFirstOrThrow();
}

describe('parse errors: the nine types, resolved or ignored', () => {
  it('produces each of the nine error types from a crafted row', () => {
    const view = [...errors.values()].map((e) => [e.errorType, e.errorField, e.errorValue, e.resolveStatus]);
    expect(view.sort()).toEqual(
      [
        ['UNKNOWN_TYPE', 'data_type', 'BONUS', 'OPEN'],
        ['NO_MAPPING', null, null, 'OPEN'],
        ['INVALID_INPUT', 'premium', '-5', 'OPEN'],
        ['REQUIRED', 'company_amount', '', 'OPEN'],
        ['TRANSFORM_FAIL', 'premium', 'abc', 'OPEN'],
        ['NO_POLICY', 'policy_no', '', 'OPEN'],
        ['CONTRACT_NOT_FOUND', 'policy_no', 'P-404', 'OPEN'],
        ['CODE_MAP_FAIL', 'insurance_type', '99', 'OPEN'],
        ['JSON_PARSE', null, '{"POLICY": "P-1", broken', 'OPEN'],
      ].sort(),
    );
  });

  it('filters the error list by type and status', async () => {
    const res = await api.call(
      'GET',
      `/api/receive/errors?settleMonth=${MONTH}&errorType=NO_POLICY,CODE_MAP_FAIL&status=OPEN&sortField=errorType`,
    );
    expect(res.body.data.total).toBe(2);
    expect(
      res.body.data.list.map((e: any) => [e.errorType, e.fileName, e.rowNumber, e.dataType, e.parseStatus]),
    ).toEqual([
      ['CODE_MAP_FAIL', 'errors.csv', 10, 'RECRUIT', 'ERROR'],
      ['NO_POLICY', 'errors.csv', 8, 'RECRUIT', 'ERROR'],
    ]);
  });

  it('RESOLVED re-parses the row after the contract exists (CONTRACT_NOT_FOUND)', async () => {
    await insertContract(api.db, ids, 'P-404', '2025-03-01');
    const res = await resolve('CONTRACT_NOT_FOUND', 'RESOLVED', 'contract registered late');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      resolveStatus: 'RESOLVED',
      parseStatus: 'OK',
      mappedTable: 'recruit_ledger',
    });
    const ledger = await api.db
      .selectFrom('recruit_ledger')
      .select(['ledger_id', 'reported_company_amount'])
      .where('policy_no', '=', 'P-404')
      .executeTakeFirstOrThrow();
    expect(res.body.data.mappedLedgerId).toBe(ledger.ledger_id);
    expect(ledger.reported_company_amount).toBe('100.00');
    expect(await errorRow('CONTRACT_NOT_FOUND')).toEqual({
      resolve_status: 'RESOLVED',
      resolve_note: 'contract registered late',
      resolved_by: expect.any(Number),
    });
  });

  it('RESOLVED after a code mapping fix (CODE_MAP_FAIL), through PUT as well', async () => {
    await api.call('POST', '/api/mapping/L001/codes', {
      codeType: 'INSURANCE_TYPE',
      sourceCode: '99',
      targetCode: 'LIFE',
    });
    const res = await resolve('CODE_MAP_FAIL', 'RESOLVED', undefined, 'PUT');
    expect(res.body.data).toMatchObject({ resolveStatus: 'RESOLVED', parseStatus: 'OK' });
  });

  it('RESOLVED after a mapping revision for the month (NO_MAPPING, REQUIRED)', async () => {
    const mapMaintain = (body: Record<string, unknown>) =>
      api.call('POST', '/api/mapping/L001/fields', { targetTable: 'maintain_ledger', ...body });
    await mapMaintain({
      targetField: 'policy_no',
      sourceField: 'POLICY',
      transformRule: 'TRIM',
      sortOrder: 1,
    });
    await mapMaintain({ targetField: 'company_amount', sourceField: 'COMM', sortOrder: 2 });
    expect((await resolve('NO_MAPPING', 'RESOLVED')).body.data).toMatchObject({
      parseStatus: 'OK',
      mappedTable: 'maintain_ledger',
    });

    const current = await api.call(
      'GET',
      '/api/mapping/L001/fields?targetTable=recruit_ledger&targetField=company_amount',
    );
    const revision = await api.call(
      'PUT',
      `/api/mapping/L001/fields/${current.body.data.list[0].mappingId}`,
      {
        targetTable: 'recruit_ledger',
        targetField: 'company_amount',
        sourceField: 'COMM',
        isRequired: true,
        defaultValue: '0',
        sortOrder: 3,
        effectiveFrom: '2025-03-01',
      },
    );
    expect(revision.body.data).toMatchObject({ version: 2 });
    expect((await resolve('REQUIRED', 'RESOLVED')).body.data).toMatchObject({ parseStatus: 'OK' });
    const ledger = await api.db
      .selectFrom('recruit_ledger')
      .select('reported_company_amount')
      .where('policy_no', '=', 'P-3')
      .executeTakeFirstOrThrow();
    expect(ledger.reported_company_amount).toBe('0.00');
  });

  it('RESOLVED on a row that still fails changes nothing and says why; IGNORED closes it', async () => {
    const res = await resolve('TRANSFORM_FAIL', 'RESOLVED');
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'E400',
        message: `raw row ${errors.get('TRANSFORM_FAIL')!.rawId} still fails: TRANSFORM_FAIL: DIVIDE:1: 'abc' is not a number`,
        data: { errorType: 'TRANSFORM_FAIL', errorField: 'premium', errorValue: 'abc' },
      },
    });
    expect((await errorRow('TRANSFORM_FAIL')).resolve_status).toBe('OPEN');
    const openErrors = await api.db
      .selectFrom('parse_error_log')
      .select('error_id')
      .where('raw_id', '=', errors.get('TRANSFORM_FAIL')!.rawId)
      .execute();
    expect(openErrors).toHaveLength(1);

    for (const type of ['TRANSFORM_FAIL', 'UNKNOWN_TYPE', 'JSON_PARSE', 'INVALID_INPUT', 'NO_POLICY']) {
      const ignored = await resolve(type, 'IGNORED', `not payable: ${type}`);
      expect(ignored.body.data).toMatchObject({
        resolveStatus: 'IGNORED',
        parseStatus: 'ERROR',
        mappedLedgerId: null,
      });
      expect(await errorRow(type)).toEqual({
        resolve_status: 'IGNORED',
        resolve_note: `not payable: ${type}`,
        resolved_by: expect.any(Number),
      });
    }
  });

  it('refuses to resolve an error twice and needs a status', async () => {
    const twice = await resolve('CONTRACT_NOT_FOUND', 'IGNORED');
    expect(twice).toMatchObject({
      status: 400,
      body: {
        code: 'E400',
        message: `parse error ${errors.get('CONTRACT_NOT_FOUND')!.errorId} is already RESOLVED`,
      },
    });
    const noStatus = await api.call(
      'POST',
      `/api/receive/errors/${errors.get('NO_POLICY')!.errorId}/resolve`,
      { note: 'x' },
    );
    expect(noStatus.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'status' }] } });
  });

  it('leaves the month with every error closed and the reconciliation refreshed', async () => {
    const open = await api.call('GET', `/api/receive/errors?settleMonth=${MONTH}&status=OPEN`);
    expect(open.body.data.total).toBe(0);
    const status = await api.call('GET', `/api/receive/status?settleMonth=${MONTH}&companyCode=L001`);
    expect(status.body.data.carriers[0]).toMatchObject({
      rowCount: 10,
      okCount: 5,
      errorCount: 5,
      openErrorCount: 0,
    });
    // expected: parsed amounts of all rows; actual: the five mapped rows (100 + 50 + 100 + 0 + 100)
    const recon = await api.db
      .selectFrom('reconciliation')
      .select(['actual_amount', 'actual_count'])
      .where('company_code', '=', 'L001')
      .where('settle_month', '=', MONTH)
      .executeTakeFirstOrThrow();
    expect(recon).toEqual({ actual_amount: '350.00', actual_count: 5 });
  });
});
