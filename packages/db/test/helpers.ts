import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULT_MIGRATIONS_DIR } from '../src/migrate.js';
import { createPool } from '../src/pool.js';

export const BASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface EmptyDatabase {
  url: string;
  newPool(): pg.Pool;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** An empty database (no migrations), for migrator tests. */
export async function createEmptyDatabase(): Promise<EmptyDatabase> {
  const name = `csp_dbtest_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  const pools: pg.Pool[] = [];
  return {
    url: url.toString(),
    newPool: () => {
      const pool = createPool({ connectionString: url.toString(), max: 3 });
      pools.push(pool);
      return pool;
    },
    drop: async () => {
      await Promise.all(pools.filter((p) => !p.ended).map((p) => p.end()));
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** A writable copy of the real migrations folder. */
export async function copyMigrations(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'csp-migrations-'));
  await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
