import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv, startApi, xlsx, type Api } from './api-helpers.js';
import { insertContract, insertProduct, seedMaster, type MasterIds } from './helpers.js';

let api: Api;
let ids: MasterIds;
const MONTH = '202501';

async function mapField(company: string, body: Record<string, unknown>) {
  const res = await api.call('POST', `/api/mapping/${company}/fields`, body);
  expect(res.body).toMatchObject({ success: true, code: '0000' });
  return res.body.data as { id: number; version: number };
}

const l001Csv = csv([
  ['POLICY', 'PREM', 'COMM'],
  ['p-100', '100,000', '12500.50'],
  ['P-101', '200000', '25000'],
]);

beforeAll(async () => {
  api = await startApi();
  ids = await seedMaster(api.db);
  const n002Product = await insertProduct(api.db, 'N002', 'NP-1');
  const f003Product = await insertProduct(api.db, 'F003', 'FP-1');
  await insertContract(api.db, ids, 'P-100', '2025-01-10');
  await insertContract(api.db, ids, 'P-101', '2025-01-20', '200000.00');
  await insertContract(api.db, { ...ids, productId: n002Product }, 'Q-200', '2023-06-15', '50000.00');
  await insertContract(api.db, { ...ids, productId: f003Product }, 'F-300', '2025-01-05', '70000.00');
  await insertContract(api.db, { ...ids, productId: f003Product }, 'F-301', '2022-11-01', '80000.00');

  // L001: CSV, UTF-8 (the default profile is EXCEL, so the profile says CSV)
  expect(
    (await api.call('POST', '/api/mapping/profiles', { companyCode: 'L001', dataFormat: 'CSV' })).status,
  ).toBe(200);
  await mapField('L001', {
    targetTable: 'recruit_ledger',
    targetField: 'policy_no',
    sourceField: 'POLICY',
    sourceColIndex: 0,
    transformRule: 'TRIM|UPPER',
    isRequired: true,
    sortOrder: 1,
  });
  await mapField('L001', {
    targetTable: 'recruit_ledger',
    targetField: 'premium',
    sourceField: 'PREM',
    sourceColIndex: 1,
    sortOrder: 2,
  });
  await mapField('L001', {
    targetTable: 'recruit_ledger',
    targetField: 'company_amount',
    sourceField: 'COMM',
    sourceColIndex: 2,
    isRequired: true,
    sortOrder: 3,
  });

  // N002: CP949 CSV with Korean headers, maintain data
  expect(
    (
      await api.call('POST', '/api/mapping/profiles', {
        companyCode: 'N002',
        dataFormat: 'CSV',
        fileEncoding: 'CP949',
      })
    ).status,
  ).toBe(200);
  await mapField('N002', {
    targetTable: 'maintain_ledger',
    targetField: 'policy_no',
    sourceField: '증권번호',
    isRequired: true,
    sortOrder: 1,
  });
  await mapField('N002', {
    targetTable: 'maintain_ledger',
    targetField: 'premium',
    sourceField: '보험료',
    sortOrder: 2,
  });
  await mapField('N002', {
    targetTable: 'maintain_ledger',
    targetField: 'company_amount',
    sourceField: '수수료',
    sortOrder: 3,
  });

  // F003: XLSX on sheet 'Data', one data type per row (DATA_TYPE column), amounts in cents
  expect(
    (
      await api.call('POST', '/api/mapping/profiles', {
        companyCode: 'F003',
        dataFormat: 'EXCEL',
        sheetName: 'Data',
      })
    ).status,
  ).toBe(200);
  for (const table of ['recruit_ledger', 'maintain_ledger']) {
    await mapField('F003', {
      targetTable: table,
      targetField: 'policy_no',
      sourceField: 'Policy',
      isRequired: true,
      sortOrder: 1,
    });
    await mapField('F003', {
      targetTable: table,
      targetField: 'company_amount',
      sourceField: 'Commission',
      transformRule: 'DIVIDE:100',
      sortOrder: 2,
    });
  }
});

afterAll(async () => {
  await api?.close();
});

describe('receive: carrier files in', () => {
  let l001FileId: number;

  it('stores a UTF-8 CSV file as one raw row per record, with the file kept', async () => {
    const res = await api.upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: MONTH, dataType: 'RECRUIT' },
      {
        filename: 'L001_202501.csv',
        content: Buffer.from(l001Csv),
      },
    );
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      companyCode: 'L001',
      settleMonth: MONTH,
      dataType: 'RECRUIT',
      fileName: 'L001_202501.csv',
      fileKind: 'CSV',
      rowCount: 2,
      header: ['POLICY', 'PREM', 'COMM'],
      replacedReceiveFileId: null,
    });
    l001FileId = data.receiveFileId;
    expect((await api.storedFile(data.fileId)).toString()).toBe(l001Csv);

    const raws = await api.db
      .selectFrom('raw_commission_data')
      .select(['data_type', 'raw_content', 'parse_status', 'row_number', 'batch_id', 'file_name'])
      .where('receive_file_id', '=', l001FileId)
      .orderBy('raw_id')
      .execute();
    expect(raws).toEqual([
      {
        data_type: 'RECRUIT',
        raw_content: '{"POLICY":"p-100","PREM":"100,000","COMM":"12500.50"}',
        parse_status: 'PENDING',
        row_number: 2,
        batch_id: `UPLOAD-${l001FileId}`,
        file_name: 'L001_202501.csv',
      },
      {
        data_type: 'RECRUIT',
        raw_content: '{"POLICY":"P-101","PREM":"200000","COMM":"25000"}',
        parse_status: 'PENDING',
        row_number: 3,
        batch_id: `UPLOAD-${l001FileId}`,
        file_name: 'L001_202501.csv',
      },
    ]);
  });

  it('stores a CP949 CSV with Korean headers decoded', async () => {
    const text = csv([
      ['증권번호', '보험료', '수수료'],
      ['Q-200', '50000', '3300'],
      ['Q-999', '1000', '100'],
    ]);
    const res = await api.upload(
      '/api/receive/upload',
      { companyCode: 'N002', settleMonth: MONTH, dataType: 'MAINTAIN' },
      {
        filename: 'N002.csv',
        content: iconv.encode(text, 'cp949'),
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      rowCount: 2,
      header: ['증권번호', '보험료', '수수료'],
      fileKind: 'CSV',
    });
    const raw = await api.db
      .selectFrom('raw_commission_data')
      .select('raw_content')
      .where('receive_file_id', '=', res.body.data.receiveFileId)
      .orderBy('raw_id')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(raw.raw_content)).toEqual({ 증권번호: 'Q-200', 보험료: '50000', 수수료: '3300' });
  });

  it('stores an XLSX file whose rows carry their own data type', async () => {
    const content = await xlsx(
      [
        ['Policy', 'Commission', 'DATA_TYPE'],
        ['F-300', 456789, 'RECRUIT'],
        ['F-301', 120000, 'MAINTAIN'],
      ],
      'Data',
    );
    const res = await api.upload(
      '/api/receive/upload',
      { companyCode: 'F003', settleMonth: MONTH },
      { filename: 'F003.xlsx', content },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ rowCount: 2, dataType: null, fileKind: 'XLSX' });
    const raws = await api.db
      .selectFrom('raw_commission_data')
      .select(['data_type', 'raw_content'])
      .where('receive_file_id', '=', res.body.data.receiveFileId)
      .orderBy('raw_id')
      .execute();
    expect(raws).toEqual([
      { data_type: 'RECRUIT', raw_content: '{"Policy":"F-300","Commission":"456789","DATA_TYPE":"RECRUIT"}' },
      {
        data_type: 'MAINTAIN',
        raw_content: '{"Policy":"F-301","Commission":"120000","DATA_TYPE":"MAINTAIN"}',
      },
    ]);
  });

  it('shows per carrier what is expected and what arrived before processing', async () => {
    const res = await api.call('GET', `/api/receive/status?settleMonth=${MONTH}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      settleMonth: MONTH,
      expectedCount: 3,
      receivedCount: 3,
      missing: [],
    });
    expect(
      res.body.data.carriers.map((c: any) => [
        c.companyCode,
        c.fileCount,
        c.rowCount,
        c.pendingCount,
        c.okCount,
        c.reconStatus,
      ]),
    ).toEqual([
      ['F003', 1, 2, 2, 0, null],
      ['L001', 1, 2, 2, 0, null],
      ['N002', 1, 2, 2, 0, null],
    ]);
  });

  it('runs steps 2-3 for one carrier and month: ledger rows carry the reported amounts, MATCHED', async () => {
    const res = await api.call('POST', '/api/receive/process', { companyCode: 'L001', settleMonth: MONTH });
    expect(res.status).toBe(200);
    expect(res.body.data.steps.map((s: any) => ({ ...s, durationMs: 0 }))).toEqual([
      { step: 'transformData', total: 2, success: 2, error: 0, skipped: 0, durationMs: 0 },
      { step: 'reconcile', total: 1, success: 1, error: 0, skipped: 0, durationMs: 0 },
    ]);
    const ledger = await api.db
      .selectFrom('recruit_ledger')
      .select([
        'policy_no',
        'commission_year',
        'reported_premium',
        'reported_company_amount',
        'reconcile_status',
        'company_code',
      ])
      .where('settle_month', '=', MONTH)
      .where('company_code', '=', 'L001')
      .orderBy('policy_no')
      .execute();
    expect(ledger).toEqual([
      {
        policy_no: 'P-100',
        commission_year: 1,
        reported_premium: '100000.00',
        reported_company_amount: '12500.50',
        reconcile_status: 'PENDING',
        company_code: 'L001',
      },
      {
        policy_no: 'P-101',
        commission_year: 1,
        reported_premium: '200000.00',
        reported_company_amount: '25000.00',
        reconcile_status: 'PENDING',
        company_code: 'L001',
      },
    ]);
    const recon = await api.db
      .selectFrom('reconciliation')
      .select([
        'expected_amount',
        'actual_amount',
        'diff_amount',
        'recon_status',
        'expected_count',
        'actual_count',
      ])
      .where('company_code', '=', 'L001')
      .where('settle_month', '=', MONTH)
      .executeTakeFirstOrThrow();
    expect(recon).toEqual({
      expected_amount: '37500.50',
      actual_amount: '37500.50',
      diff_amount: '0.00',
      recon_status: 'MATCHED',
      expected_count: 2,
      actual_count: 2,
    });
  });

  it('processes the CP949 carrier: the unknown policy leaves a DIFF of its reported amount', async () => {
    const res = await api.call('POST', '/api/receive/process', { companyCode: 'N002', settleMonth: MONTH });
    expect(res.body.data.steps[0]).toMatchObject({ step: 'transformData', total: 2, success: 1, error: 1 });
    expect(res.body.data.steps[1]).toMatchObject({ step: 'reconcile', total: 1, success: 0, error: 1 });
    const ledger = await api.db
      .selectFrom('maintain_ledger')
      .select(['policy_no', 'commission_year', 'reported_premium', 'reported_company_amount'])
      .where('company_code', '=', 'N002')
      .execute();
    expect(ledger).toEqual([
      {
        policy_no: 'Q-200',
        commission_year: 2,
        reported_premium: '50000.00',
        reported_company_amount: '3300.00',
      },
    ]);
    const recon = await api.db
      .selectFrom('reconciliation')
      .select(['expected_amount', 'actual_amount', 'diff_amount', 'recon_status'])
      .where('company_code', '=', 'N002')
      .executeTakeFirstOrThrow();
    expect(recon).toEqual({
      expected_amount: '3400.00',
      actual_amount: '3300.00',
      diff_amount: '100.00',
      recon_status: 'DIFF',
    });
  });

  it('processes the XLSX carrier into both ledgers', async () => {
    const res = await api.call('POST', '/api/receive/process', { companyCode: 'F003', settleMonth: MONTH });
    expect(res.body.data.steps[0]).toMatchObject({ total: 2, success: 2, error: 0 });
    const recruit = await api.db
      .selectFrom('recruit_ledger')
      .select(['policy_no', 'reported_company_amount'])
      .where('company_code', '=', 'F003')
      .execute();
    const maintain = await api.db
      .selectFrom('maintain_ledger')
      .select(['policy_no', 'commission_year', 'reported_company_amount'])
      .where('company_code', '=', 'F003')
      .execute();
    expect(recruit).toEqual([{ policy_no: 'F-300', reported_company_amount: '4567.89' }]);
    expect(maintain).toEqual([
      { policy_no: 'F-301', commission_year: 3, reported_company_amount: '1200.00' },
    ]);

    const status = await api.call('GET', `/api/receive/status?settleMonth=${MONTH}&companyCode=F003`);
    expect(status.body.data.carriers).toEqual([
      expect.objectContaining({
        companyCode: 'F003',
        rowCount: 2,
        okCount: 2,
        errorCount: 0,
        pendingCount: 0,
        reportedAmount: '5767.89',
        reconStatus: 'MATCHED',
        expectedAmount: '5767.89',
        actualAmount: '5767.89',
        diffAmount: '0.00',
      }),
    ]);
  });

  it('refuses the same file again with B009, and replaces it when asked', async () => {
    const again = await api.upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: MONTH, dataType: 'RECRUIT' },
      {
        filename: 'copy.csv',
        content: Buffer.from(l001Csv),
      },
    );
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, code: 'B009', data: { receiveFileId: l001FileId } });
    expect(again.body.message).toMatch(
      new RegExp(
        `^this file was already received from L001 for 202501 \\(upload ${l001FileId}, 2 rows, .+\\); send replace=true to replace it$`,
      ),
    );

    const replaced = await api.upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: MONTH, dataType: 'RECRUIT', replace: 'true' },
      {
        filename: 'copy.csv',
        content: Buffer.from(l001Csv),
      },
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({ rowCount: 2, replacedReceiveFileId: l001FileId });
    const files = await api.db
      .selectFrom('receive_file')
      .select(['receive_file_id', 'status', 'replaced_by'])
      .where('company_code', '=', 'L001')
      .orderBy('receive_file_id')
      .execute();
    expect(files).toEqual([
      { receive_file_id: l001FileId, status: 'REPLACED', replaced_by: replaced.body.data.receiveFileId },
      { receive_file_id: replaced.body.data.receiveFileId, status: 'ACTIVE', replaced_by: null },
    ]);
    // the old rows are gone and their figures left the ledger until the new rows are processed
    const raws = await api.db
      .selectFrom('raw_commission_data')
      .select(['receive_file_id', 'parse_status'])
      .where('company_code', '=', 'L001')
      .execute();
    expect(raws).toEqual([
      { receive_file_id: replaced.body.data.receiveFileId, parse_status: 'PENDING' },
      { receive_file_id: replaced.body.data.receiveFileId, parse_status: 'PENDING' },
    ]);
    const cleared = await api.db
      .selectFrom('recruit_ledger')
      .select(['reported_company_amount', 'raw_id'])
      .where('company_code', '=', 'L001')
      .execute();
    expect(cleared).toEqual([
      { reported_company_amount: null, raw_id: null },
      { reported_company_amount: null, raw_id: null },
    ]);
    const res = await api.call('POST', '/api/receive/process', { companyCode: 'L001', settleMonth: MONTH });
    expect(res.body.data.steps[0]).toMatchObject({ total: 2, success: 2 });
    const ledger = await api.db
      .selectFrom('recruit_ledger')
      .select('reported_company_amount')
      .where('company_code', '=', 'L001')
      .orderBy('policy_no')
      .execute();
    expect(ledger.map((l) => l.reported_company_amount)).toEqual(['12500.50', '25000.00']);
  });

  it('refuses a file whose columns were renamed, moved or dropped, naming them, before storing a row', async () => {
    const before = await api.db
      .selectFrom('raw_commission_data')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const renamed = await api.upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: '202502', dataType: 'RECRUIT' },
      {
        filename: 'renamed.csv',
        content: Buffer.from(
          csv([
            ['POLICY', 'PREMIUM', 'COMM'],
            ['P-100', '1', '2'],
          ]),
        ),
      },
    );
    expect(renamed.status).toBe(400);
    expect(renamed.body).toMatchObject({
      code: 'E411',
      message:
        "the file layout does not match the active field mapping of L001: column B is 'PREMIUM', expected 'PREM' (renamed?)",
      data: {
        layout: { missing: [], moved: [], renamed: [{ position: 'B', expected: 'PREM', found: 'PREMIUM' }] },
      },
    });

    const moved = await api.upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: '202502', dataType: 'RECRUIT' },
      {
        filename: 'moved.csv',
        content: Buffer.from(
          csv([
            ['POLICY', 'COMM', 'PREM'],
            ['P-100', '2', '1'],
          ]),
        ),
      },
    );
    expect(moved.body.message).toBe(
      "the file layout does not match the active field mapping of L001: column 'PREM' moved from B to C; column 'COMM' moved from C to B",
    );

    const missing = await api.upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: '202502', dataType: 'RECRUIT' },
      {
        filename: 'missing.csv',
        content: Buffer.from(
          csv([
            ['POLICY', 'PREM'],
            ['P-100', '1'],
          ]),
        ),
      },
    );
    expect(missing.body.message).toBe(
      "the file layout does not match the active field mapping of L001: column 'COMM' is missing",
    );

    const after = await api.db
      .selectFrom('raw_commission_data')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const files = await api.db
      .selectFrom('receive_file')
      .select('receive_file_id')
      .where('settle_month', '=', '202502')
      .execute();
    expect(files).toEqual([]);
  });

  it('refuses uploads without a file, without a data type, for an unknown carrier', async () => {
    const noFile = await api.upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: MONTH, dataType: 'RECRUIT' },
      undefined,
    );
    expect(noFile.body).toMatchObject({
      code: 'E411',
      data: { errors: [{ field: 'file', message: 'is required' }] },
    });
    const noType = await api.upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: MONTH },
      {
        filename: 'a.csv',
        content: Buffer.from(
          csv([
            ['POLICY', 'PREM', 'COMM'],
            ['X', '1', '1'],
          ]),
        ),
      },
    );
    expect(noType.body).toMatchObject({
      code: 'E411',
      data: { errors: [{ field: 'dataType', message: 'is required (the file has no DATA_TYPE column)' }] },
    });
    const unknown = await api.upload(
      '/api/receive/upload',
      { companyCode: 'ZZZ9', settleMonth: MONTH, dataType: 'RECRUIT' },
      { filename: 'a.csv', content: Buffer.from('A\n1\n') },
    );
    expect(unknown).toMatchObject({
      status: 404,
      body: { code: 'E404', message: 'Insurance company ZZZ9 not found' },
    });
    const badMonth = await api.upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: '2025-01', dataType: 'RECRUIT' },
      { filename: 'a.csv', content: Buffer.from('A\n1\n') },
    );
    expect(badMonth.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'settleMonth' }] } });
  });

  it('lists the received files', async () => {
    const res = await api.call(
      'GET',
      '/api/receive/files?companyCode=L001&sortField=receiveFileId&sortOrder=ASC',
    );
    expect(res.body.data.list.map((f: any) => [f.fileName, f.status, f.rowCount, f.fileKind])).toEqual([
      ['L001_202501.csv', 'REPLACED', 2, 'CSV'],
      ['copy.csv', 'ACTIVE', 2, 'CSV'],
    ]);
  });

  it('lists the raw rows of a carrier and month with their parse status', async () => {
    const res = await api.call(
      'GET',
      `/api/receive/data?companyCode=N002&settleMonth=${MONTH}&sortField=rawId&sortOrder=ASC`,
    );
    expect(
      res.body.data.list.map((r: any) => [r.parseStatus, r.reportedAmount, r.mappedTable, r.rowNumber]),
    ).toEqual([
      ['OK', '3300.00', 'maintain_ledger', 2],
      ['ERROR', '100.00', null, 3],
    ]);
  });

  it('refuses to process while a settlement run is active (B010)', async () => {
    const run = await api.db
      .insertInto('batch_job_log')
      .values({ job_name: 'SETTLEMENT', settle_month: MONTH, status: 'RUNNING' })
      .returning('job_log_id')
      .executeTakeFirstOrThrow();
    try {
      const res = await api.call('PUT', '/api/receive/process', { companyCode: 'L001', settleMonth: MONTH });
      expect(res).toMatchObject({
        status: 409,
        body: { code: 'B010', message: `settlement run ${run.job_log_id} is in progress; process after it` },
      });
    } finally {
      await api.db.deleteFrom('batch_job_log').where('job_log_id', '=', run.job_log_id).execute();
    }
  });

  it('requires RECEIVE_DATA grants', async () => {
    const token = await api.ctx.tokenFor('AGENT');
    const res = await api.call('GET', `/api/receive/status?settleMonth=${MONTH}`, undefined, token);
    expect(res).toMatchObject({ status: 403, body: { code: 'E403' } });
  });
});
