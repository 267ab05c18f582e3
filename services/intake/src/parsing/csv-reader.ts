import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import type { SheetRow } from './tabular.js';

export interface CsvOptions {
  /** Any iconv-lite encoding: UTF-8, CP949, EUC-KR, ... */
  encoding: string;
  delimiter: string;
}

/** Carrier names for encodings, normalised to what iconv-lite knows. */
export function normaliseEncoding(encoding: string | null | undefined): string {
  const e = (encoding ?? 'UTF-8').trim().toUpperCase().replace(/_/g, '-');
  if (e === 'MS949' || e === 'UHC' || e === 'WINDOWS-949' || e === 'X-WINDOWS-949') return 'CP949';
  if (e === 'UTF8') return 'UTF-8';
  if (e === 'EUCKR' || e === 'KSC5601' || e === 'KS-C-5601-1987') return 'EUC-KR';
  return e;
}

export function isSupportedEncoding(encoding: string): boolean {
  return iconv.encodingExists(normaliseEncoding(encoding));
}

/** 'TAB' or '\t' -> a tab; default ','. */
export function normaliseDelimiter(delimiter: string | null | undefined): string {
  if (delimiter === null || delimiter === undefined || delimiter === '') return ',';
  if (delimiter === 'TAB' || delimiter === '\\t') return '\t';
  return delimiter;
}

/**
 * Streams the records of a delimited text file: bytes are decoded (CP949/EUC-KR as Korean carriers
 * send them) and parsed by csv-parse record by record; row numbers count records from 1.
 */
export async function* readCsvRows(path: string, options: CsvOptions): AsyncGenerator<SheetRow> {
  const source = createReadStream(path, { highWaterMark: 256 * 1024 });
  const decoder = iconv.decodeStream(normaliseEncoding(options.encoding));
  const parser = parse({
    delimiter: normaliseDelimiter(options.delimiter),
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false,
  });
  // pipeline destroys every stream on a failure; the error surfaces in the loop below
  pipeline(source, decoder, parser, () => undefined);
  let rowNumber = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      rowNumber++;
      yield { rowNumber, cells: record };
    }
  } finally {
    source.destroy();
    parser.destroy();
  }
}
