import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type Api } from './api-helpers.js';
import { insertContract, insertProduct, seedMaster } from './helpers.js';

/**
 * Carrier files in the FIXED (byte positions and lengths in the field mapping, CP949) and JSON
 * (one array of record objects) formats, uploaded, processed (steps 2-3) and refused.
 */
let api: Api;
const MONTH = '202501';

async function mapField(company: string, body: Record<string, unknown>) {
  const res = await api.call('POST', `/api/mapping/${company}/fields`, body);
  expect(res.body).toMatchObject({ success: true });
  return res.body.data as { id: number };
}

const upload = (fields: Record<string, string>, filename: string, content: Buffer) =>
  api.upload('/api/receive/upload', fields, { filename, content });

/** A hand-made fixed-width record: text padded to a byte width in CP949 (right-aligned for amounts). */
function cp949Field(text: string, width: number, align: 'left' | 'right' = 'left'): Buffer {
  const bytes = iconv.encode(text, 'cp949');
  if (bytes.length > width) throw new Error(`'${text}' is wider than ${width} bytes`);
  const pad = Buffer.alloc(width - bytes.length, 0x20);
  return align === 'left' ? Buffer.concat([bytes, pad]) : Buffer.concat([pad, bytes]);
}

beforeAll(async () => {
  api = await startApi();
  const ids = await seedMaster(api.db);
  await insertContract(api.db, ids, 'P-100', '2025-01-10');
  await insertContract(api.db, ids, 'P-101', '2025-01-20', '200000.00');
  const productId = await insertProduct(api.db, 'N002', 'NP-1');
  await insertContract(api.db, { ...ids, productId }, 'Q-200', '2023-06-15', '50000.00');

  // L001: fixed-width CP949 records after one header line; bytes 0-9 policy, 10-15 pay method
  // (Korean: 2 bytes a syllable), 16-27 commission right-aligned
  expect(
    await api.call('POST', '/api/mapping/profiles', {
      companyCode: 'L001',
      dataFormat: 'FIXED',
      fileEncoding: 'CP949',
      headerRow: 1,
      dataStartRow: 2,
    }),
  ).toMatchObject({ status: 200 });
  for (const [field, source, start, length, order] of [
    ['policy_no', '증권번호', 0, 10, 1],
    ['pay_method', '납입방법', 10, 6, 2],
    ['company_amount', '수수료', 16, 12, 3],
  ] as const) {
    await mapField('L001', {
      targetTable: 'recruit_ledger',
      targetField: field,
      sourceField: source,
      sourceColIndex: start,
      sourceLength: length,
      sortOrder: order,
    });
  }

  // N002: a JSON array, one data type per record
  expect(
    await api.call('POST', '/api/mapping/profiles', { companyCode: 'N002', dataFormat: 'JSON' }),
  ).toMatchObject({ status: 200 });
  await mapField('N002', {
    targetTable: 'maintain_ledger',
    targetField: 'policy_no',
    sourceField: 'policy',
    sortOrder: 1,
  });
  await mapField('N002', {
    targetTable: 'maintain_ledger',
    targetField: 'company_amount',
    sourceField: 'commission',
    sortOrder: 2,
  });
});

afterAll(async () => {
  await api?.close();
});

const record = (policy: string, payMethod: string, amount: string) =>
  Buffer.concat([cp949Field(policy, 10), cp949Field(payMethod, 6), cp949Field(amount, 12, 'right')]);
const fixedFile = (...records: Buffer[]) =>
  Buffer.concat(
    [iconv.encode('L001 수수료 202501', 'cp949'), ...records].flatMap((r) => [r, Buffer.from('\r\n')]),
  );

describe('fixed-width carrier files (CP949)', () => {
  it('cuts the records at the byte positions of the mapping and decodes each field', async () => {
    const content = fixedFile(record('P-100', '월납', '12500.50'), record('P-101', '연납', '25000'));
    // two Hangul syllables are 4 bytes: every record is exactly 28 bytes
    expect(content.length).toBe(iconv.encode('L001 수수료 202501', 'cp949').length + 2 + 2 * 30);
    const res = await upload(
      { companyCode: 'L001', settleMonth: MONTH, dataType: 'RECRUIT' },
      'l001.dat',
      content,
    );
    expect(res.body).toMatchObject({
      success: true,
      data: { fileKind: 'FIXED', rowCount: 2, header: ['증권번호', '납입방법', '수수료'] },
    });
    const file = await api.db
      .selectFrom('receive_file')
      .select(['file_kind', 'file_encoding'])
      .where('receive_file_id', '=', res.body.data.receiveFileId)
      .executeTakeFirstOrThrow();
    expect(file).toEqual({ file_kind: 'FIXED', file_encoding: 'CP949' });
    const raws = await api.db
      .selectFrom('raw_commission_data')
      .select(['row_number', 'raw_content'])
      .where('company_code', '=', 'L001')
      .orderBy('raw_id')
      .execute();
    expect(raws.map((r) => [r.row_number, JSON.parse(r.raw_content)])).toEqual([
      [2, { 증권번호: 'P-100', 납입방법: '월납', 수수료: '12500.50' }],
      [3, { 증권번호: 'P-101', 납입방법: '연납', 수수료: '25000' }],
    ]);

    const processed = await api.call('POST', '/api/receive/process', {
      companyCode: 'L001',
      settleMonth: MONTH,
    });
    expect(processed.body.data.steps).toMatchObject([
      { step: 'transformData', total: 2, success: 2, error: 0 },
      { step: 'reconcile', total: 1, success: 1, error: 0 },
    ]);
    const ledger = await api.db
      .selectFrom('recruit_ledger')
      .select(['policy_no', 'pay_method', 'reported_company_amount'])
      .orderBy('policy_no')
      .execute();
    expect(ledger).toEqual([
      { policy_no: 'P-100', pay_method: '월납', reported_company_amount: '12500.50' },
      { policy_no: 'P-101', pay_method: '연납', reported_company_amount: '25000.00' },
    ]);
  });

  it('refuses a file whose records are shorter than the mapped layout, before any row is stored', async () => {
    const short = Buffer.concat([cp949Field('P-100', 10), cp949Field('월납', 6), cp949Field('1', 4)]);
    const res = await upload(
      { companyCode: 'L001', settleMonth: '202502', dataType: 'RECRUIT' },
      'short.dat',
      fixedFile(short),
    );
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'E411',
        message: "record 2 is 20 bytes long; the field mapping of L001 reads '수수료' up to byte 28",
      },
    });
    expect(
      await api.db
        .selectFrom('raw_commission_data')
        .select('raw_id')
        .where('settle_month', '=', '202502')
        .execute(),
    ).toEqual([]);
  });

  it('needs a data type and a byte length for every mapped field', async () => {
    const content = fixedFile(record('P-100', '월납', '1'));
    expect(await upload({ companyCode: 'L001', settleMonth: '202502' }, 'x.dat', content)).toMatchObject({
      status: 400,
      body: {
        data: {
          errors: [
            { field: 'dataType', message: expect.stringMatching(/^is required for a fixed-width file/) },
          ],
        },
      },
    });
    await mapField('L001', {
      targetTable: 'recruit_ledger',
      targetField: 'premium',
      sourceField: '보험료',
      sourceColIndex: 28,
      sortOrder: 4,
      effectiveFrom: '2025-03-01',
    });
    const res = await upload(
      { companyCode: 'L001', settleMonth: '202503', dataType: 'RECRUIT' },
      'y.dat',
      content,
    );
    expect(res.body.message).toBe(
      "the field mapping of L001 gives no byte position and length for '보험료' (sourceColIndex, sourceLength), which a fixed-width file needs",
    );
    const lengthOnly = await api.call('POST', '/api/mapping/L001/fields', {
      targetTable: 'recruit_ledger',
      targetField: 'commission_year',
      sourceField: 'YEAR',
      sourceLength: 2,
    });
    expect(lengthOnly.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'sourceColIndex' }] } });
  });
});

describe('JSON carrier files', () => {
  const json = (text: string) => Buffer.from(text, 'utf8');

  it('stores each record of the array as delivered and maps it in step 2', async () => {
    const res = await upload(
      { companyCode: 'N002', settleMonth: MONTH },
      'n002.json',
      json(
        '[\n {"policy": "Q-200", "commission": 3300.10, "DATA_TYPE": "MAINTAIN", "note": "a ] in [ text \\" "},\n' +
          ' {"policy": "Q-404", "commission": "99.90", "DATA_TYPE": "MAINTAIN", "extra": {"x": [1, 2]}}\n]\n',
      ),
    );
    expect(res.body).toMatchObject({
      success: true,
      data: { fileKind: 'JSON', rowCount: 2, header: ['policy', 'commission', 'DATA_TYPE', 'note'] },
    });
    const raws = await api.db
      .selectFrom('raw_commission_data')
      .select(['row_number', 'data_type', 'raw_content'])
      .where('company_code', '=', 'N002')
      .orderBy('raw_id')
      .execute();
    expect(raws).toEqual([
      {
        row_number: 1,
        data_type: 'MAINTAIN',
        raw_content:
          '{"policy": "Q-200", "commission": 3300.10, "DATA_TYPE": "MAINTAIN", "note": "a ] in [ text \\" "}',
      },
      {
        row_number: 2,
        data_type: 'MAINTAIN',
        raw_content:
          '{"policy": "Q-404", "commission": "99.90", "DATA_TYPE": "MAINTAIN", "extra": {"x": [1, 2]}}',
      },
    ]);
    const processed = await api.call('POST', '/api/receive/process', {
      companyCode: 'N002',
      settleMonth: MONTH,
    });
    expect(processed.body.data.steps).toMatchObject([
      { step: 'transformData', total: 2, success: 1, error: 1 },
      { step: 'reconcile', total: 1, success: 0, error: 1 },
    ]);
    const recon = await api.db
      .selectFrom('reconciliation')
      .select(['expected_amount', 'actual_amount', 'diff_amount'])
      .where('company_code', '=', 'N002')
      .executeTakeFirstOrThrow();
    expect(recon).toEqual({ expected_amount: '3400.00', actual_amount: '3300.10', diff_amount: '99.90' });
  });

  it('refuses a renamed field and a file that is no closed array', async () => {
    const renamed = await upload(
      { companyCode: 'N002', settleMonth: '202502', dataType: 'MAINTAIN' },
      'renamed.json',
      json('[{"policy": "Q-200", "comm": 1}]'),
    );
    expect(renamed).toMatchObject({ status: 400, body: { data: { layout: { missing: ['commission'] } } } });
    const open = await upload(
      { companyCode: 'N002', settleMonth: '202502', dataType: 'MAINTAIN' },
      'open.json',
      json('[{"policy": "Q-200", "commission": 1}, {"policy": "Q-201"'),
    );
    expect(open).toMatchObject({
      status: 400,
      body: { message: 'the JSON array is not closed (the file ends inside it)' },
    });
    const object = await upload(
      { companyCode: 'N002', settleMonth: '202502', dataType: 'MAINTAIN' },
      'object.json',
      json('{"policy": "Q-200"}'),
    );
    expect(object.body.message).toBe('the file is not a JSON array (it must start with [)');
    expect(
      await api.db
        .selectFrom('raw_commission_data')
        .select('raw_id')
        .where('settle_month', '=', '202502')
        .execute(),
    ).toEqual([]);
  });
});
