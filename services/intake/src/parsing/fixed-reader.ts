import { createReadStream } from 'node:fs';
import iconv from 'iconv-lite';
import { normaliseEncoding } from './csv-reader.js';
import { lineTooLong, MAX_LINE_BYTES } from './limits.js';
import type { SheetRow } from './tabular.js';

/** A field of a fixed-width record: `length` bytes from the 0-based byte offset `start`. */
export interface FixedField {
  name: string;
  start: number;
  length: number;
}

/** A record of a fixed-width file: the fields' texts (in `fields` order) and the record's length in bytes. */
export interface FixedRow extends SheetRow {
  bytes: number;
}

const LF = 0x0a;
const CR = 0x0d;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Streams the records of a fixed-width file, one per line (LF or CRLF). Positions and lengths are
 * bytes of the file's encoding, as Korean carriers lay out CP949/EUC-KR records (a Hangul syllable
 * is two bytes): each record is cut at the byte positions first and each piece decoded on its own,
 * so a multi-byte character never shifts the fields after it. Texts are trimmed (padding is not
 * data); a record shorter than a field gives what it has ('' past its end). Lines are split on the
 * raw bytes, which is safe for CP949/EUC-KR and UTF-8 (0x0A is never part of a multi-byte character).
 */
export async function* readFixedRows(
  path: string,
  options: { encoding: string; fields: readonly FixedField[] },
): AsyncGenerator<FixedRow> {
  const encoding = normaliseEncoding(options.encoding);
  const { fields } = options;
  const source = createReadStream(path, { highWaterMark: 256 * 1024 });
  let rest: Buffer | undefined;
  let rowNumber = 0;
  const record = (line: Buffer): FixedRow => {
    let end = line.length;
    if (end > 0 && line[end - 1] === CR) end--;
    if (rowNumber === 0 && line.subarray(0, 3).equals(UTF8_BOM)) line = line.subarray(3, end);
    else line = line.subarray(0, end);
    rowNumber++;
    const cells = fields.map((f) =>
      f.start >= line.length ? '' : iconv.decode(line.subarray(f.start, f.start + f.length), encoding).trim(),
    );
    return { rowNumber, cells, bytes: line.length };
  };
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const data = rest ? Buffer.concat([rest, chunk]) : chunk;
      let from = 0;
      for (let at = data.indexOf(LF, from); at >= 0; at = data.indexOf(LF, from)) {
        if (at - from > MAX_LINE_BYTES) throw lineTooLong(rowNumber + 1);
        yield record(data.subarray(from, at));
        from = at + 1;
      }
      rest = from < data.length ? Buffer.from(data.subarray(from)) : undefined;
      if (rest && rest.length > MAX_LINE_BYTES) throw lineTooLong(rowNumber + 1);
    }
    if (rest && rest.length > 0) yield record(rest);
  } finally {
    source.destroy();
  }
}
