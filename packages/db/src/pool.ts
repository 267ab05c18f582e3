import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from './schema/index.js';

// int8 (ids, counts) as JS numbers: ids stay far below 2^53. numeric stays a string (money).
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
// DATE as 'YYYY-MM-DD', never shifted through a JS Date in the local time zone.
pg.types.setTypeParser(1082, (v) => v);

export interface PoolOptions {
  connectionString: string;
  max?: number;
  applicationName?: string;
}

export function createPool(options: PoolOptions): pg.Pool {
  return new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    application_name: options.applicationName,
  });
}

export type Db = Kysely<Database>;

export function createDb(pool: pg.Pool): Db {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
