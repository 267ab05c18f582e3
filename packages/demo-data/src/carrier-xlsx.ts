import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { constants, crc32, createDeflateRaw } from 'node:zlib';

/**
 * A one-sheet xlsx written as a stream (demo carrier files): the sheet's rows are deflated straight
 * into the zip, so memory does not grow with the rows. Cells are inline strings or numbers whose
 * text is written exactly as given (money stays a decimal string). Zip entries use a data
 * descriptor (sizes and CRC after the data), as streaming zip writers do; readers take the sizes
 * from the central directory. ECMA-376 Part 1 §18.3.1.73 row, §18.3.1.4 c, §18.18.11 inlineStr / n.
 */

const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

export type XlsxCell = { text: string } | { number: string };

interface Entry {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
  );
}

function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

function rowXml(rowNumber: number, cells: readonly XlsxCell[]): string {
  let xml = `<row r="${rowNumber}">`;
  cells.forEach((cell, i) => {
    const ref = `${columnLetter(i)}${rowNumber}`;
    xml +=
      'number' in cell
        ? `<c r="${ref}"><v>${cell.number}</v></c>`
        : `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(cell.text)}</t></is></c>`;
  });
  return `${xml}</row>`;
}

/** Writes the zip container: entries are deflated as they are written. */
class ZipWriter {
  private readonly out: WriteStream;
  private offset = 0;
  private readonly entries: Entry[] = [];

  constructor(path: string) {
    this.out = createWriteStream(path);
  }

  private async write(chunk: Buffer): Promise<void> {
    this.offset += chunk.length;
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  /** One entry from text pieces (an async iterable keeps the sheet streaming). */
  async entry(name: string, pieces: AsyncIterable<string> | Iterable<string>): Promise<void> {
    const nameBytes = Buffer.from(name, 'utf8');
    const offset = this.offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed
    header.writeUInt16LE(0x0808, 6); // data descriptor follows; UTF-8 name
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(0, 10); // time
    header.writeUInt16LE(0x21, 12); // date 1980-01-01
    header.writeUInt16LE(nameBytes.length, 26);
    await this.write(Buffer.concat([header, nameBytes]));

    const deflate = createDeflateRaw({ level: constants.Z_BEST_SPEED });
    let crc = 0;
    let size = 0;
    let compressed = 0;
    const drained = (async () => {
      for await (const chunk of deflate as AsyncIterable<Buffer>) {
        compressed += chunk.length;
        await this.write(chunk);
      }
    })();
    for await (const piece of pieces) {
      const bytes = Buffer.from(piece, 'utf8');
      crc = crc32(bytes, crc);
      size += bytes.length;
      if (!deflate.write(bytes)) await once(deflate, 'drain');
    }
    deflate.end();
    await drained;

    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.write(descriptor);
    this.entries.push({ name: nameBytes, offset, crc: crc >>> 0, compressed, size });
  }

  async close(): Promise<void> {
    const start = this.offset;
    for (const e of this.entries) {
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE(20, 4);
      h.writeUInt16LE(20, 6);
      h.writeUInt16LE(0x0808, 8);
      h.writeUInt16LE(8, 10);
      h.writeUInt16LE(0, 12);
      h.writeUInt16LE(0x21, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(e.compressed, 20);
      h.writeUInt32LE(e.size, 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt32LE(e.offset, 42);
      await this.write(Buffer.concat([h, e.name]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
    this.out.end();
    await once(this.out, 'finish');
  }
}

/** Writes a one-sheet workbook: a header row of texts, then the rows. Returns the data rows written. */
export async function writeXlsx(
  path: string,
  sheetName: string,
  header: readonly string[],
  rows: AsyncIterable<readonly XlsxCell[]>,
): Promise<number> {
  const zip = new ZipWriter(path);
  await zip.entry('[Content_Types].xml', [
    `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT}.worksheet+xml"/></Types>`,
  ]);
  await zip.entry('_rels/.rels', [
    `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" ` +
      `Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ]);
  await zip.entry('xl/workbook.xml', [
    `${XML_DECL}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
      `<sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ]);
  await zip.entry('xl/_rels/workbook.xml.rels', [
    `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" ` +
      `Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  ]);
  let count = 0;
  async function* sheet(): AsyncGenerator<string> {
    yield `${XML_DECL}<worksheet xmlns="${MAIN_NS}"><sheetData>`;
    yield rowXml(
      1,
      header.map((text) => ({ text })),
    );
    let batch = '';
    for await (const cells of rows) {
      count++;
      batch += rowXml(count + 1, cells);
      if (batch.length > 64 * 1024) {
        yield batch;
        batch = '';
      }
    }
    yield `${batch}</sheetData></worksheet>`;
  }
  await zip.entry('xl/worksheets/sheet1.xml', sheet());
  await zip.close();
  return count;
}
