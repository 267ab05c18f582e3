import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Hand-built zip and xlsx files for tests and the multipart fuzzer: sizes, CRCs and contents can
 * lie (truncated parts, bombs) in ways a real writer never produces.
 */

/** One entry of a hand-built zip; `declaredSize` lets a test lie in the central directory. */
export interface ZipPart {
  name: string;
  data: Buffer;
  /** Pre-deflated bytes (for a bomb built by streaming); `data` is then only the crc source. */
  deflated?: Buffer;
  declaredSize?: number;
  crc?: number;
}

/** A zip archive (deflate, UTF-8 names, no data descriptors) with the sizes the parts declare. */
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

const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * A minimal xlsx (workbook, relationships, one sheet, shared strings): `sheetDataXml` goes inside
 * `<sheetData>` as given, `sharedStrings` is the sharedStrings.xml entry (its data and any lies).
 */
export function xlsxFromXml(sheetDataXml: string, sharedStrings: Omit<ZipPart, 'name'>): Buffer {
  return buildZip([
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(`<workbook xmlns:r="${RELS}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(
        `<Relationships><Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/>` +
          `<Relationship Id="rId2" Type="${RELS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      ),
    },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(`<worksheet><sheetData>${sheetDataXml}</sheetData></worksheet>`) },
    { name: 'xl/sharedStrings.xml', ...sharedStrings },
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
