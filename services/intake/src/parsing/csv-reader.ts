import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import { lineLengthGuard, MAX_COLUMNS, tooManyColumns, UnreadableFileError } from './limits.js';
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

/** The delimiter as one byte when the encoding writes ASCII as itself (not UTF-16/32). */
function countableDelimiter(options: CsvOptions): number | undefined {
  const delimiter = normaliseDelimiter(options.delimiter);
  if (delimiter.length !== 1 || delimiter.charCodeAt(0) >= 0x80 || delimiter === '"') return undefined;
  if (/^(UTF-?16|UTF-?32|UCS-?2|UTF-?7)/.test(normaliseEncoding(options.encoding))) return undefined;
  return delimiter.charCodeAt(0);
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
  let failure: unknown;
  pipeline(source, lineLengthGuard(countableDelimiter(options)), decoder, parser, (err) => void (failure ??= err));
  let rowNumber = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      rowNumber++;
      if (record.length > MAX_COLUMNS) throw tooManyColumns(rowNumber, record.length);
      yield { rowNumber, cells: record };
    }
    if (failure) throw failure;
  } catch (err) {
    if (failure instanceof UnreadableFileError) throw failure;
    if (err instanceof UnreadableFileError) throw err;
    // csv-parse's own errors (CSV_QUOTE_NOT_CLOSED, ...) describe the file, not a fault here
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('CSV_')) {
      throw new UnreadableFileError(`the file is not readable as delimited text: ${(err as Error).message}`);
    }
    throw err;
  } finally {
    source.destroy();
    parser.destroy();
  }
}
