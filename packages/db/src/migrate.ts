import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/** The package's own migrations folder; the same relative path from src/ and from dist/. */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));

/** One advisory lock key for "migrating this database" (advisory locks are per database). */
const MIGRATION_LOCK_KEY = '7283640011';

const FILE_PATTERN = /^V(\d+)__(.+)\.sql$/;

export interface MigrationLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface MigrateOptions {
  migrationsDir?: string;
  logger?: MigrationLogger;
}

export interface MigrationFile {
  version: number;
  name: string;
  fileName: string;
  sql: string;
  checksum: string;
}

/** An applied migration's file changed after it was applied: the service must not start. */
export class MigrationChecksumError extends Error {
  constructor(
    readonly version: number,
    readonly fileName: string,
    readonly appliedChecksum: string,
    readonly fileChecksum: string,
  ) {
    super(
      `Migration ${fileName} was changed after it was applied (checksum ${appliedChecksum} in schema_migration, ` +
        `${fileChecksum} on disk). Applied migrations must not be edited; add a new migration instead.`,
    );
    this.name = 'MigrationChecksumError';
  }
}

export class MigrationError extends Error {
  constructor(
    readonly version: number,
    readonly fileName: string,
    cause: unknown,
  ) {
    super(`Migration ${fileName} failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'MigrationError';
  }
}

const silentLogger: MigrationLogger = { info: () => {}, warn: () => {} };

/** Line endings are normalised so a checkout with CRLF does not look like an edited migration. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n'), 'utf8').digest('hex');
}

export async function readMigrations(
  migrationsDir: string = DEFAULT_MIGRATIONS_DIR,
): Promise<MigrationFile[]> {
  const files: MigrationFile[] = [];
  for (const fileName of await readdir(migrationsDir)) {
    const match = FILE_PATTERN.exec(fileName);
    if (!match) continue;
    const sql = await readFile(join(migrationsDir, fileName), 'utf8');
    files.push({
      version: Number(match[1]),
      name: match[2]!,
      fileName,
      sql,
      checksum: migrationChecksum(sql),
    });
  }
  files.sort((a, b) => a.version - b.version);
  for (let i = 1; i < files.length; i++) {
    if (files[i]!.version === files[i - 1]!.version) {
      throw new Error(
        `Duplicate migration version ${files[i]!.version}: ${files[i - 1]!.fileName}, ${files[i]!.fileName}`,
      );
    }
  }
  return files;
}

/**
 * Applies every migration file not yet recorded in schema_migration, in ascending version order,
 * each in its own transaction. Runs under an advisory lock on one dedicated connection, so services
 * starting together are safe: the others wait and then find nothing left to do.
 * Returns the versions applied by this call.
 */
export async function migrate(pool: pg.Pool, options: MigrateOptions = {}): Promise<number[]> {
  const logger = options.logger ?? silentLogger;
  const files = await readMigrations(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    try {
      return await applyPending(client, files, logger);
    } finally {
      await client
        .query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY])
        .catch((err: Error) => {
          broken = err;
        });
    }
  } finally {
    // A connection whose unlock failed is destroyed (which also frees the session lock).
    client.release(broken);
  }
}

async function applyPending(
  client: pg.PoolClient,
  files: MigrationFile[],
  logger: MigrationLogger,
): Promise<number[]> {
  await client.query(`
    CREATE TABLE IF NOT EXISTS schema_migration (
      version     integer      PRIMARY KEY,
      name        varchar(200) NOT NULL,
      checksum    char(64)     NOT NULL,
      applied_at  timestamptz  NOT NULL DEFAULT now(),
      duration_ms integer      NOT NULL
    )`);
  const { rows } = await client.query<{ version: number; checksum: string }>(
    'SELECT version, checksum FROM schema_migration ORDER BY version',
  );
  const applied = new Map(rows.map((r) => [r.version, r.checksum]));
  const byVersion = new Map(files.map((f) => [f.version, f]));

  for (const [version, checksum] of applied) {
    const file = byVersion.get(version);
    if (!file) {
      // Typically a newer release already migrated this database; nothing of ours to check.
      logger.warn({ version }, 'applied migration has no file here');
    } else if (file.checksum !== checksum) {
      throw new MigrationChecksumError(version, file.fileName, checksum, file.checksum);
    }
  }

  const done: number[] = [];
  for (const file of files) {
    if (applied.has(file.version)) continue;
    const started = performance.now();
    try {
      await client.query('BEGIN');
      await client.query(file.sql);
      const durationMs = Math.round(performance.now() - started);
      await client.query(
        'INSERT INTO schema_migration (version, name, checksum, duration_ms) VALUES ($1, $2, $3, $4)',
        [file.version, file.name, file.checksum, durationMs],
      );
      await client.query('COMMIT');
      logger.info({ version: file.version, name: file.name, durationMs }, 'migration applied');
      done.push(file.version);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw new MigrationError(file.version, file.fileName, err);
    }
  }
  return done;
}
