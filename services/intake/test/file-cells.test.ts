import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv, startApi, xlsx, type Api } from './api-helpers.js';
import { seedMaster } from './helpers.js';
import { minimalXlsx, sharedStringsBomb } from './zip-builder.js';

/**
 * DECISIONS "Text input" for file cells: a NUL or lone surrogate makes that row an error row
 * (INVALID_INPUT naming the column); no data rows, more than 16,384 columns or a line over 1 MiB
 * refuse the file with E411 before anything is stored. Carrier uploads, template imports,
 * test-parse and the sample-header reader alike.
 */

let api: Api;
const MONTH = '202501';
const MiB = 1024 * 1024;

async function mapField(company: string, body: Record<string, unknown>) {
  const res = await api.call('POST', `/api/mapping/${company}/fields`, body);
  expect(res.body).toMatchObject({ success: true });
}

async function counts() {
  const count = async (table: 'receive_file' | 'raw_commission_data' | 'upload_history' | 'commission_rate') =>
    Number((await api.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    receiveFiles: await count('receive_file'),
    rawRows: await count('raw_commission_data'),
    histories: await count('upload_history'),
    rates: await count('commission_rate'),
  };
}

/** The raw rows of a received file in row order, each with its parse error (if any). */
function rowsWithErrors(receiveFileId: number) {
  return api.db
    .selectFrom('raw_commission_data as r')
    .leftJoin('parse_error_log as e', 'e.raw_id', 'r.raw_id')
    .select(['r.row_number', 'r.parse_status', 'r.raw_content', 'e.error_field', 'e.error_message'])
    .where('r.receive_file_id', '=', receiveFileId)
    .orderBy('r.row_number')
    .execute();
}

function refusal(message: string) {
  return { success: false, code: 'E411', data: { errors: [{ field: 'file', message }] } };
}

const upload = (companyCode: string, content: Buffer, filename = 'f.csv', dataType = 'RECRUIT') =>
  api.upload('/api/receive/upload', { companyCode, settleMonth: MONTH, dataType }, { filename, content });

beforeAll(async () => {
  api = await startApi();
  await seedMaster(api.db);
  await api.db
    .insertInto('insurance_company')
    .values({ company_code: 'X004', company_name: 'Delta Life', company_type: 'LIFE' })
    .execute();
  // L001: CSV with three mapped columns; F003: default profile (EXCEL), no mappings
  expect((await api.call('POST', '/api/mapping/profiles', { companyCode: 'L001', dataFormat: 'CSV' })).status).toBe(200);
  for (const [targetField, sourceField, sortOrder] of [
    ['policy_no', 'POLICY', 1],
    ['premium', 'PREM', 2],
    ['company_amount', 'COMM', 3],
  ] as const) {
    await mapField('L001', { targetTable: 'recruit_ledger', targetField, sourceField, sortOrder });
  }
  // N002: a JSON array
  expect((await api.call('POST', '/api/mapping/profiles', { companyCode: 'N002', dataFormat: 'JSON' })).status).toBe(200);
  await mapField('N002', { targetTable: 'recruit_ledger', targetField: 'policy_no', sourceField: 'policy', sortOrder: 1 });
  // X004: fixed width, policy in bytes 0-9
  expect(
    (await api.call('POST', '/api/mapping/profiles', { companyCode: 'X004', dataFormat: 'FIXED', headerRow: 0, dataStartRow: 1 }))
      .status,
  ).toBe(200);
  await mapField('X004', {
    targetTable: 'recruit_ledger',
    targetField: 'policy_no',
    sourceField: 'POLICY',
    sourceColIndex: 0,
    sourceLength: 10,
    sortOrder: 1,
  });
});

afterAll(async () => {
  await api?.close();
});

describe('carrier uploads: a bad cell makes an error row, never raw text with NUL', () => {
  it('stores the row with a NUL cell as an ERROR row naming the column, the others PENDING', async () => {
    const file = csv([
      ['POLICY', 'PREM', 'COMM'],
      ['P-1', '100', '10.00'],
      ['P-2', '2\u000000', '20.00'],
      ['P-3', '300', '30.00'],
    ]);
    const res = await upload('L001', Buffer.from(file));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ rowCount: 3, header: ['POLICY', 'PREM', 'COMM'] });
    const receiveFileId = res.body.data.receiveFileId as number;
    const raws = await api.db
      .selectFrom('raw_commission_data')
      .select(['raw_id', 'row_number', 'parse_status', 'raw_content'])
      .where('receive_file_id', '=', receiveFileId)
      .orderBy('row_number')
      .execute();
    expect(raws.map(({ raw_id: _id, ...r }) => r)).toEqual([
      { row_number: 2, parse_status: 'PENDING', raw_content: '{"POLICY":"P-1","PREM":"100","COMM":"10.00"}' },
      { row_number: 3, parse_status: 'ERROR', raw_content: '{"POLICY":"P-2","PREM":"2\uFFFD00","COMM":"20.00"}' },
      { row_number: 4, parse_status: 'PENDING', raw_content: '{"POLICY":"P-3","PREM":"300","COMM":"30.00"}' },
    ]);
    expect(raws.some((r) => r.raw_content.includes('\\u0000'))).toBe(false);
    const errors = await api.db
      .selectFrom('parse_error_log')
      .select(['raw_id', 'error_type', 'error_field', 'error_value', 'error_message', 'resolve_status'])
      .where('raw_id', 'in', raws.map((r) => r.raw_id))
      .execute();
    expect(errors).toEqual([
      {
        raw_id: raws[1]!.raw_id,
        error_type: 'INVALID_INPUT',
        error_field: 'PREM',
        error_value: '2\uFFFD00',
        error_message: 'PREM must not contain NUL characters',
        resolve_status: 'OPEN',
      },
    ]);

    // the error row is listed; resolving it by re-parsing is refused, ignoring it works
    const listed = await api.call('GET', `/api/receive/errors?companyCode=L001&settleMonth=${MONTH}`);
    expect(listed.status).toBe(200);
    const errorId = (await api.db.selectFrom('parse_error_log').select('error_id').where('raw_id', '=', raws[1]!.raw_id).executeTakeFirstOrThrow())
      .error_id;
    const resolved = await api.call('PUT', `/api/receive/errors/${errorId}/resolve`, { status: 'RESOLVED' });
    expect(resolved.body).toMatchObject({
      code: 'E400',
      message: `parse error ${errorId}: the file's cell PREM held characters that are not text; correct the file and upload it again (replace=true), or ignore the error`,
    });
    const ignored = await api.call('PUT', `/api/receive/errors/${errorId}/resolve`, { status: 'IGNORED' });
    expect(ignored.body).toMatchObject({ success: true, data: { resolveStatus: 'IGNORED', parseStatus: 'ERROR' } });
  });

  it('a lone surrogate in an xlsx cell (&#xD800;) and a NUL written as _x0000_ are error rows too', async () => {
    const content = minimalXlsx([
      ['POLICY', 'NOTE'],
      ['P-1', { raw: 'a&#xD800;b' }],
      ['P-2', { raw: 'ok' }],
      [{ raw: 'P_x0000_3' }, 'x'],
    ]);
    const res = await upload('F003', content, 'f.xlsx');
    expect(res.body).toMatchObject({ success: true, data: { fileKind: 'XLSX', rowCount: 3 } });
    const rows = await rowsWithErrors(res.body.data.receiveFileId);
    expect(rows).toEqual([
      {
        row_number: 2,
        parse_status: 'ERROR',
        raw_content: '{"POLICY":"P-1","NOTE":"a\uFFFDb"}',
        error_field: 'NOTE',
        error_message: 'NOTE must not contain unpaired surrogate characters',
      },
      { row_number: 3, parse_status: 'PENDING', raw_content: '{"POLICY":"P-2","NOTE":"ok"}', error_field: null, error_message: null },
      {
        row_number: 4,
        parse_status: 'ERROR',
        raw_content: '{"POLICY":"P\uFFFD3","NOTE":"x"}',
        error_field: 'POLICY',
        error_message: 'POLICY must not contain NUL characters',
      },
    ]);
  });

  it('a JSON record with an escaped NUL is an error row; its text is cleaned, digits kept as delivered', async () => {
    const file = '[{"policy":"J-1","amount":12345678901234567.89},{"policy":"J\\u00002","amount":1.10}]';
    const res = await upload('N002', Buffer.from(file), 'f.json');
    expect(res.body).toMatchObject({ success: true, data: { fileKind: 'JSON', rowCount: 2 } });
    const rows = await rowsWithErrors(res.body.data.receiveFileId);
    expect(rows).toEqual([
      { row_number: 1, parse_status: 'PENDING', raw_content: '{"policy":"J-1","amount":12345678901234567.89}', error_field: null, error_message: null },
      {
        row_number: 2,
        parse_status: 'ERROR',
        raw_content: '{"policy":"J\\ufffd2","amount":1.10}',
        error_field: 'policy',
        error_message: 'policy must not contain NUL characters',
      },
    ]);
  });

  it('refuses a header cell with NUL, and a UTF-16 file read as UTF-8 (NUL in every cell), storing nothing', async () => {
    const before = await counts();
    const header = await upload('L001', Buffer.from('POLICY,PR\u0000EM,COMM\r\nP-1,1,2\r\n'));
    expect(header.body).toMatchObject(refusal('header column B must not contain NUL characters'));
    const lines = [['POLICY', 'PREM', 'COMM'], ...Array.from({ length: 1001 }, (_, i) => [`P-${i}`, '1', '2'])];
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv(lines), 'utf16le')]);
    const res = await upload('L001', utf16);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('E411');
    expect(res.body.data.errors[0].field).toBe('file');
    expect(await counts()).toEqual(before);
  });
});

describe('carrier uploads: files over a limit are refused before anything is stored', () => {
  it('no data rows, 300,000 columns in a 2 MB header, 20,000 columns in a short one, a 1 MiB line later on', async () => {
    const before = await counts();
    const outcomes = [];
    const wide = Array.from({ length: 300_000 }, (_, i) => `C${i}`).join(',');
    const twenty = Array.from({ length: 20_000 }, () => 'c').join(',');
    for (const content of [
      'POLICY,PREM,COMM\r\n',
      `${wide}\r\nP-1\r\n`,
      `POLICY,PREM,COMM,${twenty}\r\nP-1,1,2\r\n`,
      `POLICY,PREM,COMM\r\nP-1,1,2\r\nP-2,${'9'.repeat(MiB)},3\r\n`,
      'POLICY,PREM,COMM\r\nP-1,"1,2\r\n',
    ]) {
      const res = await upload('L001', Buffer.from(content));
      outcomes.push([res.status, res.body.code, res.body.data?.errors?.[0]?.message]);
    }
    expect(outcomes).toEqual([
      [400, 'E411', 'the file has no data rows'],
      [400, 'E411', 'line 1 has more than 16,384 columns'],
      [400, 'E411', 'line 1 has more than 16,384 columns'],
      [400, 'E411', 'line 3 is longer than 1 MiB'],
      [
        400,
        'E411',
        'the file is not readable as delimited text: Quote Not Closed: the parsing is finished with an opening quote at line 3',
      ],
    ]);
    expect(await counts()).toEqual(before);
  });

  it('fixed-width and JSON files: a line or record over 1 MiB, a JSON record of 20,000 keys', async () => {
    const before = await counts();
    const fixed = await upload('X004', Buffer.from(`P-00000001\r\nP-00000002${' '.repeat(MiB)}\r\n`), 'f.txt');
    expect(fixed.body).toMatchObject(refusal('line 2 is longer than 1 MiB'));
    const longJson = await upload('N002', Buffer.from(`[{"policy":"J-1"},{"policy":"${'x'.repeat(MiB)}"}]`), 'f.json');
    expect(longJson.body).toMatchObject(refusal('element 2 of the JSON array is longer than 1 MiB'));
    const keys = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, '']));
    const wideJson = await upload('N002', Buffer.from(JSON.stringify([{ policy: 'J-1', ...keys }])), 'f.json');
    expect(wideJson.body).toMatchObject(refusal('row 1 has 20,001 columns; at most 16,384 are accepted'));
    expect(await counts()).toEqual(before);
  });

  it('xlsx: truncated, damaged, a cell beyond column XFD, shared strings that claim or reach gigabytes', async () => {
    const before = await counts();
    const good = await xlsx([
      ['POLICY', 'NOTE'],
      ['P-1', 'x'],
    ]);
    expect(good.readUInt32LE(0)).toBe(0x04034b50);
    const outcomes: unknown[] = [];
    const send = async (content: Buffer) => {
      const res = await upload('F003', content, 'f.xlsx');
      outcomes.push([res.status, res.body.code, res.body.data?.errors?.[0]?.message]);
    };
    await send(good.subarray(0, Math.floor(good.length / 2)));
    // the directory intact, the sheet's deflated bytes overwritten
    const damaged = minimalXlsx([['POLICY'], ['P-1']]);
    const sheetAt = damaged.indexOf('xl/worksheets/sheet1.xml') + 'xl/worksheets/sheet1.xml'.length;
    damaged.fill(0xff, sheetAt, sheetAt + 20);
    await send(damaged);
    await send(minimalXlsx([['POLICY'], ['P-1']], { extraRowsXml: '<row r="3"><c r="XFE3" t="inlineStr"><is><t>x</t></is></c></row>' }));
    await send(minimalXlsx([['POLICY'], ['P-1']], { extraRowsXml: '<row r="2000000"><c r="A2000000" t="inlineStr"><is><t>x</t></is></c></row>' }));
    // shared strings that declare 3 GB: refused from the central directory, nothing inflated
    await send(minimalXlsx([['POLICY'], ['P-1']], { sharedStrings: { declaredSize: 3_000_000_000 } }));
    // shared strings that inflate to 1 GiB: declared as such (refused from the directory), or
    // declared as 1 KiB (the inflating stream stops at 1 KiB); memory stays flat either way
    const bomb = sharedStringsBomb(1024);
    expect(bomb.deflated.length).toBeLessThan(4 * MiB);
    expect(bomb.inflatedSize).toBe(1_073_741_835);
    const rssBefore = process.memoryUsage().rss;
    await send(minimalXlsx([['POLICY'], ['P-1']], { sharedStrings: { deflated: bomb.deflated, declaredSize: bomb.inflatedSize } }));
    await send(minimalXlsx([['POLICY'], ['P-1']], { sharedStrings: { deflated: bomb.deflated, declaredSize: 1024 } }));
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * MiB);
    expect(outcomes).toEqual([
      [400, 'E411', 'the file is not a valid xlsx (zip) file'],
      [400, 'E411', expect.stringMatching(/^zip entry xl\/worksheets\/sheet1\.xml is damaged: /)],
      [400, 'E411', 'row 3 has 16,385 columns; at most 16,384 are accepted'],
      [400, 'E411', 'the sheet has a row 2000000; at most 1,048,576 rows are accepted'],
      [400, 'E411', 'the shared strings table of the xlsx file expands to 3,000,000,000 bytes; at most 268,435,456 are accepted'],
      [400, 'E411', 'the shared strings table of the xlsx file expands to 1,073,741,835 bytes; at most 268,435,456 are accepted'],
      [400, 'E411', 'zip entry xl/sharedStrings.xml inflates past its declared size of 1024 bytes'],
    ]);
    expect(await counts()).toEqual(before);
  });
});

describe('template imports, previews, sample headers and test-parse: the same rules', () => {
  beforeAll(async () => {
    const created = await api.call('POST', '/api/upload-templates', {
      templateCode: 'CELLS',
      templateName: 'cells',
      category: 'TEST',
      targetTable: 'commission_rate',
      companyCode: 'L001',
    });
    expect(created.body).toMatchObject({ success: true });
    const columns = await api.call('PUT', `/api/upload-templates/${created.body.data.id}/columns`, {
      columns: [
        { sourceColumn: 'A', sourceHeader: 'Product', targetField: 'product_code' },
        { sourceColumn: 'B', targetField: 'commission_year' },
        { sourceColumn: 'C', targetField: 'rate_pct' },
        { sourceColumn: 'D', targetField: 'effective_from', targetType: 'DATE' },
      ],
    });
    expect(columns.body).toMatchObject({ success: true });
  });

  const importCsv = (text: string, url = '/api/upload/CELLS') =>
    api.upload(url, {}, { filename: 'rates.csv', content: Buffer.from(text) });

  it('a template import: the NUL row is a row error naming the column, the others are written (was E500)', async () => {
    const before = await counts();
    const res = await importCsv(
      csv([
        ['Product', 'Year', 'Rate', 'From'],
        ['PR-1', '1', '3.5', '2025-01-01'],
        ['PR-1', '2', '1.\u00005', '2025-01-01'],
        ['PR-1', '3', '0.5', '2025-01-01'],
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      totalCount: 3,
      successCount: 2,
      errorCount: 1,
      errors: [{ rowNumber: 3, field: 'rate_pct', value: '1.\uFFFD5', message: 'column C (rate_pct) must not contain NUL characters' }],
    });
    const rates = await api.db.selectFrom('commission_rate').select(['commission_year', 'rate_pct']).orderBy('commission_year').execute();
    expect(rates).toEqual([
      { commission_year: 1, rate_pct: '3.5000' },
      { commission_year: 3, rate_pct: '0.5000' },
    ]);
    expect((await counts()).histories).toBe(before.histories + 1);
  });

  it('a template import or preview of a header-only file, a 300,000-column header or a late 1 MiB line: E411, no history row', async () => {
    const before = await counts();
    const wide = Array.from({ length: 300_000 }, (_, i) => `C${i}`).join(',');
    const outcomes = [];
    for (const [url, text] of [
      ['/api/upload/CELLS', 'Product,Year,Rate,From\r\n'],
      ['/api/upload/CELLS/preview', 'Product,Year,Rate,From\r\n'],
      ['/api/upload/CELLS', `${wide}\r\nPR-1,1,1,2025-01-01\r\n`],
      ['/api/upload/CELLS', `Product,Year,Rate,From\r\nPR-1,7,1,2025-01-01\r\nPR-1,8,${'1'.repeat(MiB)},2025-01-01\r\n`],
    ] as const) {
      const res = await importCsv(text, url);
      outcomes.push([res.status, res.body.code, res.body.data?.errors?.[0]?.message]);
    }
    expect(outcomes).toEqual([
      [400, 'E411', 'the file has no data rows'],
      [400, 'E411', 'the file has no data rows'],
      [400, 'E411', 'line 1 has more than 16,384 columns'],
      [400, 'E411', 'line 3 is longer than 1 MiB'],
    ]);
    expect(await counts()).toEqual(before);
  });

  it('a preview shows the NUL row as an error; the sample-header reader shows it cleaned and refuses a NUL header', async () => {
    const text = 'Product,Year,Rate,From\r\nPR-1,1,3.5,2025-01-01\r\nPR-\u00001,2,1,2025-01-01\r\n';
    const preview = await importCsv(text, '/api/upload/CELLS/preview');
    expect(preview.body.data.rows.map((r: any) => [r.rowNumber, r.ok, r.error?.message ?? null])).toEqual([
      [2, true, null],
      [3, false, 'column A (product_code) must not contain NUL characters'],
    ]);
    const headers = await api.upload('/api/upload-templates/excel-headers', {}, { filename: 's.csv', content: Buffer.from(text) });
    expect(headers.body.data.rows).toEqual([
      { rowNumber: 2, cells: { A: 'PR-1', B: '1', C: '3.5', D: '2025-01-01' } },
      { rowNumber: 3, cells: { A: 'PR-\uFFFD1', B: '2', C: '1', D: '2025-01-01' } },
    ]);
    const badHeader = await api.upload(
      '/api/upload-templates/excel-headers',
      {},
      { filename: 's.csv', content: Buffer.from('Prod\uD800uct,Year\r\n') },
    );
    // a lone surrogate cannot be written as UTF-8 bytes (it arrives as U+FFFD): the header passes
    expect(badHeader.body).toMatchObject({ success: true, data: { headers: [{ header: 'Prod\uFFFDuct' }, { header: 'Year' }] } });
    const nulHeader = await api.upload(
      '/api/upload-templates/excel-headers',
      {},
      { filename: 's.csv', content: Buffer.from('Prod\u0000uct,Year\r\n') },
    );
    expect(nulHeader.body).toMatchObject(refusal('header column A must not contain NUL characters'));
  });

  it('test-parse: the NUL row is an INVALID_INPUT row naming the column; a header-only file is E411 (was 200)', async () => {
    const parse = (text: string) =>
      api.upload('/api/mapping/L001/test-parse', { settleMonth: MONTH, dataType: 'RECRUIT' }, { filename: 's.csv', content: Buffer.from(text) });
    const res = await parse('POLICY,PREM,COMM\r\nP-1,1\u00000,5\r\n');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ rowsRead: 1, okCount: 0, errorCount: 1, errorTypes: { INVALID_INPUT: 1 } });
    expect(res.body.data.rows).toEqual([
      {
        rowNumber: 2,
        dataType: 'RECRUIT',
        rawContent: { POLICY: 'P-1', PREM: '1\uFFFD0', COMM: '5' },
        status: 'ERROR',
        mapped: null,
        error: { errorType: 'INVALID_INPUT', errorField: 'PREM', errorValue: '1\uFFFD0', message: 'PREM must not contain NUL characters' },
      },
    ]);
    expect((await parse('POLICY,PREM,COMM\r\n')).body).toMatchObject(refusal('the file has no data rows'));
    const wide = Array.from({ length: 300_000 }, (_, i) => `C${i}`).join(',');
    expect((await parse(`${wide}\r\nP-1\r\n`)).body).toMatchObject(refusal('line 1 has more than 16,384 columns'));
  });
});
