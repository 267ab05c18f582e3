import { get } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sendSpreadsheet, writeSpreadsheet, type SpreadsheetColumn } from '../src/spreadsheet.js';
import { columnLetter, escapeXml, excelSheetName, isExcelDecimal, SheetXml } from '../src/xlsx-writer.js';

async function render<R>(rows: Iterable<R> | AsyncIterable<R>, columns: Array<SpreadsheetColumn<R>>, sheetName = 'Data') {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const count = await writeSpreadsheet(out, { sheetName, columns, rows });
  await finished(out);
  return { count, file: Buffer.concat(chunks) };
}

async function loadSheet(file: Buffer, name = 'Data') {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  return workbook.getWorksheet(name)!;
}

/** The streaming reader the services' tests use (styles ignored): rows as arrays of cell values. */
async function streamRead(file: Buffer): Promise<unknown[][]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(file), {
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
    worksheets: 'emit',
  });
  const rows: unknown[][] = [];
  for await (const sheet of reader) {
    for await (const row of sheet) rows.push((row.values as unknown[]).slice(1));
  }
  return rows;
}

const textColumns = [
  { header: 'ID', key: 'id' },
  { header: 'Text', key: 'text', width: 40 },
];

describe('writeSpreadsheet (xlsx)', () => {
  it('special characters round trip; characters XML forbids are dropped', async () => {
    const texts = [
      `A & B <c> "q" 'a' >`,
      '정산 목록 😀 👨‍👩‍👧',
      'tab\tline\nbreak',
      'crlf\r\nkept',
      '  padded  ',
      'bell\u0007 and nul\u0000 gone\uFFFF',
      'lone \uD800surrogate\uDC00 gone',
      '',
    ];
    const { count, file } = await render(
      texts.map((text, i) => ({ id: i + 1, text })),
      textColumns,
    );
    expect(count).toBe(texts.length);
    const expected = [...texts.slice(0, 5), 'bell and nul gone', 'lone surrogate gone', ''];
    const sheet = await loadSheet(file);
    expect(sheet.getRow(1).values).toEqual([undefined, 'ID', 'Text']);
    // An empty string is an empty inline string: exceljs's loader reads it as no value, its stream reader as ''.
    expect(expected.map((_t, i) => sheet.getRow(i + 2).getCell(2).value)).toEqual([...expected.slice(0, -1), null]);
    const streamed = await streamRead(file);
    expect(streamed.slice(1).map((r) => r[1])).toEqual(expected);
  });

  it('numeric columns write decimal strings as number cells with the exact value; other text stays text', async () => {
    const amounts = ['1234.50', '-0.75', '9999999999999.99', '0.10', '42', 'N/A', '007', '12345678901234567', '1e5'];
    const columns: Array<SpreadsheetColumn<{ amount: string }>> = [{ header: 'Amount', key: 'amount', numeric: 'money' }];
    const { file } = await render(
      amounts.map((amount) => ({ amount })),
      columns,
    );
    const sheet = await loadSheet(file);
    const cells = amounts.map((_a, i) => sheet.getRow(i + 2).getCell(1));
    expect(cells.map((c) => c.value)).toEqual([1234.5, -0.75, 9999999999999.99, 0.1, 42, 'N/A', '007', '12345678901234567', '1e5']);
    expect(cells.map((c) => c.numFmt ?? null)).toEqual(['#,##0.00', '#,##0.00', '#,##0.00', '#,##0.00', '#,##0.00', null, null, null, null]);
    expect((await streamRead(file)).slice(1).map((r) => r[0])).toEqual([1234.5, -0.75, 9999999999999.99, 0.1, 42, 'N/A', '007', '12345678901234567', '1e5']);
  });

  it('the decimal text goes into the cell unchanged (no JS number in between)', () => {
    const sheet = new SheetXml([
      { header: 'Amount', width: 15, numeric: 'money', get: (r: { a: string }) => r.a },
      { header: 'Rate', width: 15, numeric: 'number', get: (r: { a: string }) => r.a },
    ]);
    sheet.head();
    expect(sheet.row({ a: '1234.50' })).toBe(
      '<row r="2"><c r="A2" s="3"><v>1234.50</v></c><c r="B2"><v>1234.50</v></c></row>',
    );
    expect(sheet.row({ a: '0.1000' })).toBe(
      '<row r="3"><c r="A3" s="3"><v>0.1000</v></c><c r="B3"><v>0.1000</v></c></row>',
    );
    expect(isExcelDecimal('123456789012345')).toBe(true);
    expect(isExcelDecimal('1234567890123456')).toBe(false);
    expect(isExcelDecimal('0.000000000000001')).toBe(true);
    expect(isExcelDecimal('-01')).toBe(false);
    expect(isExcelDecimal('1.')).toBe(false);
  });

  it('without numeric, money strings stay text as before', async () => {
    const { file } = await render([{ amount: '10.50' }], [{ header: 'Amount', key: 'amount' }]);
    expect((await loadSheet(file)).getRow(2).getCell(1).value).toBe('10.50');
  });

  it('numbers, booleans, dates, bigints, objects and empty cells', async () => {
    const at = new Date('2024-03-01T12:30:00.000Z');
    const columns = ['n', 'b', 'd', 'big', 'obj', 'none'].map((key) => ({ header: key, key }));
    const { file } = await render([{ n: 3.25, b: true, d: at, big: 12345678901234567890n, obj: { a: 1 }, none: null }], columns);
    const row = (await loadSheet(file)).getRow(2);
    expect(row.values).toEqual([undefined, 3.25, true, at, '12345678901234567890', '{"a":1}']);
    expect(row.getCell(3).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  });

  it('an empty export is a valid workbook with its header row only', async () => {
    const { count, file } = await render([], textColumns);
    expect(count).toBe(0);
    const sheet = await loadSheet(file);
    expect(sheet.rowCount).toBe(1);
    expect(sheet.getRow(1).values).toEqual([undefined, 'ID', 'Text']);
    expect(await streamRead(file)).toEqual([['ID', 'Text']]);
  });

  it('5,000 rows from an async source parse back in order with column widths', async () => {
    async function* rows() {
      for (let i = 1; i <= 5000; i++) yield { id: i, text: `row ${i}` };
    }
    const { count, file } = await render(rows(), textColumns);
    expect(count).toBe(5000);
    const sheet = await loadSheet(file);
    expect(sheet.rowCount).toBe(5001);
    expect(sheet.getColumn(1).width).toBe(15);
    expect(sheet.getColumn(2).width).toBe(40);
    const streamed = await streamRead(file);
    expect(streamed).toHaveLength(5001);
    expect(streamed[5000]).toEqual([5000, 'row 5000']);
    expect(streamed.slice(1).every((r, i) => r[0] === i + 1)).toBe(true);
  });

  it('sheet names are made acceptable to Excel', async () => {
    expect(excelSheetName('a/b:c*d?[e]\\')).toBe('a_b_c_d__e__');
    expect(excelSheetName(`'quoted'`)).toBe('quoted');
    expect(excelSheetName('x'.repeat(40))).toHaveLength(31);
    expect(excelSheetName('  ')).toBe('Sheet1');
    const { file } = await render([], textColumns, 'R&D "list"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['R&D "list"']);
  });

  it('waits for the consumer (backpressure) and stops, closing the source, when the output is destroyed', async () => {
    let pulled = 0;
    let closedSource = false;
    function* rows() {
      try {
        for (let i = 1; i <= 1_000_000; i++) {
          pulled = i;
          yield { id: i, text: `some text for row ${i} ${'x'.repeat(i % 50)}` };
        }
      } finally {
        closedSource = true;
      }
    }
    const out = new PassThrough({ highWaterMark: 64 * 1024 }); // never read
    const writing = writeSpreadsheet(out, { columns: textColumns, rows: rows() });
    // Wait until the producer stands still (buffers full), however slow the machine.
    let stalledAt = -1;
    for (let i = 0; i < 100 && (pulled !== stalledAt || pulled === 0); i++) {
      stalledAt = pulled;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(pulled).toBe(stalledAt);
    expect(pulled).toBeGreaterThan(1000);
    expect(pulled).toBeLessThan(100_000); // the buffers in between hold a few MB, not the million rows
    out.destroy();
    expect(await writing).toBeLessThanOrEqual(stalledAt);
    expect(closedSource).toBe(true);
  });

  it('a client that disconnects mid-download ends the export and closes the row source', async () => {
    let closedSource = false;
    let pulled = 0;
    const app = Fastify();
    app.get('/sheet', async (_request, reply) => {
      function* rows() {
        try {
          for (let i = 1; i <= 1_000_000; i++) {
            pulled = i;
            yield { id: i, text: `row ${i}` };
          }
        } finally {
          closedSource = true;
        }
      }
      return sendSpreadsheet(reply, { fileName: 'big', columns: textColumns, rows: rows() });
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as { port: number };
      await new Promise<void>((resolve, reject) => {
        const request = get({ host: '127.0.0.1', port, path: '/sheet' }, (res) => {
          expect(res.headers['content-disposition']).toContain('big.xlsx');
          let received = 0;
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            // well into the rows (the zip's first bytes are the small fixed parts)
            if (received > 256 * 1024 && !request.destroyed) {
              request.destroy();
              resolve();
            }
          });
        });
        request.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
      });
      for (let i = 0; i < 100 && !closedSource; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closedSource).toBe(true);
      expect(pulled).toBeGreaterThan(0);
      expect(pulled).toBeLessThan(1_000_000);
    } finally {
      await app.close();
    }
  });

  it('an error from the row source rejects with that error and ends the output', async () => {
    async function* rows() {
      for (let i = 1; i <= 10; i++) yield { id: i, text: 'x' };
      throw new Error('cursor failed');
    }
    const out = new PassThrough();
    out.resume();
    await expect(writeSpreadsheet(out, { columns: textColumns, rows: rows() })).rejects.toThrow('cursor failed');
  });

  it('escapeXml and columnLetter', () => {
    expect(escapeXml('a"b')).toBe('a"b');
    expect(escapeXml('a"b&c', true)).toBe('a&quot;b&amp;c');
    expect([0, 25, 26, 51, 52, 701, 702, 16383].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA', 'XFD']);
  });
});
