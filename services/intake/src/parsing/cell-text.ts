import { textProblem } from '@csp/service-kit';

/** A cell that is not acceptable text (DECISIONS "Text input"): the row becomes an error row. */
export interface CellProblem {
  /** The column's key (header text, field name or letter). */
  column: string;
  /** The cell with the offending characters replaced by U+FFFD, for the error report. */
  value: string;
  message: string;
}

const BAD = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** The text with NUL characters and lone surrogates replaced by U+FFFD (safe for PostgreSQL). */
export function cleanCell(value: string): string {
  return SUSPECT.test(value) ? value.replace(BAD, '\uFFFD') : value;
}

/** The first cell (in column order) holding NUL or a lone surrogate; `keys` name the columns. */
export function firstBadCell(
  keys: readonly string[],
  cells: readonly string[],
  keyOf: (index: number) => string,
): CellProblem | undefined {
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (cell === undefined) continue;
    // textProblem tests for a suspect character first: a clean cell costs one regex test
    const message = textProblem(cell);
    if (message) return { column: keys[i] ?? keyOf(i), value: cleanCell(cell), message };
  }
  return undefined;
}

/** The cells with every bad character replaced (only copies when one is found). */
export function cleanCells(cells: readonly string[]): readonly string[] {
  return cells.some((c) => c !== undefined && SUSPECT.test(c)) ? cells.map((c) => (c === undefined ? c : cleanCell(c))) : cells;
}

/** True for the message of a cell-text error row (re-parsing its cleaned content would not be the carrier's data). */
export function isCellTextMessage(message: string): boolean {
  return message.endsWith(textProblem('\u0000')!) || message.endsWith(textProblem('\uD800')!);
}

/** The header itself must be text: a bad header cell refuses the file (there is no row to blame). */
export function headerProblem(cells: readonly string[], keyOf: (index: number) => string): string | undefined {
  const bad = firstBadCell([], cells, keyOf);
  return bad ? `header column ${bad.column} ${bad.message}` : undefined;
}
