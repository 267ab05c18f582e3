import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import pg from 'pg';
import { ensureAdminUser } from './bootstrap.js';
import { migrate, readMigrations } from './migrate.js';
import { createDb, createPool, type Db } from './pool.js';

export interface TestDatabase {
  url: string;
  name: string;
  pool: pg.Pool;
  db: Db;
  drop(): Promise<void>;
}

const TEMPLATE_PREFIX = 'csp_tpl_';
/** Namespace of the two-key advisory locks guarding one template (second key = hashtext(name)). */
const LOCK_NAMESPACE = 73_401;
const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The admin password seeded into every test database. */
export const TEST_ADMIN_PASSWORD = process.env.TEST_ADMIN_PASSWORD ?? 'Admin#12345';

let baseUrlPromise: Promise<string> | undefined;

/** What a drop hook gets: the database about to be dropped (still intact). */
export interface DroppingTestDatabase {
  name: string;
  url: string;
}
const dropHooks = new Set<(database: DroppingTestDatabase) => Promise<void>>();

/**
 * Runs `hook` before each test database of this process is dropped (e.g. the kit's scan of masked
 * columns over what the tests wrote). A hook that throws does not keep the database. Returns the remover.
 */
export function beforeTestDatabaseDrop(hook: (database: DroppingTestDatabase) => Promise<void>): () => void {
  dropHooks.add(hook);
  return () => dropHooks.delete(hook);
}

/**
 * A fresh database cloned from a migrated template (`csp_tpl_<hash of the migrations>`), with the admin user.
 * The template is built once per migration set, guarded by advisory locks, so parallel workers and packages
 * share it: building takes an exclusive lock, cloning a shared one.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  baseUrlPromise ??= resolveBaseUrl();
  const baseUrl = await baseUrlPromise;
  const template = await templateName();
  const name = `csp_test_${randomBytes(6).toString('hex')}`;

  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock_shared($1, hashtext($2))', [LOCK_NAMESPACE, template]);
    let ready = await isTemplate(admin, template);
    if (!ready) {
      await admin.query('SELECT pg_advisory_unlock_shared($1, hashtext($2))', [LOCK_NAMESPACE, template]);
      await admin.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_NAMESPACE, template]);
      ready = await isTemplate(admin, template);
      if (!ready) {
        await buildTemplate(admin, baseUrl, template);
        await dropOldTemplates(admin, template);
      }
    }
    await admin.query(`CREATE DATABASE ${ident(name)} TEMPLATE ${ident(template)}`);
  } finally {
    await admin.end(); // ends the session, which releases whichever advisory lock it holds
  }

  const url = databaseUrl(baseUrl, name);
  const pool = createPool({ connectionString: url, max: 5, applicationName: 'csp-test' });
  // pool.end() resolves before its clients are gone; DROP ... WITH (FORCE) then terminates them (57P01).
  pool.on('error', () => {});
  return {
    url,
    name,
    pool,
    db: createDb(pool),
    drop: async () => {
      let hookError: unknown;
      try {
        for (const hook of dropHooks) await hook({ name, url });
      } catch (err) {
        hookError = err;
      }
      if (!pool.ended) await pool.end();
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
      if (hookError) throw hookError;
    },
  };
}

async function templateName(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await readMigrations()) hash.update(`${file.fileName}\0${file.checksum}\0`);
  hash.update(TEST_ADMIN_PASSWORD);
  return TEMPLATE_PREFIX + hash.digest('hex').slice(0, 12);
}

async function isTemplate(admin: pg.Client, name: string): Promise<boolean> {
  const { rows } = await admin.query<{ datistemplate: boolean }>(
    'SELECT datistemplate FROM pg_database WHERE datname = $1',
    [name],
  );
  return rows[0]?.datistemplate === true;
}

async function buildTemplate(admin: pg.Client, baseUrl: string, name: string): Promise<void> {
  // A database of this name that is not marked as template is a build that died half way.
  await admin.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${ident(name)}`);
  const pool = createPool({
    connectionString: databaseUrl(baseUrl, name),
    max: 2,
    applicationName: 'csp-test-template',
  });
  try {
    await migrate(pool);
    await ensureAdminUser(createDb(pool), { password: TEST_ADMIN_PASSWORD });
  } finally {
    await pool.end();
  }
  // No connections allowed: a stray session on a template makes CREATE DATABASE ... TEMPLATE fail.
  await admin.query(`ALTER DATABASE ${ident(name)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
}

/** Best effort: templates of other migration sets nobody is building or cloning right now. */
async function dropOldTemplates(admin: pg.Client, current: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datistemplate AND datname LIKE 'csp\\_tpl\\_%' AND datname <> $1`,
    [current],
  );
  for (const { datname } of rows) {
    try {
      const { rows: lock } = await admin.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok',
        [LOCK_NAMESPACE, datname],
      );
      if (!lock[0]?.ok) continue;
      try {
        await admin.query(`ALTER DATABASE ${ident(datname)} WITH IS_TEMPLATE false`);
        await admin.query(`DROP DATABASE ${ident(datname)}`);
      } finally {
        await admin.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_NAMESPACE, datname]);
      }
    } catch {
      // another process may be using or dropping it; leave it
    }
  }
}

async function resolveBaseUrl(): Promise<string> {
  const configured = process.env.TEST_DATABASE_URL;
  if (configured) return configured;
  if ((await portAnswers('127.0.0.1', 5432)) || !dockerAvailable()) return DEFAULT_URL;
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const container = await new PostgreSqlContainer('postgres:16-alpine').start();
  return container.getConnectionUri();
}

function dockerAvailable(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}

function portAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function databaseUrl(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

function ident(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name ${name}`);
  return `"${name}"`;
}
