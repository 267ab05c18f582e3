import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CopyValue = string | number | boolean | null;

/** One value in COPY text format: \N for NULL, backslash escapes for the separators. */
function encode(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value !== 'string') return String(value);
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

async function* lines(rows: Iterable<CopyValue[]>, batch: number): AsyncGenerator<string> {
  let buffer: string[] = [];
  for (const row of rows) {
    buffer.push(row.map(encode).join('\t'));
    if (buffer.length >= batch) {
      yield buffer.join('\n') + '\n';
      buffer = [];
    }
  }
  if (buffer.length > 0) yield buffer.join('\n') + '\n';
}

/**
 * Streams rows into `table` with one COPY FROM STDIN on the given client (so it joins the caller's
 * transaction). Rows are generated lazily; memory stays flat whatever the count.
 */
export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: Iterable<CopyValue[]>,
): Promise<number> {
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(lines(rows, 2000)), stream);
  return Number(stream.rowCount ?? 0);
}
