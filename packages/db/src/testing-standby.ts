import { execFile, execFileSync } from 'node:child_process';
import { appendFile, chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A real PostgreSQL hot standby of the test cluster, for tests of the read-replica path.
 *
 * `pg_basebackup -R` of the whole cluster (physical replication cannot copy one database) into a
 * temporary directory, started with the server binaries of the primary's major version on another
 * port. Test databases created on the primary afterwards reach the standby through streaming
 * replication. As root the server runs as the `postgres` OS user (PostgreSQL refuses to run as root).
 *
 * The primary needs wal_level >= replica, max_wal_senders > 0 (both need a restart to change, so the
 * set-up only checks them) and a pg_hba `replication` rule for TCP: when the hba file has none,
 * `host replication all 127.0.0.1/32 trust` is appended and the server reloaded (idempotent; a reload
 * suffices). An existing replication rule is left as it is (a password in the URL is passed on).
 */

const run = promisify(execFile);
const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const FIRST_PORT = 5499;
const HBA_LINE = 'host replication all 127.0.0.1/32 trust';

export interface StartStandbyOptions {
  /** Superuser URL of the primary (default TEST_DATABASE_URL or postgres@127.0.0.1:5432). */
  primaryUrl?: string;
  /** Port of the standby (default: TEST_STANDBY_PORT, else the first free one from 5499). */
  port?: number;
}

export interface Standby {
  readonly port: number;
  readonly dataDir: string;
  /** The same database on the standby: `primaryDatabaseUrl` with the standby's host and port. */
  urlFor(primaryDatabaseUrl: string): string;
  /** Waits until `database` can be connected to on the standby (its creation was replayed). */
  waitForDatabase(database: string, timeoutMs?: number): Promise<void>;
  /** Waits until the standby replayed the primary's WAL up to now. */
  catchUp(timeoutMs?: number): Promise<void>;
  /** pg_wal_replay_pause(): WAL keeps arriving but is not applied (a lagging replica). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the server (`fast`: clean shutdown; `immediate`: like a crash); `start()` brings it back. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
}

export async function startStandby(options: StartStandbyOptions = {}): Promise<Standby> {
  const primaryUrl = options.primaryUrl ?? process.env.TEST_DATABASE_URL ?? DEFAULT_URL;
  const primary = new URL(primaryUrl);
  const admin = new pg.Client({ connectionString: primaryUrl });
  await admin.connect();
  let settings: Record<string, string>;
  try {
    settings = await checkPrimary(admin);
  } finally {
    await admin.end();
  }

  const bin = binDir(settings.server_version_num!);
  const asPostgres = process.getuid?.() === 0;
  const root = await mkdtemp(join(tmpdir(), 'csp-standby-'));
  const dataDir = join(root, 'data');
  if (asPostgres) {
    const { uid, gid } = osUser('postgres');
    await chown(root, uid, gid);
  }
  await chmod(root, 0o700);
  const port = options.port ?? (process.env.TEST_STANDBY_PORT ? Number(process.env.TEST_STANDBY_PORT) : await freePort(FIRST_PORT));
  // A password in the URL reaches pg_basebackup (and, through -R, the standby's primary_conninfo).
  const env = primary.password ? { ...process.env, PGPASSWORD: decodeURIComponent(primary.password) } : process.env;
  const exec = (tool: string, args: string[]) =>
    asPostgres
      ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { env })
      : run(join(bin, tool), args, { env });

  let running = false;
  const cleanupOnExit = () => {
    if (!running) return;
    try {
      const args = ['-D', dataDir, '-m', 'immediate', 'stop'];
      if (asPostgres) execFileSync('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args], { stdio: 'ignore' });
      else execFileSync(join(bin, 'pg_ctl'), args, { stdio: 'ignore' });
    } catch {
      // already gone
    }
  };
  process.once('exit', cleanupOnExit);

  try {
    await exec('pg_basebackup', [
      '-h', primary.hostname, '-p', primary.port || '5432', '-U', decodeURIComponent(primary.username || 'postgres'),
      '-D', dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync',
    ]);
    // The Debian layout keeps postgresql.conf and pg_hba.conf outside the data directory: write our own.
    // A hot standby needs these limits at least as high as the primary's.
    const conf = [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${root}'`,
      'hot_standby = on',
      `max_connections = ${settings.max_connections}`,
      `max_worker_processes = ${settings.max_worker_processes}`,
      `max_wal_senders = ${settings.max_wal_senders}`,
      `max_prepared_transactions = ${settings.max_prepared_transactions}`,
      `max_locks_per_transaction = ${settings.max_locks_per_transaction}`,
      'shared_buffers = 32MB',
      'fsync = off',
      'ssl = off',
      'logging_collector = off',
      'wal_receiver_status_interval = 1s',
      '',
    ].join('\n');
    await writeFile(join(dataDir, 'postgresql.conf'), conf);
    await writeFile(join(dataDir, 'pg_hba.conf'), `local all all trust\nhost all all 127.0.0.1/32 trust\n${HBA_LINE}\n`);
    await writeFile(join(dataDir, 'pg_ident.conf'), '');
    if (asPostgres) {
      const { uid, gid } = osUser('postgres');
      for (const file of ['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf']) await chown(join(dataDir, file), uid, gid);
    }
  } catch (err) {
    process.removeListener('exit', cleanupOnExit);
    await rm(root, { recursive: true, force: true });
    throw err;
  }

  const pgCtl = async (...args: string[]) => exec('pg_ctl', ['-D', dataDir, ...args]);
  const start = async () => {
    await pgCtl('-l', join(root, 'server.log'), '-w', '-t', '60', 'start');
    running = true;
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    if (!running) return;
    await pgCtl('-m', mode, '-w', 'stop');
    running = false;
  };
  try {
    await start();
  } catch (err) {
    process.removeListener('exit', cleanupOnExit);
    await rm(root, { recursive: true, force: true });
    throw err;
  }

  const urlFor = (primaryDatabaseUrl: string) => {
    const url = new URL(primaryDatabaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    return url.toString();
  };
  const onStandby = async <T>(query: string, params: unknown[] = [], database = 'postgres'): Promise<T[]> => {
    const url = new URL(urlFor(primaryUrl));
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query(query, params)).rows as T[];
    } finally {
      await client.end();
    }
  };

  return {
    port,
    dataDir,
    urlFor,
    async waitForDatabase(database, timeoutMs = 30_000) {
      await until(timeoutMs, `database ${database} on the standby`, async () => {
        try {
          await onStandby('SELECT 1', [], database);
          return true;
        } catch {
          return false;
        }
      });
    },
    async catchUp(timeoutMs = 30_000) {
      const client = new pg.Client({ connectionString: primaryUrl });
      await client.connect();
      let target: string;
      try {
        target = (await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
      } finally {
        await client.end();
      }
      await until(timeoutMs, `standby replay up to ${target}`, async () => {
        const [row] = await onStandby<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [target]);
        return row?.done === true;
      });
    },
    async pauseReplay() {
      await onStandby('SELECT pg_wal_replay_pause()');
    },
    async resumeReplay() {
      await onStandby('SELECT pg_wal_replay_resume()');
    },
    stop,
    start,
    async destroy() {
      try {
        if (running) await pgCtl('-m', 'immediate', '-w', 'stop');
      } catch {
        // a server that is already gone
      }
      running = false;
      process.removeListener('exit', cleanupOnExit);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Reads what the standby must match, and makes sure replication connections from 127.0.0.1 are allowed. */
async function checkPrimary(admin: pg.Client): Promise<Record<string, string>> {
  const names = [
    'server_version_num', 'wal_level', 'max_wal_senders', 'max_connections', 'max_worker_processes',
    'max_prepared_transactions', 'max_locks_per_transaction', 'hba_file',
  ];
  const { rows } = await admin.query<{ name: string; setting: string }>(
    'SELECT name, setting FROM pg_settings WHERE name = ANY($1)',
    [names],
  );
  const settings = Object.fromEntries(rows.map((r) => [r.name, r.setting]));
  if (settings.wal_level === 'minimal' || Number(settings.max_wal_senders) < 1) {
    throw new Error(
      'The test cluster cannot stream to a standby: it needs wal_level = replica and max_wal_senders > 0 ' +
        '(ALTER SYSTEM SET ... then a server restart; a reload does not suffice).',
    );
  }
  const { rows: rules } = await admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_hba_file_rules
      WHERE error IS NULL AND 'replication' = ANY(database) AND type IN ('host', 'hostnossl')`,
  );
  if ((rules[0]?.n ?? 0) === 0) {
    const hba = settings.hba_file!;
    try {
      await appendFile(hba, `\n# streaming to test standbys (packages/db/src/testing-standby.ts)\n${HBA_LINE}\n`);
    } catch (err) {
      throw new Error(`Add "${HBA_LINE}" to ${hba} and reload PostgreSQL (could not append it: ${(err as Error).message})`);
    }
    await admin.query('SELECT pg_reload_conf()');
    // The postmaster reloads asynchronously: wait until the view (re-read from the file) and the server agree.
    await new Promise((r) => setTimeout(r, 500));
  }
  return settings;
}

function binDir(versionNum: string): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const major = Math.floor(Number(versionNum) / 10_000);
  const debian = `/usr/lib/postgresql/${major}/bin`;
  if (existsSync(join(debian, 'pg_ctl'))) return debian;
  return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
}

function osUser(name: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 100; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}..${from + 99} for a standby`);
}

async function until(timeoutMs: number, what: string, check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A service config's read-replica settings pointing at `standby` (fast health checks, generous lag and wait). */
export function standbyReadConfig(standby: Standby, primaryDatabaseUrl: string) {
  return {
    DATABASE_READ_URL: standby.urlFor(primaryDatabaseUrl),
    DATABASE_READ_CHECK_MS: 100,
    DATABASE_READ_MAX_LAG_MS: 600_000,
    DATABASE_READ_WAIT_MS: 10_000,
  };
}

/** After the seed: the standby has the test database and replayed it, and the app's read routing says it is up. */
export async function standbyReadyFor(
  standby: Standby,
  primaryDatabaseUrl: string,
  routingUp: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  await standby.waitForDatabase(new URL(primaryDatabaseUrl).pathname.slice(1));
  await standby.catchUp();
  const deadline = Date.now() + timeoutMs;
  while (!(await routingUp())) {
    if (Date.now() > deadline) throw new Error(`read routing not up within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
