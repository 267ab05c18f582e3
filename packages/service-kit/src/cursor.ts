import type pg from 'pg';
import Cursor from 'pg-cursor';
import type { CompiledQuery } from 'kysely';

/**
 * Streams the rows of a compiled query through a server-side cursor, `batchSize` at a time, so
 * memory does not grow with the row count. The cursor and connection are always released, also
 * when the consumer stops early.
 */
export async function* streamRows<R = Record<string, unknown>>(
  pool: pg.Pool,
  compiled: CompiledQuery<R> | { sql: string; parameters: readonly unknown[] },
  batchSize = 1000,
): AsyncGenerator<R, void, undefined> {
  const client = await pool.connect();
  const cursor = client.query(new Cursor<R>(compiled.sql, [...compiled.parameters]));
  let failed = false;
  try {
    for (;;) {
      const rows = await cursor.read(batchSize);
      if (rows.length === 0) return;
      for (const row of rows) yield row;
    }
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    try {
      await cursor.close();
    } catch {
      failed = true;
    }
    client.release(failed ? true : undefined);
  }
}
