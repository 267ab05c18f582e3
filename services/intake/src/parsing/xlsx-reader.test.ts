import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnIndex, columnLetter } from './columns.js';
import { excelSerialToText, plainDecimal } from './numbers-text.js';
import { openTabular, UnreadableFileError, type SheetRow } from './tabular.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'intake-xlsx-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function rowsOf(path: string, options = {}): Promise<SheetRow[]> {
  const source = await openTabular(path, options);
  const rows: SheetRow[] = [];
  for await (const row of source.rows()) rows.push(row);
  return rows;
}

describe('xlsx reader', () => {
  it('reads shared strings, exact numbers, dates, booleans, rich text and gaps as text', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Other').addRow(['ignored']);
    const ws = wb.addWorksheet('Data');
    ws.addRow(['POLICY', 'AMOUNT', 'DATE', 'FLAG', 'NOTE']);
    ws.addRow([
      'P-1',
      1234567890123.45,
      new Date(Date.UTC(2025, 0, 31)),
      true,
      { richText: [{ text: 'a & ' }, { text: '<b>' }] },
    ]);
    ws.addRow(['P-2', 0.0001, null, false, '보험료']);
    ws.getRow(5).getCell(3).value = 'row five';
    const path = join(dir, 'data.xlsx');
    await wb.xlsx.writeFile(path);

    const rows = await rowsOf(path, { sheetName: 'Data' });
    expect(rows).toEqual([
      { rowNumber: 1, cells: ['POLICY', 'AMOUNT', 'DATE', 'FLAG', 'NOTE'] },
      { rowNumber: 2, cells: ['P-1', '1234567890123.45', '2025-01-31', 'TRUE', 'a & <b>'] },
      { rowNumber: 3, cells: ['P-2', '0.0001', '', 'FALSE', '보험료'] },
      { rowNumber: 5, cells: ['', '', 'row five'] },
    ]);
    const source = await openTabular(path, { sheetIndex: 1 });
    expect(source.sheetNames).toEqual(['Other', 'Data']);
  });

  it('refuses an unknown sheet and a legacy xls file', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Only').addRow(['x']);
    const path = join(dir, 'one.xlsx');
    await wb.xlsx.writeFile(path);
    await expect(openTabular(path, { sheetName: 'Nope' })).rejects.toThrow(
      "the workbook has no sheet 'Nope' (sheets: Only)",
    );
    const xls = join(dir, 'old.xls');
    await writeFile(xls, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]));
    await expect(openTabular(xls)).rejects.toBeInstanceOf(UnreadableFileError);
  });
});

describe('csv reader', () => {
  it('decodes CP949 and keeps quoted delimiters and line breaks', async () => {
    const path = join(dir, 'kr.csv');
    await writeFile(
      path,
      iconv.encode('증권번호,수수료\r\n"P-1","1,234.50"\r\n"P-2","줄\n바꿈"\r\n', 'cp949'),
    );
    expect(await rowsOf(path, { encoding: 'CP949' })).toEqual([
      { rowNumber: 1, cells: ['증권번호', '수수료'] },
      { rowNumber: 2, cells: ['P-1', '1,234.50'] },
      { rowNumber: 3, cells: ['P-2', '줄\n바꿈'] },
    ]);
  });

  it('reads a UTF-8 file with a BOM and another delimiter', async () => {
    const path = join(dir, 'bom.csv');
    await writeFile(path, '\ufeffA;B\n1;2\n');
    expect(await rowsOf(path, { delimiter: ';' })).toEqual([
      { rowNumber: 1, cells: ['A', 'B'] },
      { rowNumber: 2, cells: ['1', '2'] },
    ]);
  });
});

describe('number and column text', () => {
  it('turns exponent notation into plain decimals without losing digits', () => {
    expect(plainDecimal('1.5E-3')).toBe('0.0015');
    expect(plainDecimal('1.23456789012345E+14')).toBe('123456789012345');
    expect(plainDecimal('-2E2')).toBe('-200');
    expect(plainDecimal('12.50')).toBe('12.50');
  });

  it('converts Excel date serials around the phantom 1900 leap day', () => {
    expect(excelSerialToText('1')).toBe('1900-01-01');
    expect(excelSerialToText('61')).toBe('1900-03-01');
    expect(excelSerialToText('45688')).toBe('2025-01-31');
    expect(excelSerialToText('45688.5')).toBe('2025-01-31 12:00:00');
  });

  it('maps column letters both ways', () => {
    expect([0, 25, 26, 701, 702].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
    expect(['A', 'Z', 'AA', 'ZZ', 'AAA'].map(columnIndex)).toEqual([0, 25, 26, 701, 702]);
    expect(columnIndex('a1')).toBeUndefined();
  });
});
