import { PassThrough, type Writable } from 'node:stream';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface SpreadsheetColumn<R> {
  header: string;
  key: string;
  width?: number;
  /** Cell value; defaults to `row[key]`. */
  value?(row: R): unknown;
}

export interface SpreadsheetOptions<R> {
  fileName: string;
  sheetName?: string;
  columns: Array<SpreadsheetColumn<R>>;
  rows: AsyncIterable<R> | Iterable<R>;
}

/** RFC 6266/5987: an ASCII fallback plus the exact UTF-8 name in `filename*`. */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

type CellValue = ExcelJS.CellValue;

function toCell(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object' && !(value instanceof Date)) return JSON.stringify(value);
  return value as CellValue;
}

/** Resolves when the stream can take more data, or when it was closed (client went away). */
function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
const CHECK_EVERY_ROWS = 100;

interface PipeTarget {
  writableLength?: number;
  _writableState?: { length?: number };
  once(event: 'drain', listener: () => void): unknown;
  off(event: 'drain', listener: () => void): unknown;
}

/**
 * exceljs's sheet stream (StreamBuf) writes to the zip's deflate stage ignoring its return value, so
 * a fast producer piles rows up there. We read that backlog (StreamBuf's own buffers before the zip
 * starts on the entry, the deflate stage's writable buffer after) and wait while it is too large.
 */
function sheetBacklog(sheet: ExcelJS.Worksheet): { bytes: number; target?: PipeTarget } {
  const stream = (sheet as unknown as { stream?: { buffers?: unknown[]; pipes?: PipeTarget[] } }).stream;
  const pipes = stream?.pipes ?? [];
  // archiver's entry stream is an old readable-stream PassThrough without `writableLength`.
  const piped = pipes.reduce((sum, p) => sum + (p.writableLength ?? p._writableState?.length ?? 0), 0);
  return { bytes: (stream?.buffers?.length ?? 0) * 65536 + piped, target: pipes[0] };
}

function drainedOrTimeout(target: PipeTarget | undefined, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      target?.off('drain', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    target?.once('drain', done);
  });
}

/**
 * Writes an xlsx of all `rows` into `out` with exceljs's streaming writer (no styles, no shared
 * strings). Each row is committed at once; the loop waits for 'drain' when `out` is full, waits
 * while the zip stage lags behind (see sheetBacklog) and yields to the event loop every 1000 rows:
 * memory stays flat whatever the row count.
 */
export async function writeSpreadsheet<R>(out: PassThrough, options: Omit<SpreadsheetOptions<R>, 'fileName'>): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(options.sheetName ?? 'Sheet1');
  sheet.columns = options.columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 15 }));
  const getters = options.columns.map((c) => c.value ?? ((row: R) => (row as Record<string, unknown>)[c.key]));

  let count = 0;
  for await (const row of options.rows) {
    if (out.destroyed) break;
    sheet.addRow(getters.map((get) => toCell(get(row)))).commit();
    count += 1;
    if (out.writableNeedDrain) await drained(out);
    if (count % CHECK_EVERY_ROWS === 0) {
      for (let backlog = sheetBacklog(sheet); backlog.bytes > MAX_BACKLOG_BYTES && !out.destroyed; backlog = sheetBacklog(sheet)) {
        await drainedOrTimeout(backlog.target, 20);
      }
    }
    if (count % 1000 === 0) await yieldToEventLoop();
  }
  if (out.destroyed) return count;
  sheet.commit();
  await workbook.commit();
  return count;
}

/** Streams a spreadsheet download as the reply body (see `writeSpreadsheet`). */
export function sendSpreadsheet<R>(reply: FastifyReply, options: SpreadsheetOptions<R>): FastifyReply {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const fileName = options.fileName.toLowerCase().endsWith('.xlsx') ? options.fileName : `${options.fileName}.xlsx`;
  writeSpreadsheet(out, options).catch((err: unknown) => {
    reply.log.error({ err }, 'spreadsheet export failed');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  reply.header('content-type', XLSX_CONTENT_TYPE);
  reply.header('content-disposition', contentDisposition(fileName));
  reply.header('cache-control', 'no-store');
  return reply.send(out);
}
