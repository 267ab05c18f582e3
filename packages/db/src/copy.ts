import { once } from 'node:events';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CopyValue = string | number | boolean | null;

const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** One value in COPY text format: \N for NULL, backslash escapes for the separators. */
export function copyText(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value !== 'string') return String(value);
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

function copyLine(values: readonly CopyValue[]): string {
  let line = copyText(values[0] ?? null);
  for (let i = 1; i < values.length; i++) line += '\t' + copyText(values[i] ?? null);
  return line + '\n';
}

function copyStatement(table: string, columns: readonly string[]): string {
  return `COPY ${table} (${columns.join(', ')}) FROM STDIN`;
}

/** COPYs still open per client: a transaction that fails must end them before it can roll back. */
const openCopies = new WeakMap<object, Set<CopyWriter>>();

/**
 * Fails every COPY still open on the client (CopyFail): until then the client runs nothing else, so a ROLLBACK
 * queued behind an abandoned COPY would wait forever. clientTransaction calls it when its work throws.
 */
export function abortOpenCopies(client: object, reason: unknown): void {
  for (const writer of openCopies.get(client) ?? []) writer.abort(reason);
}

/**
 * A COPY FROM STDIN on the given client (so it joins the caller's transaction) fed row by row while the caller
 * computes: rows are buffered and sent every `batchRows`, so PostgreSQL parses and indexes one batch while the
 * caller works out the next. `flush()` yields to the event loop (and waits when the socket is saturated); call it
 * between batches of CPU work. Nothing else may run on the client until `end()` resolves.
 */
export class CopyWriter {
  private readonly stream: ReturnType<typeof copyFrom>;
  private readonly done: Promise<void>;
  private buffer = '';
  private buffered = 0;
  private failure: unknown;
  private readonly open: Set<CopyWriter>;
  count = 0;

  constructor(
    client: pg.PoolClient | pg.Client,
    table: string,
    columns: readonly string[],
    private readonly batchRows = 500,
  ) {
    this.stream = client.query(copyFrom(copyStatement(table, columns)));
    this.done = new Promise<void>((resolve, reject) => {
      this.stream.once('finish', resolve);
      this.stream.once('error', (err) => {
        this.failure = err;
        reject(err);
      });
    });
    // Rejections surface through flush()/end(); never as an unhandled rejection in between.
    this.done.catch(() => undefined);
    let open = openCopies.get(client);
    if (!open) openCopies.set(client, (open = new Set()));
    this.open = open;
    open.add(this);
    void this.done.then(
      () => open.delete(this),
      () => open.delete(this),
    );
  }

  /** Gives the COPY up (CopyFail): nothing of it is stored, and the client is free again. */
  abort(reason: unknown): void {
    if (!this.open.delete(this)) return;
    this.failure ??= reason;
    this.stream.destroy(reason instanceof Error ? reason : new Error(String(reason)));
  }

  /** Buffers one row; true when a batch is full and the caller should `await flush()`. */
  write(values: readonly CopyValue[]): boolean {
    this.buffer += copyLine(values);
    this.buffered++;
    this.count++;
    return this.buffered >= this.batchRows;
  }

  /** Sends the buffered rows once a batch is full; resolves after a turn of the event loop. */
  async flush(force = false): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.buffered === 0 || (!force && this.buffered < this.batchRows)) return;
    const ok = this.stream.write(this.buffer);
    this.buffer = '';
    this.buffered = 0;
    if (!ok) await Promise.race([once(this.stream, 'drain'), this.done]);
    else await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.failure) throw this.failure;
  }

  /** Sends the rest and completes the COPY; resolves with the rows PostgreSQL stored. */
  async end(): Promise<number> {
    if (this.buffered > 0) await this.flush(true);
    this.stream.end();
    await this.done;
    return Number(this.stream.rowCount ?? this.count);
  }
}

/** Streams an iterable of rows into `table` with one COPY (bulk loads); memory stays flat whatever the count. */
export async function copyRows(
  client: pg.PoolClient | pg.Client,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly CopyValue[]>,
  batchRows = 2000,
): Promise<number> {
  const stream = client.query(copyFrom(copyStatement(table, columns)));
  async function* lines(): AsyncGenerator<string> {
    let buffer = '';
    let n = 0;
    for (const row of rows) {
      buffer += copyLine(row);
      if (++n === batchRows) {
        yield buffer;
        buffer = '';
        n = 0;
      }
    }
    if (n > 0) yield buffer;
  }
  await pipeline(Readable.from(lines()), stream);
  return Number(stream.rowCount ?? 0);
}
