import { open } from 'node:fs/promises';
import type { ReceiveFileKind } from '@csp/db';
import { isSupportedEncoding, readCsvRows } from './csv-reader.js';
import { UnreadableFileError } from './limits.js';
import { openXlsx, type XlsxSheet } from './xlsx-reader.js';

/** One row of a spreadsheet or delimited file: cells as text ('' when blank), 0-based columns. */
export interface SheetRow {
  rowNumber: number;
  cells: string[];
}

/** What the bytes of a file tell (FIXED and JSON files are what their profile says). */
export type FileKind = Extract<ReceiveFileKind, 'XLSX' | 'CSV'>;

// A file a reader cannot handle (legacy .xls, damaged zip, unknown sheet, over a limit).
export { UnreadableFileError };

/** XLSX by its zip signature, legacy XLS (refused) by the OLE signature, anything else is text. */
export async function sniffFileKind(path: string): Promise<FileKind> {
  const fh = await open(path, 'r');
  const head = Buffer.alloc(8);
  try {
    await fh.read(head, 0, 8, 0);
  } finally {
    await fh.close();
  }
  if (head.readUInt32LE(0) === 0x04034b50) return 'XLSX';
  if (head.readUInt32BE(0) === 0xd0cf11e0) {
    throw new UnreadableFileError('legacy .xls files are not supported; save the file as .xlsx or .csv');
  }
  return 'CSV';
}

export interface TabularOptions {
  encoding?: string | null;
  delimiter?: string | null;
  /** Worksheet by name (wins) or 0-based index; default the first sheet. */
  sheetName?: string | null;
  sheetIndex?: number;
}

export interface TabularSource {
  kind: FileKind;
  sheetNames: string[];
  /** Rows in file order; `onTotal` gets the declared last row number of a worksheet when known. */
  rows(onTotal?: (lastRow: number) => void): AsyncGenerator<SheetRow>;
}

/** Opens a spooled upload for streaming row reads, whatever its kind. */
export async function openTabular(path: string, options: TabularOptions = {}): Promise<TabularSource> {
  const kind = await sniffFileKind(path);
  if (kind === 'CSV') {
    if (!isSupportedEncoding(options.encoding ?? 'UTF-8')) {
      throw new UnreadableFileError(`encoding '${options.encoding}' is not supported`);
    }
    return {
      kind,
      sheetNames: [],
      rows: () =>
        readCsvRows(path, { encoding: options.encoding ?? 'UTF-8', delimiter: options.delimiter ?? ',' }),
    };
  }
  let workbook;
  try {
    workbook = await openXlsx(path);
  } catch (err) {
    if (err instanceof UnreadableFileError) throw err;
    throw new UnreadableFileError((err as Error).message);
  }
  const sheetNames = workbook.sheets.map((s) => s.name);
  let sheet: XlsxSheet | undefined = workbook.sheets[options.sheetIndex ?? 0];
  if (options.sheetName) {
    sheet = workbook.sheets.find((s) => s.name === options.sheetName);
    if (!sheet)
      throw new UnreadableFileError(
        `the workbook has no sheet '${options.sheetName}' (sheets: ${sheetNames.join(', ')})`,
      );
  }
  if (!sheet)
    throw new UnreadableFileError(
      `the workbook has no sheet ${(options.sheetIndex ?? 0) + 1} (it has ${sheetNames.length})`,
    );
  const chosen = sheet;
  return { kind, sheetNames, rows: (onTotal) => workbook.rows(chosen, onTotal) };
}

/** True when every cell is blank. */
export function isBlankRow(cells: readonly string[]): boolean {
  for (const c of cells) if (c !== undefined && c.trim() !== '') return false;
  return true;
}
