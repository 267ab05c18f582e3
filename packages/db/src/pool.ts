import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './schema/index.js';
import { registerPool } from './client-transaction.js';

// int8 (ids, counts) as JS numbers: ids stay far below 2^53. numeric stays a string (money).
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
// int8[] (1016) as numbers too, with the int4[] (1007) parser: ids in arrays read like ids in columns.
type PgTypeId = Parameters<typeof pg.types.getTypeParser>[0];
pg.types.setTypeParser(1016 as PgTypeId, pg.types.getTypeParser(1007 as PgTypeId));
// DATE as 'YYYY-MM-DD', never shifted through a JS Date in the local time zone.
pg.types.setTypeParser(1082, (v) => v);

export interface PoolOptions {
  connectionString: string;
  max?: number;
  applicationName?: string;
}

export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName,
  });
  // An idle client dying (database restart, DROP ... WITH (FORCE)) must not crash the process;
  // the pool replaces it on the next checkout.
  pool.on('error', (err) => {
    if ((err as { code?: string }).code !== '57P01')
      console.error(`[pg pool] idle client error: ${err.message}`);
  });
  return pool;
}

export type Db = Kysely<Database>;

export function createDb(pool: pg.Pool): Db {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  registerPool(db, pool);
  return db;
}
