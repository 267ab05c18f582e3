import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema/index.js';
import { abortOpenCopies } from './copy.js';
import type { Db } from './pool.js';

/** A connection leased from the pool (what COPY needs). */
export type PgClient = pg.PoolClient;

const pools = new WeakMap<Db, pg.Pool>();

/** Remembers which pool a Kysely instance runs on, so bulk paths can lease a raw client of it (COPY). */
export function registerPool(db: Db, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** A Kysely instance bound to one already leased client: every query runs on it; releasing is the owner's job. */
export function dbOnClient(client: pg.PoolClient): Db {
  const pool: PostgresPool = {
    connect: () =>
      Promise.resolve({
        query: client.query.bind(client) as pg.PoolClient['query'],
        release: () => undefined,
      }),
    end: () => Promise.resolve(),
  };
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export interface ClientTransaction {
  /** Kysely on the transaction's connection. */
  db: Db;
  /** The same connection, for what Kysely cannot do (COPY FROM STDIN). */
  client: pg.PoolClient;
}

/**
 * One transaction on a client leased from the pool behind `db`, usable both through Kysely and raw (COPY):
 * committed when `work` resolves, rolled back when it throws. A client whose connection broke is discarded.
 */
export async function clientTransaction<T>(db: Db, work: (tx: ClientTransaction) => Promise<T>): Promise<T> {
  const pool = pools.get(db);
  if (!pool) throw new Error('clientTransaction: this Db was not created by createDb (no pool known)');
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work({ db: dbOnClient(client), client });
    await client.query('COMMIT');
    return result;
  } catch (err) {
    abortOpenCopies(client, err);
    await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
      broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
    });
    throw err;
  } finally {
    client.release(broken);
  }
}
