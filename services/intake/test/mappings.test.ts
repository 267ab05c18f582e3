import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv, startApi, type Api } from './api-helpers.js';
import { insertContract, seedMaster } from './helpers.js';

let api: Api;

beforeAll(async () => {
  api = await startApi();
  const ids = await seedMaster(api.db);
  await insertContract(api.db, ids, 'P-1', '2025-05-02');
});

afterAll(async () => {
  await api?.close();
});

describe('carrier profiles', () => {
  let profileId: number;

  it('creates a profile with defaults and reads it back', async () => {
    const created = await api.call('POST', '/api/mapping/profiles', {
      companyCode: 'N002',
      dataFormat: 'CSV',
      fileEncoding: 'EUC-KR',
      delimiter: 'TAB',
      receiveSchedule: 'monthly, 5th',
    });
    expect(created.status).toBe(200);
    profileId = created.body.data.id;
    const detail = await api.call('GET', `/api/mapping/profiles/${profileId}`);
    expect(detail.body.data).toMatchObject({
      profileId,
      companyCode: 'N002',
      companyName: 'Beta Fire',
      dataFormat: 'CSV',
      receiveMethod: 'MANUAL',
      fileEncoding: 'EUC-KR',
      delimiter: 'TAB',
      headerRow: 1,
      dataStartRow: 2,
      dateFormat: 'yyyy-MM-dd',
      receiveSchedule: 'monthly, 5th',
      isActive: true,
      version: 0,
    });
  });

  it('refuses unknown carriers, encodings, date formats, a second profile and rows in the wrong order', async () => {
    const unknown = await api.call('POST', '/api/mapping/profiles', { companyCode: 'NOPE' });
    expect(unknown.body).toMatchObject({
      code: 'E411',
      data: { errors: [{ field: 'companyCode', message: 'insurance company NOPE does not exist' }] },
    });
    const encoding = await api.call('POST', '/api/mapping/profiles', {
      companyCode: 'L001',
      fileEncoding: 'KLINGON',
    });
    expect(encoding.body).toMatchObject({
      code: 'E411',
      data: {
        errors: [
          { field: 'fileEncoding', message: 'is not a supported character set (UTF-8, CP949, EUC-KR, ...)' },
        ],
      },
    });
    const dateFormat = await api.call('POST', '/api/mapping/profiles', {
      companyCode: 'L001',
      dateFormat: 'yyyy-MM',
    });
    expect(dateFormat.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'dateFormat' }] } });
    const order = await api.call('POST', '/api/mapping/profiles', {
      companyCode: 'L001',
      headerRow: 3,
      dataStartRow: 2,
    });
    expect(order.body).toMatchObject({
      code: 'E411',
      data: { errors: [{ field: 'dataStartRow', message: 'must be after headerRow' }] },
    });
    const twice = await api.call('POST', '/api/mapping/profiles', { companyCode: 'N002' });
    expect(twice).toMatchObject({ status: 409, body: { code: 'B009' } });
  });

  it('updates with optimistic locking and lists by filters', async () => {
    const updated = await api.call('PUT', `/api/mapping/profiles/${profileId}`, {
      dataFormat: 'EXCEL',
      receiveMethod: 'FTP',
      ftpHost: 'ftp.beta.example',
      version: 0,
    });
    expect(updated.status).toBe(200);
    const stale = await api.call('PUT', `/api/mapping/profiles/${profileId}`, {
      dataFormat: 'CSV',
      version: 0,
    });
    expect(stale).toMatchObject({ status: 409, body: { code: 'B002' } });
    const list = await api.call('GET', '/api/mapping/profiles?receiveMethod=FTP');
    expect(list.body.data.list.map((p: any) => [p.companyCode, p.dataFormat, p.ftpHost, p.version])).toEqual([
      ['N002', 'EXCEL', 'ftp.beta.example', 1],
    ]);
  });
});

describe('field mappings: versioned, validated on save', () => {
  let firstId: number;

  it('creates version 1 effective from 2000-01-01', async () => {
    const res = await api.call('POST', '/api/mapping/L001/fields', {
      targetTable: 'recruit_ledger',
      targetField: 'company_amount',
      sourceField: 'COMM',
      transformRule: 'TRIM|DIVIDE:100',
      sortOrder: 3,
    });
    expect(res.body.data).toMatchObject({ version: 1 });
    firstId = res.body.data.id;
    const detail = await api.call('GET', `/api/mapping/L001/fields/${firstId}`);
    expect(detail.body.data).toMatchObject({
      companyCode: 'L001',
      targetTable: 'recruit_ledger',
      targetField: 'company_amount',
      sourceField: 'COMM',
      transformRule: 'TRIM|DIVIDE:100',
      version: 1,
      effectiveFrom: '2000-01-01',
      isActive: true,
      dataType: 'STRING',
      isRequired: false,
    });
  });

  it('checks the target field, the rule syntax and the default value', async () => {
    const base = { targetTable: 'recruit_ledger', sourceField: 'X' };
    const field = await api.call('POST', '/api/mapping/L001/fields', {
      ...base,
      targetField: 'agent_amount',
    });
    expect(field.body).toMatchObject({
      code: 'E411',
      data: {
        errors: [
          {
            field: 'targetField',
            message:
              "recruit_ledger has no target field 'agent_amount' (one of policy_no, premium, company_amount, commission_year, product_code, insurance_type, pay_method, settle_month)",
          },
        ],
      },
    });
    const rule = await api.call('POST', '/api/mapping/L001/fields', {
      ...base,
      targetField: 'premium',
      transformRule: 'TRIM|DIVIDE',
    });
    expect(rule.body).toMatchObject({
      data: { errors: [{ field: 'transformRule', message: "rule DIVIDE needs a numeric argument, got ''" }] },
    });
    const unknownRule = await api.call('POST', '/api/mapping/L001/fields', {
      ...base,
      targetField: 'premium',
      transformRule: 'LOOKUP:X',
    });
    expect(unknownRule.body).toMatchObject({
      data: { errors: [{ field: 'transformRule', message: "unknown transform rule 'LOOKUP:X'" }] },
    });
    const dflt = await api.call('POST', '/api/mapping/L001/fields', {
      ...base,
      targetField: 'premium',
      defaultValue: 'free',
    });
    expect(dflt.body).toMatchObject({
      data: { errors: [{ field: 'defaultValue', message: "premium is not a number: 'free'" }] },
    });
    const table = await api.call('POST', '/api/mapping/L001/fields', {
      ...base,
      targetTable: 'contract',
      targetField: 'premium',
    });
    expect(table.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'targetTable' }] } });
    const carrier = await api.call('POST', '/api/mapping/NOPE/fields', { ...base, targetField: 'premium' });
    expect(carrier.body).toMatchObject({
      data: { errors: [{ field: 'companyCode', message: 'insurance company NOPE does not exist' }] },
    });
  });

  it('a revision is a new version; the old one is kept; asOf picks the version of a day', async () => {
    const rev = await api.call('PUT', `/api/mapping/L001/fields/${firstId}`, {
      targetTable: 'recruit_ledger',
      targetField: 'company_amount',
      sourceField: 'COMMISSION',
      sortOrder: 3,
      effectiveFrom: '2025-06-01',
    });
    expect(rev.body.data).toMatchObject({ version: 2 });
    const old = await api.call('GET', `/api/mapping/L001/fields/${firstId}`);
    expect(old.body.data).toMatchObject({ sourceField: 'COMM', version: 1 });

    const latest = await api.call('GET', '/api/mapping/L001/fields?targetField=company_amount');
    expect(latest.body.data.list.map((m: any) => [m.sourceField, m.version])).toEqual([['COMMISSION', 2]]);
    const may = await api.call('GET', '/api/mapping/L001/fields?targetField=company_amount&asOf=2025-05-01');
    expect(may.body.data.list.map((m: any) => [m.sourceField, m.version])).toEqual([['COMM', 1]]);
    const all = await api.call(
      'GET',
      '/api/mapping/L001/fields?targetField=company_amount&allVersions=true&sortField=version',
    );
    expect(all.body.data.list.map((m: any) => m.version)).toEqual([1, 2]);

    const backwards = await api.call('PUT', `/api/mapping/L001/fields/${firstId}`, {
      targetTable: 'recruit_ledger',
      targetField: 'company_amount',
      sourceField: 'C',
      effectiveFrom: '2025-01-01',
    });
    expect(backwards.body).toMatchObject({
      code: 'E411',
      data: {
        errors: [
          {
            field: 'effectiveFrom',
            message: 'must not be before 2025-06-01, the effectiveFrom of version 2',
          },
        ],
      },
    });
    const otherField = await api.call('PUT', `/api/mapping/L001/fields/${firstId}`, {
      targetTable: 'recruit_ledger',
      targetField: 'premium',
      sourceField: 'C',
    });
    expect(otherField.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'targetField' }] } });
  });

  it('DELETE ends the mapping from a day with an inactive version', async () => {
    const res = await api.call('DELETE', `/api/mapping/L001/fields/${firstId}?effectiveFrom=2025-09-01`);
    expect(res.body.data).toMatchObject({ version: 3 });
    const latest = await api.call('GET', '/api/mapping/L001/fields?targetField=company_amount');
    expect(latest.body.data.list.map((m: any) => [m.version, m.isActive, m.effectiveFrom])).toEqual([
      [3, false, '2025-09-01'],
    ]);
    const aug = await api.call('GET', '/api/mapping/L001/fields?targetField=company_amount&asOf=2025-08-31');
    expect(aug.body.data.list.map((m: any) => [m.version, m.isActive])).toEqual([[2, true]]);
  });
});

describe('code mappings', () => {
  it('creates, lists, updates and deletes under the carrier', async () => {
    const created = await api.call('POST', '/api/mapping/L001/codes', {
      codeType: 'INSURANCE_TYPE',
      sourceCode: '01',
      sourceName: '생명',
      targetCode: 'LIFE',
    });
    const id = created.body.data.id;
    const dup = await api.call('POST', '/api/mapping/L001/codes', {
      codeType: 'INSURANCE_TYPE',
      sourceCode: '01',
      targetCode: 'X',
    });
    expect(dup).toMatchObject({ status: 409, body: { code: 'B009' } });
    await api.call('POST', '/api/mapping/N002/codes', {
      codeType: 'INSURANCE_TYPE',
      sourceCode: '01',
      targetCode: 'NON_LIFE',
    });

    const list = await api.call('GET', '/api/mapping/L001/codes');
    expect(
      list.body.data.list.map((c: any) => [c.companyCode, c.sourceCode, c.sourceName, c.targetCode]),
    ).toEqual([['L001', '01', '생명', 'LIFE']]);
    expect((await api.call('GET', `/api/mapping/N002/codes/${id}`)).status).toBe(404);

    const upd = await api.call('PUT', `/api/mapping/L001/codes/${id}`, {
      codeType: 'INSURANCE_TYPE',
      sourceCode: '01',
      targetCode: 'ANNUITY',
      isActive: false,
    });
    expect(upd.status).toBe(200);
    expect((await api.call('GET', `/api/mapping/L001/codes/${id}`)).body.data).toMatchObject({
      targetCode: 'ANNUITY',
      isActive: false,
    });
    expect((await api.call('DELETE', `/api/mapping/L001/codes/${id}`)).status).toBe(200);
    expect((await api.call('GET', '/api/mapping/L001/codes')).body.data.total).toBe(0);
  });
});

describe('test-parse: a sample file through the mappings, nothing stored', () => {
  it('shows mapped rows, errors and layout problems of a month', async () => {
    await api.call('POST', '/api/mapping/profiles', { companyCode: 'L001', dataFormat: 'CSV' });
    await api.call('POST', '/api/mapping/L001/fields', {
      targetTable: 'recruit_ledger',
      targetField: 'policy_no',
      sourceField: 'POLICY',
      sortOrder: 1,
    });
    await api.call('POST', '/api/mapping/L001/fields', {
      targetTable: 'recruit_ledger',
      targetField: 'premium',
      sourceField: 'PREM',
      sortOrder: 2,
    });
    const file = csv([
      ['POLICY', 'PREM', 'COMMISSION'],
      ['P-1', '90000', '1234.5'],
      ['P-9', '1', '2'],
    ]);
    const res = await api.upload(
      '/api/mapping/L001/test-parse',
      { settleMonth: '202507', dataType: 'RECRUIT' },
      { filename: 's.csv', content: Buffer.from(file) },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      header: ['POLICY', 'PREM', 'COMMISSION'],
      layout: { missing: [], moved: [], renamed: [] },
      rowsRead: 2,
      okCount: 1,
      errorCount: 1,
      errorTypes: { CONTRACT_NOT_FOUND: 1 },
    });
    expect(res.body.data.rows[0]).toMatchObject({
      rowNumber: 2,
      status: 'OK',
      mapped: {
        table: 'recruit_ledger',
        policyNo: 'P-1',
        commissionYear: 1,
        reportedPremium: '90000.00',
        reportedCompanyAmount: '1234.50',
        productCode: 'PR-1',
      },
      error: null,
    });
    expect(res.body.data.rows[1]).toMatchObject({
      status: 'ERROR',
      error: { errorType: 'CONTRACT_NOT_FOUND', errorField: 'policy_no', errorValue: 'P-9' },
    });

    const may = await api.upload(
      '/api/mapping/L001/test-parse',
      { settleMonth: '202505', dataType: 'RECRUIT' },
      { filename: 's.csv', content: Buffer.from(file) },
    );
    expect(may.body.data.layout).toEqual({ missing: ['COMM'], moved: [], renamed: [] });
    const raws = await api.db.selectFrom('raw_commission_data').select('raw_id').execute();
    expect(raws).toEqual([]);
  });
});
