import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, MigrationChecksumError, MigrationError, readMigrations } from '../src/migrate.js';
import { copyMigrations, createEmptyDatabase, type EmptyDatabase } from './helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function emptyDb(): Promise<EmptyDatabase> {
  const db = await createEmptyDatabase();
  cleanups.push(db.drop);
  return db;
}

async function migrationsCopy(): Promise<string> {
  const copy = await copyMigrations();
  cleanups.push(copy.remove);
  return copy.dir;
}

async function tableExists(pool: import('pg').Pool, table: string): Promise<boolean> {
  const { rows } = await pool.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [table]);
  return rows[0]!.t !== null;
}

describe('migrate', () => {
  it('applies every migration file in ascending version order and records name, checksum and duration', async () => {
    const files = await readMigrations();
    expect(files.slice(0, 3).map((f) => f.fileName)).toEqual([
      'V001__platform.sql',
      'V002__platform_seed.sql',
      'V003__data_dictionary_view.sql',
    ]);
    const db = await emptyDb();
    const pool = db.newPool();

    const applied = await migrate(pool);

    expect(applied).toEqual(files.map((f) => f.version));
    const { rows } = await pool.query<{
      version: number;
      name: string;
      checksum: string;
      duration_ms: number;
    }>('SELECT version, name, checksum, duration_ms FROM schema_migration ORDER BY applied_at, version');
    expect(rows.map((r) => [r.version, r.name, r.checksum])).toEqual(
      files.map((f) => [f.version, f.name, f.checksum]),
    );
    expect(rows.every((r) => r.duration_ms >= 0)).toBe(true);
  });

  it('a second run applies nothing', async () => {
    const db = await emptyDb();
    const pool = db.newPool();
    await migrate(pool);

    expect(await migrate(pool)).toEqual([]);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migration');
    expect(rows[0]!.n).toBe((await readMigrations()).length);
  });

  it('two concurrent runs on a fresh database both succeed and apply each version exactly once', async () => {
    const versions = (await readMigrations()).map((f) => f.version);
    const db = await emptyDb();

    const results = await Promise.all([migrate(db.newPool()), migrate(db.newPool())]);

    const [first, second] = [...results].sort((a, b) => b.length - a.length);
    expect(first).toEqual(versions);
    expect(second).toEqual([]);
    const { rows } = await db
      .newPool()
      .query<{ version: number; n: number }>(
        'SELECT version, count(*)::int AS n FROM schema_migration GROUP BY version ORDER BY version',
      );
    expect(rows).toEqual(versions.map((version) => ({ version, n: 1 })));
  });

  it('an applied migration edited afterwards throws MigrationChecksumError and applies nothing new', async () => {
    const dir = await migrationsCopy();
    const db = await emptyDb();
    const pool = db.newPool();
    await migrate(pool, { migrationsDir: dir });
    await appendFile(join(dir, 'V002__platform_seed.sql'), '\n-- edited after it was applied\n');
    await writeFile(join(dir, 'V999__later.sql'), 'CREATE TABLE later_table (id int);');

    const error = await migrate(pool, { migrationsDir: dir }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MigrationChecksumError);
    expect((error as MigrationChecksumError).version).toBe(2);
    expect(await tableExists(pool, 'later_table')).toBe(false);
  });

  it('a line-ending-only change (CRLF checkout) is not an edit', async () => {
    const dir = await migrationsCopy();
    const db = await emptyDb();
    const pool = db.newPool();
    await migrate(pool, { migrationsDir: dir });
    const file = join(dir, 'V003__data_dictionary_view.sql');
    const { readFile } = await import('node:fs/promises');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/\n/g, '\r\n'));

    expect(await migrate(pool, { migrationsDir: dir })).toEqual([]);
  });

  it('a failing migration is rolled back, not recorded, and stops the run; earlier ones stay applied', async () => {
    const dir = await migrationsCopy();
    await writeFile(join(dir, 'V997__ok.sql'), 'CREATE TABLE ok_table (id int);');
    await writeFile(join(dir, 'V998__broken.sql'), 'CREATE TABLE half_done (id int);\nSELECT 1 / 0;');
    await writeFile(join(dir, 'V999__after.sql'), 'CREATE TABLE after_table (id int);');
    const db = await emptyDb();
    const pool = db.newPool();

    const error = await migrate(pool, { migrationsDir: dir }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).message).toContain('V998__broken.sql');
    expect(await tableExists(pool, 'ok_table')).toBe(true);
    expect(await tableExists(pool, 'half_done')).toBe(false);
    expect(await tableExists(pool, 'after_table')).toBe(false);
    const { rows } = await pool.query<{ v: number }>('SELECT max(version) AS v FROM schema_migration');
    expect(rows[0]!.v).toBe(997);
  });

  it('a new file with a version below the newest applied one is still applied', async () => {
    const dir = await migrationsCopy();
    await writeFile(join(dir, 'V999__newest.sql'), 'CREATE TABLE newest_table (id int);');
    const db = await emptyDb();
    const pool = db.newPool();
    await migrate(pool, { migrationsDir: dir });
    await writeFile(join(dir, 'V990__late_arrival.sql'), 'CREATE TABLE late_table (id int);');

    expect(await migrate(pool, { migrationsDir: dir })).toEqual([990]);
    expect(await tableExists(pool, 'late_table')).toBe(true);
  });

  it('two files with the same version are rejected before anything runs', async () => {
    const dir = await migrationsCopy();
    await writeFile(join(dir, 'V002__duplicate.sql'), 'SELECT 1;');

    await expect(readMigrations(dir)).rejects.toThrow('Duplicate migration version 2');
  });
});
