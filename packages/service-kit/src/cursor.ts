import type pg from 'pg';
import Cursor from 'pg-cursor';
import type { CompiledQuery } from 'kysely';

type Compiled<R> = CompiledQuery<R> | { sql: string; parameters: readonly unknown[] };

/**
 * Streams the rows of a compiled query through a server-side cursor, `batchSize` rows per read,
 * as one array per read: a bulk consumer (the spreadsheet export) pays one await per batch instead
 * of one per row. The next read is asked for as soon as a batch arrives, so PostgreSQL produces it
 * while the consumer works on this one (one batch ahead: without it the database waited for every
 * batch to be consumed and the consumer for every batch to be produced). Memory does not grow with
 * the row count. The cursor and connection are always released, also when the consumer stops early.
 * `rowMode: 'array'` gives each row as its values in select order (no object with the column names
 * per row: the export reads cells by position).
 */
export async function* streamBatches<R = Record<string, unknown>>(
  pool: Pick<pg.Pool, 'connect'>,
  compiled: Compiled<unknown>,
  batchSize = 1000,
  options: { rowMode?: 'array' } = {},
): AsyncGenerator<R[], void, undefined> {
  const client = await pool.connect();
  const cursor = client.query(new Cursor<R>(compiled.sql, [...compiled.parameters], options.rowMode ? { rowMode: options.rowMode } : {}));
  let failed = false;
  let ahead: Promise<R[]> | undefined;
  const readAhead = (): Promise<R[]> => {
    const read = cursor.read(batchSize);
    // handled here and rethrown where it is awaited: a read failing while the consumer works is no unhandled rejection
    read.catch(() => {});
    return read;
  };
  try {
    ahead = readAhead();
    for (;;) {
      const rows = await ahead;
      ahead = undefined;
      if (rows.length === 0) return;
      // the cursor is idle now (pg-cursor queues no second read behind a busy one): ask for the next batch
      ahead = readAhead();
      yield rows;
    }
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    try {
      // a consumer that stopped early leaves one read in flight: let it finish before the portal is closed
      if (ahead) await ahead;
      await cursor.close();
    } catch {
      failed = true;
    }
    client.release(failed ? true : undefined);
  }
}

/** `streamBatches` one row at a time. */
export async function* streamRows<R = Record<string, unknown>>(
  pool: Pick<pg.Pool, 'connect'>,
  compiled: Compiled<R>,
  batchSize = 1000,
): AsyncGenerator<R, void, undefined> {
  for await (const rows of streamBatches<R>(pool, compiled, batchSize)) yield* rows;
}
