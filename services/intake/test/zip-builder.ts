import { constants, crc32, deflateRawSync } from 'node:zlib';

/** One entry of a hand-built zip; `declaredSize` lets a test lie in the central directory. */
export interface ZipPart {
  name: string;
  data: Buffer;
  /** Pre-deflated bytes (for a bomb built by streaming); `data` is then only the crc source. */
  deflated?: Buffer;
  declaredSize?: number;
  crc?: number;
}

/** A zip archive (deflate, no data descriptors) with the sizes the parts declare. */
export function buildZip(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const body = part.deflated ?? deflateRawSync(part.data);
    const crc = part.crc ?? crc32(part.data);
    const size = part.declaredSize ?? part.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * A minimal xlsx (workbook, relationships, one sheet, shared strings) whose cells are written as
 * given: `raw` cells go into the XML untouched (entities such as &#0; included).
 */
export function minimalXlsx(
  rows: ReadonlyArray<ReadonlyArray<string | { raw: string }>>,
  options: { sharedStrings?: Partial<ZipPart>; extraRowsXml?: string } = {},
): Buffer {
  const strings: string[] = [];
  const rowXml = rows
    .map((cells, r) => {
      const cellXml = cells
        .map((cell, c) => {
          const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
          if (typeof cell !== 'string') return `<c r="${ref}" t="inlineStr"><is><t>${cell.raw}</t></is></c>`;
          strings.push(cell);
          return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
        })
        .join('');
      return `<row r="${r + 1}">${cellXml}</row>`;
    })
    .join('');
  const ns = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const shared = Buffer.from(`<sst count="${strings.length}">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>`);
  return buildZip([
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(`<workbook xmlns:r="${ns}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        `<Relationships><Relationship Id="rId1" Type="${ns}/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rId2" Type="${ns}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
    },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(`<worksheet><sheetData>${rowXml}${options.extraRowsXml ?? ''}</sheetData></worksheet>`) },
    { name: 'xl/sharedStrings.xml', data: shared, ...options.sharedStrings },
  ]);
}

/**
 * Deflated shared strings that inflate to `mib` MiB from about a KiB each: one deflated MiB of
 * `<si>` elements, sync-flushed so that copies concatenate into one valid stream.
 */
export function sharedStringsBomb(mib: number): { deflated: Buffer; inflatedSize: number } {
  const unit = '<si><t>aaaaaaaaaaaaaaaa</t></si>';
  const block = Buffer.from(unit.repeat(Math.floor((1024 * 1024) / unit.length)));
  const flushed = { finishFlush: constants.Z_SYNC_FLUSH };
  const head = deflateRawSync(Buffer.from('<sst>'), flushed);
  const piece = deflateRawSync(block, flushed);
  const tail = deflateRawSync(Buffer.from('</sst>'));
  return {
    deflated: Buffer.concat([head, ...Array.from({ length: mib }, () => piece), tail]),
    inflatedSize: 5 + block.length * mib + 6,
  };
}
