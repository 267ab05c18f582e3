import type { ReceiveFileKind } from '@csp/db';
import { AppError, invalid } from '@csp/service-kit';
import type { ActiveMapping } from '../mappings/mapping-lookup.js';
import { cleanCell, cleanCells, firstBadCell, headerProblem, type CellProblem } from '../parsing/cell-text.js';
import { columnLetter } from '../parsing/columns.js';
import { normaliseEncoding } from '../parsing/csv-reader.js';
import { readFixedRows, type FixedField } from '../parsing/fixed-reader.js';
import { JsonArrayError, readJsonArray, type JsonElement } from '../parsing/json-array-reader.js';
import { asFileRefusal, MAX_COLUMNS, tooManyColumns } from '../parsing/limits.js';
import { isBlankRow, openTabular, type SheetRow } from '../parsing/tabular.js';
import type { DataType } from '../transform/record-mapper.js';
import { checkLayout, type LayoutProblems } from './layout-check.js';
import type { Profile } from './receive-upload.service.js';

/** The header of a file that carries one data type per row instead of the dataType field. */
export const DATA_TYPE_COLUMN = 'DATA_TYPE';

/** One record of a carrier file as raw_commission_data stores it. */
export interface CarrierRecord {
  rowNumber: number;
  /** As delivered (RECRUIT/MAINTAIN when valid). */
  dataType: string;
  /** raw_content: a JSON object of source field -> value. */
  content: string;
  /**
   * A cell with NUL or a lone surrogate (DECISIONS "Text input"): the record is an error row
   * (INVALID_INPUT on that column) and `content` holds the cells with those characters replaced.
   */
  problem?: CellProblem;
}

/** A carrier file opened for streaming its records, the layout already compared with the mappings. */
export interface CarrierFile {
  kind: ReceiveFileKind;
  /** The character set the file was decoded with (null for xlsx). */
  encoding: string | null;
  /** The source fields of the records (header texts, fixed-width field names, JSON keys of record 1). */
  header: string[];
  /** Renamed, moved and missing mapped columns (empty when the file fits the mappings). */
  layout: LayoutProblems;
  records(): AsyncGenerator<CarrierRecord>;
  close(): Promise<void>;
}

export interface CarrierFileInput {
  companyCode: string;
  profile: Profile;
  /** The active field mappings of the month for the data type(s) the file carries. */
  mappings: readonly ActiveMapping[];
  /** RECRUIT/MAINTAIN for the whole file; undefined when each record carries DATA_TYPE. */
  dataType: DataType | undefined;
}

const NO_PROBLEMS: LayoutProblems = { missing: [], moved: [], renamed: [] };

/** Keys of raw_content: the header texts (blank -> COL_<letter>, repeats -> name#2). */
export function headerKeys(cells: readonly string[]): string[] {
  const used = new Map<string, number>();
  return cells.map((cell, i) => {
    let key = cell.trim() || `COL_${columnLetter(i)}`;
    const n = (used.get(key) ?? 0) + 1;
    used.set(key, n);
    if (n > 1) key = `${key}#${n}`;
    return key;
  });
}

/** Rows of the spooled file, the header consumed, positioned at the first data row. */
export async function readHeader(
  rows: AsyncGenerator<SheetRow>,
  profile: Profile,
): Promise<{ header: string[] | undefined; first: IteratorResult<SheetRow> }> {
  let next = await rows.next();
  if (profile.header_row === 0) return { header: undefined, first: next };
  while (!next.done && next.value.rowNumber < profile.header_row) next = await rows.next();
  if (next.done || next.value.rowNumber !== profile.header_row) {
    throw invalid('file', `the file has no header in row ${profile.header_row}`);
  }
  const problem = headerProblem(next.value.cells, (i) => columnLetter(i));
  if (problem) throw invalid('file', problem);
  const header = headerKeys(next.value.cells);
  return { header, first: await rows.next() };
}

/**
 * Keys of raw_content for a file without a header: the mapped source field of a pinned column
 * (source_col_index), else the column letter. The file must reach every pinned column.
 */
export function headerlessKeys(
  companyCode: string,
  mappings: readonly ActiveMapping[],
  firstWidth: number,
): string[] {
  const byIndex = new Map(
    mappings.filter((m) => m.sourceColIndex !== null).map((m) => [m.sourceColIndex!, m.sourceField]),
  );
  const width = Math.max(0, ...[...byIndex.keys()].map((i) => i + 1));
  if (firstWidth < width) {
    const message = `the file has ${firstWidth} columns; the active field mapping of ${companyCode} reads column ${columnLetter(width - 1)}`;
    throw new AppError('INVALID_PARAMETER', message, { errors: [{ field: 'file', message }] });
  }
  return Array.from({ length: Math.max(width, firstWidth) }, (_, i) => byIndex.get(i) ?? columnLetter(i));
}

/** raw_content of one record: every column under its key, blanks as ''. */
export function rawContentOf(keys: readonly string[], cells: readonly string[]): Record<string, string> {
  const content: Record<string, string> = {};
  const n = Math.max(keys.length, cells.length);
  for (let i = 0; i < n; i++) content[keys[i] ?? `COL_${columnLetter(i)}`] = cells[i] ?? '';
  return content;
}

function refuse(message: string): AppError {
  return new AppError('INVALID_PARAMETER', message, { errors: [{ field: 'file', message }] });
}

const letterKey = (i: number) => `COL_${columnLetter(i)}`;

/** The record of a row: its raw_content, or an error row when a cell is not acceptable text. */
function recordOf(
  rowNumber: number,
  dataType: string,
  keys: readonly string[],
  cells: readonly string[],
): CarrierRecord {
  const problem = firstBadCell(keys, cells, letterKey);
  if (!problem) return { rowNumber, dataType, content: JSON.stringify(rawContentOf(keys, cells)) };
  return {
    rowNumber,
    dataType: cleanCell(dataType),
    content: JSON.stringify(rawContentOf(keys, cleanCells(cells))),
    problem,
  };
}

function requireDataTypeColumn(keys: readonly string[], what: string): number {
  const at = keys.indexOf(DATA_TYPE_COLUMN);
  if (at < 0) throw invalid('dataType', `is required (the file has no ${DATA_TYPE_COLUMN} ${what})`);
  return at;
}

/**
 * Opens a spooled carrier file the way its profile says: EXCEL/CSV (the kind detected from the
 * bytes, header row, delimiter, encoding), FIXED (the fields cut at the byte positions and lengths
 * of the field mappings) or JSON (one array of record objects). Refusals that concern the file as a
 * whole (unreadable, no header, a fixed layout the mappings do not describe) are thrown here; the
 * layout comparison is returned for the caller to refuse (upload) or report (test-parse).
 */
export async function openCarrierFile(path: string, input: CarrierFileInput): Promise<CarrierFile> {
  switch (input.profile.data_format) {
    case 'FIXED':
      return openFixed(path, input);
    case 'JSON':
      return openJson(path, input);
    default:
      return openDelimitedOrXlsx(path, input);
  }
}

async function openDelimitedOrXlsx(path: string, input: CarrierFileInput): Promise<CarrierFile> {
  const { profile } = input;
  let source;
  try {
    source = await openTabular(path, {
      encoding: normaliseEncoding(profile.file_encoding),
      delimiter: profile.delimiter,
      sheetName: profile.sheet_name,
    });
  } catch (err) {
    throw asFileRefusal(err);
  }
  const rows = source.rows();
  try {
    const { header, first } = await readHeader(rows, profile);
    const typeColumn = input.dataType === undefined ? requireDataTypeColumn(header ?? [], 'column') : -1;
    const keys =
      header ?? headerlessKeys(input.companyCode, input.mappings, first.done ? 0 : first.value.cells.length);
    return {
      kind: source.kind,
      encoding: source.kind === 'CSV' ? normaliseEncoding(profile.file_encoding) : null,
      header: keys,
      layout: header ? checkLayout(header, input.mappings) : NO_PROBLEMS,
      async *records() {
        try {
          for (let next = first; !next.done; next = await rows.next()) {
            const { rowNumber, cells } = next.value;
            if (rowNumber < profile.data_start_row || isBlankRow(cells)) continue;
            yield recordOf(rowNumber, input.dataType ?? (cells[typeColumn] ?? '').trim(), keys, cells);
          }
        } catch (err) {
          throw asFileRefusal(err);
        }
      },
      close: async () => void (await rows.return(undefined)),
    };
  } catch (err) {
    await rows.return(undefined);
    throw asFileRefusal(err);
  }
}

/** The fixed-width layout of the mappings: one field per source field, with its byte offset and length. */
export function fixedFields(companyCode: string, mappings: readonly ActiveMapping[]): FixedField[] {
  if (mappings.length === 0) {
    throw refuse(
      `the fixed-width profile of ${companyCode} has no active field mapping to cut the records with`,
    );
  }
  const byName = new Map<string, FixedField>();
  for (const m of mappings) {
    if (m.sourceColIndex === null || m.sourceLength === null) {
      throw refuse(
        `the field mapping of ${companyCode} gives no byte position and length for '${m.sourceField}' (sourceColIndex, sourceLength), which a fixed-width file needs`,
      );
    }
    const field = { name: m.sourceField, start: m.sourceColIndex, length: m.sourceLength };
    const seen = byName.get(m.sourceField);
    if (seen && (seen.start !== field.start || seen.length !== field.length)) {
      throw refuse(
        `the field mapping of ${companyCode} places '${m.sourceField}' at two different positions`,
      );
    }
    byName.set(m.sourceField, field);
  }
  return [...byName.values()].sort((a, b) => a.start - b.start || a.name.localeCompare(b.name));
}

async function openFixed(path: string, input: CarrierFileInput): Promise<CarrierFile> {
  const { profile, companyCode } = input;
  if (input.dataType === undefined) {
    throw invalid('dataType', 'is required for a fixed-width file (its records carry no DATA_TYPE column)');
  }
  const dataType = input.dataType;
  const fields = fixedFields(companyCode, input.mappings);
  const keys = fields.map((f) => f.name);
  const width = Math.max(...fields.map((f) => f.start + f.length));
  const encoding = normaliseEncoding(profile.file_encoding);
  const rows = readFixedRows(path, { encoding, fields });
  // the first data record must reach the end of the layout (a shorter one means another layout)
  const buffered: Array<Awaited<ReturnType<typeof rows.next>>> = [];
  try {
    let next = await rows.next();
    while (!next.done && next.value.rowNumber < profile.data_start_row) next = await rows.next();
    buffered.push(next);
    if (!next.done && next.value.bytes < width) {
      const last = fields.reduce((a, b) => (b.start + b.length > a.start + a.length ? b : a));
      throw refuse(
        `record ${next.value.rowNumber} is ${next.value.bytes} bytes long; the field mapping of ${companyCode} reads '${last.name}' up to byte ${width}`,
      );
    }
  } catch (err) {
    await rows.return(undefined);
    throw asFileRefusal(err);
  }
  return {
    kind: 'FIXED',
    encoding,
    header: keys,
    layout: NO_PROBLEMS,
    async *records() {
      try {
        for (let next = buffered.pop()!; !next.done; next = await rows.next()) {
          const { rowNumber, cells } = next.value;
          if (isBlankRow(cells)) continue;
          yield recordOf(rowNumber, dataType, keys, cells);
        }
      } catch (err) {
        throw asFileRefusal(err);
      }
    },
    close: async () => void (await rows.return(undefined)),
  };
}

function objectKeys(element: JsonElement): string[] {
  let value: unknown;
  try {
    value = JSON.parse(element.text);
  } catch (err) {
    throw refuse(`element ${element.index} of the JSON array does not parse: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw refuse(`element ${element.index} of the JSON array is not an object`);
  }
  return Object.keys(value);
}

function dataTypeOf(text: string): string {
  try {
    const value = JSON.parse(text) as Record<string, unknown> | null;
    const t = value && typeof value === 'object' ? value[DATA_TYPE_COLUMN] : undefined;
    return typeof t === 'string' ? t.trim() : '';
  } catch {
    return '';
  }
}

/**
 * A JSON array of record objects: each element is stored as delivered (raw_content keeps the
 * carrier's own text, digits included); the keys of the first element are the file's header for
 * the layout check. An element that later turns out not to be an object fails step 2 (JSON_PARSE
 * or INVALID_INPUT), as a record of any receiver that stores text as delivered.
 */
async function openJson(path: string, input: CarrierFileInput): Promise<CarrierFile> {
  const encoding = normaliseEncoding(input.profile.file_encoding);
  const elements = readJsonArray(path, { encoding });
  const wrap = (err: unknown) => (err instanceof JsonArrayError ? refuse(err.message) : asFileRefusal(err));
  let first: IteratorResult<JsonElement>;
  let keys: string[];
  try {
    first = await elements.next();
    keys = first.done ? [] : objectKeys(first.value);
    if (keys.length > MAX_COLUMNS) throw tooManyColumns(1, keys.length);
    const problem = headerProblem(keys, (i) => `key ${i + 1}`);
    if (problem) throw refuse(problem);
    if (input.dataType === undefined) requireDataTypeColumn(keys, 'field in its first record');
  } catch (err) {
    await elements.return(undefined);
    throw wrap(err);
  }
  return {
    kind: 'JSON',
    encoding,
    header: keys,
    layout: checkLayout(keys, input.mappings),
    async *records() {
      try {
        for (let next = first; !next.done; next = await elements.next()) {
          const { index, text } = next.value;
          const problem = jsonTextProblem(text);
          const content = problem ? cleanJsonText(text) : text;
          yield {
            rowNumber: index,
            dataType: input.dataType ?? dataTypeOf(content),
            content,
            ...(problem ? { problem } : {}),
          };
        }
      } catch (err) {
        throw wrap(err);
      }
    },
    close: async () => void (await elements.return(undefined)),
  };
}

// NUL or a surrogate, raw or as a JSON escape (\u0000, \ud800-\udfff)
const JSON_SUSPECT = /[\u0000\uD800-\uDFFF]|\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;
const ESCAPED_NUL = /\\u0000/g;
const ESCAPED_LONE_HIGH = /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})/g;
const ESCAPED_LONE_LOW = /(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}/g;

/**
 * The first field of a JSON record whose text (escapes decoded) holds NUL or a lone surrogate.
 * Only a suspect record is parsed; nested values are named by their top-level field.
 */
function jsonTextProblem(text: string): CellProblem | undefined {
  if (!JSON_SUSPECT.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // a raw NUL makes the element invalid JSON: the record as a whole is to blame
    const raw = firstBadCell(['record'], [text], () => 'record');
    return raw && { ...raw, value: raw.value.slice(0, 200) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return firstBadCell(['record'], [JSON.stringify(value)], () => 'record');
  }
  for (const [key, field] of Object.entries(value)) {
    const keyProblem = firstBadCell([cleanCell(key)], [key], () => key);
    if (keyProblem) return keyProblem;
    const strings: string[] = [];
    JSON.stringify(field, (_k, v: unknown) => {
      if (typeof v === 'string') strings.push(v);
      return v;
    });
    const found = firstBadCell(strings.map(() => key), strings, () => key);
    if (found) return found;
  }
  return undefined;
}

/** The record's text with NUL and lone surrogates (raw or escaped) replaced by U+FFFD; digits stay as delivered. */
function cleanJsonText(text: string): string {
  return cleanCell(text)
    .replace(ESCAPED_NUL, '\\ufffd')
    .replace(ESCAPED_LONE_HIGH, '\\ufffd')
    .replace(ESCAPED_LONE_LOW, '\\ufffd');
}
