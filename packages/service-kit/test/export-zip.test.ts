import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { crc32, inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { writeSpreadsheet, type SpreadsheetColumn } from '../src/spreadsheet.js';

async function render<R>(rows: Iterable<R>, columns: Array<SpreadsheetColumn<R>>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeSpreadsheet(out, { sheetName: 'Data', columns, rows });
  await finished(out);
  return Buffer.concat(chunks);
}

interface Entry {
  name: string;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  flags: number;
}

/** The central directory of a zip, read by hand (APPNOTE §4.3.12, §4.3.16). */
function centralDirectory(file: Buffer): Entry[] {
  const end = file.length - 22;
  expect(file.readUInt32LE(end)).toBe(0x06054b50);
  const count = file.readUInt16LE(end + 10);
  let at = file.readUInt32LE(end + 16);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    expect(file.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = file.readUInt16LE(at + 28);
    const extra = file.readUInt16LE(at + 30);
    const comment = file.readUInt16LE(at + 32);
    entries.push({
      name: file.toString('utf8', at + 46, at + 46 + nameLength),
      flags: file.readUInt16LE(at + 8),
      crc: file.readUInt32LE(at + 16),
      compressed: file.readUInt32LE(at + 20),
      size: file.readUInt32LE(at + 24),
      offset: file.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** The bytes of one entry, inflated from its local header's position. */
function inflateEntry(file: Buffer, entry: Entry): Buffer {
  expect(file.readUInt32LE(entry.offset)).toBe(0x04034b50);
  const start = entry.offset + 30 + file.readUInt16LE(entry.offset + 26) + file.readUInt16LE(entry.offset + 28);
  return inflateRawSync(file.subarray(start, start + entry.compressed));
}

describe('spreadsheet export: the zip container', () => {
  it('every part inflates to its declared size and CRC; the streamed sheet has a data descriptor that repeats them', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i + 1, text: `row ${i + 1}` }));
    const file = await render(rows, [
      { header: 'ID', key: 'id' },
      { header: 'Text', key: 'text' },
    ]);
    const entries = centralDirectory(file);
    expect(entries.map((e) => e.name)).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    for (const entry of entries) {
      const data = inflateEntry(file, entry);
      expect(data.length).toBe(entry.size);
      expect(crc32(data) >>> 0).toBe(entry.crc);
    }
    const sheet = entries[5]!;
    expect(sheet.flags & 0x0008).toBe(0x0008);
    const descriptor = sheet.offset + 30 + sheet.name.length + sheet.compressed;
    expect(file.readUInt32LE(descriptor)).toBe(0x08074b50);
    expect([file.readUInt32LE(descriptor + 4), file.readUInt32LE(descriptor + 8), file.readUInt32LE(descriptor + 12)]).toEqual([
      sheet.crc,
      sheet.compressed,
      sheet.size,
    ]);
    const xml = inflateEntry(file, sheet).toString('utf8');
    expect(xml).toContain('<row r="3001"><c r="A3001"><v>3000</v></c><c r="B3001" t="inlineStr"><is><t>row 3000</t></is></c></row>');
  });

  it('repeated texts that need escaping or xml:space, 6,000 distinct texts and decimals of a money column read back exactly', async () => {
    // Column C: a plain decimal becomes a money number cell, '007' (leading zero) stays text.
    const repeated = ['R&D <lab>', ' padded ', '실효'];
    const rows = Array.from({ length: 6000 }, (_, i) => ({
      a: repeated[i % 3]!,
      b: `policy ${String(i).padStart(6, '0')}`,
      c: i % 2 === 0 ? '1234.50' : '007',
    }));
    const file = await render(rows, [
      { header: 'A', key: 'a' },
      { header: 'B', key: 'b' },
      { header: 'C', key: 'c', numeric: 'money' },
    ]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Data')!;
    expect(sheet.rowCount).toBe(6001);
    for (const n of [2, 3, 4, 4098, 4099, 6001]) {
      const i = n - 2;
      const row = sheet.getRow(n);
      expect([row.getCell(1).value, row.getCell(2).value, row.getCell(3).value]).toEqual([
        repeated[i % 3],
        `policy ${String(i).padStart(6, '0')}`,
        i % 2 === 0 ? 1234.5 : '007',
      ]);
    }
    expect(sheet.getRow(2).getCell(3).numFmt).toBe('#,##0.00');
  });
});
