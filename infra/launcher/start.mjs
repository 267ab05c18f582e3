#!/usr/bin/env node
// Local launcher: database, Redis, migrations, admin user, then every built service, its workers and
// the gateway, with prefixed logs. Ctrl-C stops the services, then PostgreSQL, then Redis.
// Run through `bash scripts/start.sh` (installs and builds first) or `pnpm start:local` (already built).
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeTag, pipeTagged, reserveTagWidth, say, warn } from './lib/output.mjs';
import { startChild, stopChild } from './lib/processes.mjs';
import { hasCommand, pingRedis, redisAddress, spawnRedis } from './lib/redis.mjs';
import { loadAdminPassword, loadSecrets } from './lib/secrets.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DATA_DIR = join(ROOT, '.data');
const GATEWAY_PORT = 8080;
/** DECISIONS.md "Ports and processes". A service folder not listed here gets the next free number. */
const SERVICE_PORTS = {
  'auth-platform': 8101,
  'master-data': 8102,
  intake: 8103,
  'ledger-settlement': 8104,
  'payment-tax': 8105,
  analytics: 8106,
};
const UPSTREAM_URL_ENV = {
  'auth-platform': 'AUTH_PLATFORM_URL',
  'master-data': 'MASTER_DATA_URL',
  intake: 'INTAKE_URL',
  'ledger-settlement': 'LEDGER_SETTLEMENT_URL',
  'payment-tax': 'PAYMENT_TAX_URL',
  analytics: 'ANALYTICS_URL',
};
const EMBEDDED_PG_PORT = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
const DATABASE_NAME = 'commission';

const args = new Set(process.argv.slice(2));
const children = []; // { name, child, kind: 'service' | 'worker' | 'gateway' }
let pgHelper;
let redisChild;
let stopping = false;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function fail(message) {
  warn(message);
  return shutdown(1);
}

/**
 * Node options of one service's API process. intake streams carrier files and 700,000-row spreadsheets: a
 * smaller young generation keeps its peak RSS under 300 MB (bench/intake-bench.ts: 309 -> 263 MB for the
 * 700,000-row import) for a few percent of CPU. docker-compose.yml sets the same for its intake container.
 */
// The one ledger-settlement worker process here also serves the simulations' queue (off by default in worker.ts).
const WORKER_ENV = { 'ledger-settlement': { SIMULATION_WORKER: 'true' } };
const SERVICE_NODE_OPTIONS = {
  intake: { NODE_OPTIONS: '--max-semi-space-size=4' },
};

/** Service folders with a start script; `built` says whether dist/server.js exists yet. */
function discoverServices() {
  const dir = join(ROOT, 'services');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'package.json')))
    .map((d) => {
      const pkg = JSON.parse(readFileSync(join(dir, d.name, 'package.json'), 'utf8'));
      return {
        name: d.name,
        hasStart: Boolean(pkg.scripts?.start),
        server: join(dir, d.name, 'dist', 'server.js'),
        worker: join(dir, d.name, 'dist', 'worker.js'),
      };
    })
    .filter((s) => s.hasStart);
}

function portIsFree(port) {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once('error', () => resolvePort(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolvePort(true)));
  });
}

async function startEmbeddedPostgres(password) {
  const dataDir = join(DATA_DIR, 'pg');
  if (!(await portIsFree(EMBEDDED_PG_PORT))) {
    throw new Error(
      `port ${EMBEDDED_PG_PORT} for the embedded PostgreSQL is in use (another launcher running?). ` +
        'Stop it, set EMBEDDED_PG_PORT, or set DATABASE_URL to use your own PostgreSQL.',
    );
  }
  say(`starting embedded PostgreSQL on 127.0.0.1:${EMBEDDED_PG_PORT} (data in .data/pg)`);
  pgHelper = fork(join(ROOT, 'infra/launcher/embedded-pg.mjs'), [], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      EMBEDDED_PG: JSON.stringify({ dataDir, port: EMBEDDED_PG_PORT, password, database: DATABASE_NAME }),
    },
  });
  const tag = makeTag('postgres');
  pipeTagged(pgHelper.stdout, tag);
  pipeTagged(pgHelper.stderr, tag, process.stderr);
  await new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error('embedded PostgreSQL did not start within 120 s')), 120_000);
    pgHelper.on('message', (m) => {
      clearTimeout(timer);
      if (m?.type === 'ready') resolveReady();
      else reject(new Error(m?.message ?? 'embedded PostgreSQL failed'));
    });
    pgHelper.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`embedded PostgreSQL exited (code ${code}); see the [postgres] lines above`));
    });
  });
  pgHelper.removeAllListeners('exit');
  pgHelper.once('exit', () => {
    pgHelper = undefined;
    if (!stopping) void fail('embedded PostgreSQL stopped unexpectedly');
  });
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${EMBEDDED_PG_PORT}/${DATABASE_NAME}`;
}

async function ensureRedis(url, explicit) {
  if (await pingRedis(url)) return { url, started: false };
  const { host, port } = redisAddress(url);
  const local = host === '127.0.0.1' || host === 'localhost';
  if (local && hasCommand('redis-server')) {
    say(`no Redis answers at ${url}; starting redis-server on port ${port} (no persistence)`);
    redisChild = spawnRedis(port);
    const tag = makeTag('redis');
    pipeTagged(redisChild.stdout, tag);
    pipeTagged(redisChild.stderr, tag, process.stderr);
    for (let i = 0; i < 50; i++) {
      if (await pingRedis(url)) return { url, started: true };
      await sleep(100);
    }
    throw new Error('redis-server was started but does not answer');
  }
  throw new Error(
    [
      `No Redis answers at ${url}${explicit ? ' (REDIS_URL)' : ''}, and none can be started here.`,
      'Do one of:',
      '  - install Redis 7: `sudo apt-get install redis-server` (Debian/Ubuntu) or `brew install redis` (macOS), then run this again;',
      '  - run one in Docker: `docker run -d -p 6379:6379 redis:7`;',
      '  - point REDIS_URL at a Redis you have, e.g. `REDIS_URL=redis://host:6379 bash scripts/start.sh`.',
    ].join('\n'),
  );
}

async function migrateAndSeed(databaseUrl, adminPassword) {
  const dbDist = join(ROOT, 'packages/db/dist/index.js');
  if (!existsSync(dbDist)) throw new Error('packages/db is not built: run `pnpm build` first (scripts/start.sh does)');
  const db = await import(pathToFileURL(dbDist).href);
  const pool = db.createPool({ connectionString: databaseUrl, max: 2, applicationName: 'launcher' });
  try {
    const applied = await db.migrate(pool);
    say(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
    const admin = await db.ensureAdminUser(db.createDb(pool), { password: adminPassword });
    say(admin.created ? 'created the administrator "admin"' : 'administrator "admin" already exists (password unchanged)');
    return admin.created;
  } finally {
    await pool.end();
  }
}

async function runDemoData(env) {
  const script = join(ROOT, 'infra/launcher/demo-data.mjs');
  if (!existsSync(script)) {
    warn('--demo: infra/launcher/demo-data.mjs does not exist yet; starting without demo data');
    return;
  }
  say('loading demo data');
  const child = startChild({ name: 'demo-data', command: process.execPath, args: [script], env, cwd: ROOT, detached: false });
  const code = await child.exited;
  if (code !== 0) throw new Error(`demo data script failed (exit code ${code})`);
}

async function waitForGateway(expected) {
  const deadline = Date.now() + 90_000;
  let last;
  while (Date.now() < deadline && !stopping) {
    try {
      const res = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/api/health`, { signal: AbortSignal.timeout(3000) });
      if (res.ok) {
        last = (await res.json()).data;
        const down = last.services.filter((s) => expected.includes(s.name) && s.status !== 'UP').map((s) => s.name);
        if (down.length === 0) return [];
        last = down;
      }
    } catch {
      // gateway not listening yet
    }
    await sleep(500);
  }
  return Array.isArray(last) ? last : expected;
}

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  const gateway = children.filter((c) => c.kind === 'gateway');
  const others = children.filter((c) => c.kind !== 'gateway');
  await Promise.all(gateway.map((c) => stopChild(c.child, 10_000)));
  await Promise.all(others.map((c) => stopChild(c.child, 15_000)));
  if (pgHelper) {
    say('stopping PostgreSQL');
    await stopChild(pgHelper, 20_000);
  }
  if (redisChild) {
    say('stopping redis-server');
    await stopChild(redisChild, 5_000);
  }
  say('stopped');
  process.exit(code);
}

// If the launcher itself dies, do not leave its process groups running.
process.on('exit', () => {
  for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGTERM');
  if (pgHelper?.exitCode === null) pgHelper.kill('SIGTERM');
  if (redisChild?.exitCode === null) redisChild.kill('SIGTERM');
});
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGHUP', () => void shutdown(0));

async function main() {
  mkdirSync(DATA_DIR, { recursive: true, mode: 0o755 });
  const services = discoverServices();
  const gateway = services.find((s) => s.name === 'gateway');
  const backends = services.filter((s) => s.name !== 'gateway');
  const unbuilt = services.filter((s) => !existsSync(s.server));
  // SERVICES=auth-platform,master-data starts only those (the gateway always runs).
  const only = process.env.SERVICES?.split(',').map((s) => s.trim()).filter(Boolean);
  const runnable = backends.filter((s) => existsSync(s.server) && (!only || only.includes(s.name)));
  reserveTagWidth([
    'postgres',
    'redis',
    'gateway',
    ...runnable.flatMap((s) => (existsSync(s.worker) ? [s.name, `${s.name}-worker`] : [s.name])),
  ]);
  if (!gateway || !existsSync(gateway.server)) throw new Error('services/gateway is not built: run `pnpm build` first');
  for (const s of unbuilt) warn(`${s.name}: dist/server.js is missing (not built?) — skipped`);
  if (only) say(`SERVICES is set: starting only ${runnable.map((s) => s.name).join(', ') || 'the gateway'}`);

  let nextPort = 8107;
  const ports = Object.fromEntries(runnable.map((s) => [s.name, SERVICE_PORTS[s.name] ?? nextPort++]));
  for (const [name, port] of [['gateway', GATEWAY_PORT], ...Object.entries(ports)]) {
    if (!(await portIsFree(port))) throw new Error(`port ${port} (${name}) is in use — is the platform already running?`);
  }
  const secrets = loadSecrets(DATA_DIR);
  const admin = loadAdminPassword(DATA_DIR);

  const databaseUrl = process.env.DATABASE_URL || (await startEmbeddedPostgres(secrets.pgPassword));
  if (process.env.DATABASE_URL) say('using the PostgreSQL at DATABASE_URL');
  const redis = await ensureRedis(process.env.REDIS_URL || 'redis://127.0.0.1:6379', Boolean(process.env.REDIS_URL));

  const adminCreated = await migrateAndSeed(databaseUrl, admin.password);

  const baseEnv = {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV || 'development',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    JWT_SECRET: secrets.jwtSecret,
    ENCRYPT_KEY: secrets.encryptKey,
    ADMIN_PASSWORD: admin.password,
    FILE_STORAGE_DIR: process.env.FILE_STORAGE_DIR || join(DATA_DIR, 'files'),
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
  };
  if (args.has('--demo')) await runDemoData(baseEnv);

  const track = (name, kind, script, env) => {
    const child = startChild({ name, command: process.execPath, args: [script], env, cwd: dirname(dirname(script)) });
    children.push({ name, kind, child: child.process });
    void child.exited.then((code) => {
      if (stopping) return;
      // Without the gateway nothing is reachable; one broken service should not take the rest down.
      if (kind === 'gateway') void fail(`the gateway exited (code ${code}); stopping everything`);
      else warn(`${name} exited (code ${code}); the gateway answers 503 for it — see its log above`);
    });
  };

  for (const s of runnable) {
    track(s.name, 'service', s.server, { ...baseEnv, ...(SERVICE_NODE_OPTIONS[s.name] ?? {}), PORT: String(ports[s.name]) });
    if (existsSync(s.worker)) track(`${s.name}-worker`, 'worker', s.worker, { ...baseEnv, ...(WORKER_ENV[s.name] ?? {}) });
  }
  const upstreamEnv = Object.fromEntries(
    Object.entries(ports)
      .filter(([name]) => UPSTREAM_URL_ENV[name])
      .map(([name, port]) => [UPSTREAM_URL_ENV[name], `http://127.0.0.1:${port}`]),
  );
  track('gateway', 'gateway', gateway.server, { ...baseEnv, ...upstreamEnv, PORT: String(GATEWAY_PORT) });

  const notUp = await waitForGateway(runnable.map((s) => s.name));
  if (stopping) return;
  if (notUp.length) warn(`not answering yet: ${notUp.join(', ')} (see their logs above)`);

  const adminLine =
    admin.source === 'env'
      ? 'admin / (the ADMIN_PASSWORD you set)'
      : admin.generated || adminCreated
        ? `admin / ${admin.password}   (generated, kept in .data/admin-password — shown only this once)`
        : 'admin / password in .data/admin-password';
  const lines = [
    '',
    'Commission settlement platform is running',
    `  URL        http://localhost:${GATEWAY_PORT}`,
    `  Health     http://localhost:${GATEWAY_PORT}/api/health`,
    `  Swagger    http://localhost:${GATEWAY_PORT}/swagger-ui`,
    `  Queues     http://localhost:${GATEWAY_PORT}/ops/queues   (SUPER_ADMIN: POST /ops/session with your token first)`,
    `  Login      ${adminLine}`,
    `  Services   ${runnable.map((s) => `${s.name}:${ports[s.name]}`).join('  ')}`,
    `  Database   ${process.env.DATABASE_URL ? 'DATABASE_URL' : `embedded PostgreSQL 127.0.0.1:${EMBEDDED_PG_PORT}, data in .data/pg`}`,
    `  Redis      ${redis.url}${redis.started ? ' (started by the launcher)' : ''}`,
    '  Stop       Ctrl-C',
    '',
  ];
  for (const line of lines) say(line);
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
