import { Transform, type TransformCallback } from 'node:stream';
import { invalid } from '@csp/service-kit';

/** DECISIONS "Text input": at most 16,384 columns (Excel's own limit) and no line over 1 MiB. */
export const MAX_COLUMNS = 16_384;
export const MAX_LINE_BYTES = 1024 * 1024;
/** Excel's row limit; a worksheet claiming more is not a spreadsheet a carrier exported. */
export const MAX_SHEET_ROWS = 1_048_576;

const LF = 0x0a;

/** A file refused as a whole (unreadable or over a limit): E411 on `file` before anything is stored. */
export class UnreadableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

/** A reader's refusal of the whole file as E411 on `file`; any other error as it is. */
export function asFileRefusal(err: unknown): unknown {
  return err instanceof UnreadableFileError ? invalid('file', err.message) : err;
}

export function tooManyColumns(rowNumber: number, columns: number): UnreadableFileError {
  return new UnreadableFileError(
    `row ${rowNumber} has ${columns.toLocaleString('en-US')} columns; at most ${MAX_COLUMNS.toLocaleString('en-US')} are accepted`,
  );
}

export function lineTooLong(lineNumber: number): UnreadableFileError {
  return new UnreadableFileError(`line ${lineNumber} is longer than 1 MiB`);
}

const QUOTE = 0x22;

/**
 * Passes bytes through unchanged and fails as soon as a line (LF-separated, counted in bytes of
 * the file's encoding) exceeds 1 MiB, before a parser buffers it. With `delimiter` (one ASCII byte
 * in an ASCII-compatible encoding) a line long enough to hold over 16,384 fields has its
 * delimiters outside quotes counted as it streams, so a 100,000-field header fails here instead of
 * slowing the parser down for seconds; the reader's exact column check stays the rule otherwise.
 * Short lines cost one memchr each.
 */
export function lineLengthGuard(delimiter?: number): Transform {
  let current = 0;
  let line = 1;
  // the pieces of a line not yet counted (at most MAX_COLUMNS bytes)
  let pending: Buffer[] = [];
  let counting = false;
  let columns = 1;
  let quoted = false;
  const count = (piece: Buffer) => {
    for (let i = 0; i < piece.length; i++) {
      const byte = piece[i]!;
      if (byte === QUOTE) quoted = !quoted;
      else if (byte === delimiter && !quoted) columns++;
    }
  };
  const feed = (piece: Buffer, ends: boolean): UnreadableFileError | undefined => {
    if (current + piece.length > MAX_LINE_BYTES) return lineTooLong(line);
    if (delimiter !== undefined) {
      if (counting) count(piece);
      else if (current + piece.length > MAX_COLUMNS) {
        counting = true;
        columns = 1;
        quoted = false;
        for (const p of pending) count(p);
        pending = [];
        count(piece);
      } else if (!ends) pending.push(piece);
      if (columns > MAX_COLUMNS) {
        return new UnreadableFileError(`line ${line} has more than ${MAX_COLUMNS.toLocaleString('en-US')} columns`);
      }
    }
    current += piece.length;
    return undefined;
  };
  const endLine = () => {
    current = 0;
    line += 1;
    if (pending.length) pending = [];
    counting = false;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let from = 0;
      for (let at = chunk.indexOf(LF, from); at >= 0; at = chunk.indexOf(LF, from)) {
        const problem = feed(chunk.subarray(from, at), true);
        if (problem) return done(problem);
        endLine();
        from = at + 1;
      }
      const problem = feed(chunk.subarray(from), false);
      if (problem) return done(problem);
      done(null, chunk);
    },
  });
}
