/**
 * The real platform for the browser tests, in one child process (started by global-setup.ts):
 * a fresh migrated database with a small demo book, every service on a random port, the step
 * workers, and the gateway in front serving the built web client (services/web/dist). One month is
 * settled through the API so that settlement pages have rows. Prints one line `PLATFORM {json}` when
 * ready; SIGTERM closes everything and drops the database.
 *
 * WEB_E2E_DATABASE_URL: a database with a book already loaded (the 1M-contract book of the first-list
 * measurement, `pnpm demo-data`) is used as it is and kept: no journey users, no bank accounts; its
 * last month (WEB_E2E_BOOK_MONTH, default 202507) is settled unless a month is settled already.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { startStepWorkers, type StepDefinition, type StepService, type StepWorkers } from '@csp/batch';
import { createDb, createPool, ensureAdminUser, migrate } from '@csp/db';
import { createTestDatabase, TEST_ADMIN_PASSWORD } from '@csp/db/testing';
import { createLogger, loadServiceConfig } from '@csp/service-kit';
import { TEST_ENCRYPT_KEY, TEST_JWT_SECRET } from '@csp/service-kit/testing';
import { buildGatewayApp } from '@csp/gateway/app';
import { loadGatewayConfig, UPSTREAM_ENV } from '../../../gateway/src/config.js';
import { generateDemoBook } from '../../../../packages/demo-data/src/generate.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SERVICES = ['auth-platform', 'master-data', 'intake', 'ledger-settlement', 'payment-tax', 'analytics'] as const;
type Service = (typeof SERVICES)[number];
const STEP_SERVICES: Record<StepService, string> = {
  intake: '@csp/intake/steps',
  'ledger-settlement': '@csp/ledger-settlement/steps',
  'payment-tax': '@csp/payment-tax/steps',
};
export const USERS = {
  admin: { loginId: 'admin', password: TEST_ADMIN_PASSWORD },
  manager: { loginId: 'e2e.manager', password: 'Manager1234', role: 'MANAGER' },
  agent: { loginId: 'e2e.agent', password: 'Agent12345', role: 'AGENT' },
  clerk: { loginId: 'e2e.clerk', password: 'Clerk12345', role: 'MANAGER' },
  locked: { loginId: 'e2e.locked', password: 'Locked12345', role: 'MANAGER' },
  approver: { loginId: 'e2e.approver', password: 'Approver1234', role: 'ADMIN' },
} as const;

let closed = false;
type Listening = { listen(o: { port: number; host: string }): Promise<unknown>; close(): Promise<unknown>; server: { address(): unknown } };
let gateway: Listening | undefined;
const workers: StepWorkers[] = [];
const closers: Array<() => Promise<unknown>> = [];
const pools: ReturnType<typeof createPool>[] = [];
const bookUrl = process.env.WEB_E2E_DATABASE_URL;
const tdb = bookUrl ? await existingDatabase(bookUrl) : await createTestDatabase();
tdb.pool.on('error', () => {});

/** A loaded book used as it is (migrated, an admin with the tests' password), never dropped. */
async function existingDatabase(url: string) {
  const pool = createPool({ connectionString: url, max: 4, applicationName: 'web-e2e-book' });
  await migrate(pool);
  await ensureAdminUser(createDb(pool), { password: TEST_ADMIN_PASSWORD });
  return { url, pool, drop: () => pool.end() };
}
// A failed start must not leave its database behind.
process.on('uncaughtException', (err) => {
  process.stderr.write(`[platform] failed: ${err.stack ?? String(err)}\n`);
  void close().finally(() => process.exit(1));
});
process.on('unhandledRejection', (err) => {
  process.stderr.write(`[platform] failed: ${(err as Error)?.stack ?? String(err)}\n`);
  void close().finally(() => process.exit(1));
});
const tag = randomBytes(5).toString('hex');
const batchPrefix = `csp-web-${tag}`;
const keyPrefix = `web:${tag}:`;
const level = process.env.TEST_LOG_LEVEL ?? 'silent';
const serviceUrls: Partial<Record<Service, string>> = {};

const log = (message: string) => process.stderr.write(`[platform] ${message}\n`);

async function loadedBook() {
  const ids = await tdb.pool.query<{ first: number; last: number; agents: number; contracts: string }>(
    'select min(agent_id)::int as first, max(agent_id)::int as last, count(*)::int as agents, (select count(*) from contract) as contracts from agent',
  );
  const row = ids.rows[0]!;
  return { agents: row.agents, contracts: Number(row.contracts), agentIds: { first: row.first, last: row.last }, lastClosedMonth: process.env.WEB_E2E_BOOK_MONTH ?? '202507' };
}
const book = bookUrl ? await loadedBook() : await generateDemoBook(tdb.pool, { agents: 60, contracts: 3000, seed: 'web-e2e', today: '2025-08-15' });
log(`demo book: ${book.agents} agents, ${book.contracts} contracts, last month ${book.lastClosedMonth}`);

async function startService(name: Service): Promise<void> {
  let build: ((deps: any) => Promise<Listening>) | undefined;
  try {
    build = ((await import(`@csp/${name}/app`)) as { buildApp?: typeof build }).buildApp;
  } catch (err) {
    log(`${name}: not started (${(err as Error).message.split('\n', 1)[0]})`);
    return;
  }
  if (!build) return;
  const config = loadServiceConfig(name, {}, {
    NODE_ENV: 'test',
    DATABASE_URL: tdb.url,
    REDIS_URL,
    JWT_SECRET: TEST_JWT_SECRET,
    ENCRYPT_KEY: TEST_ENCRYPT_KEY,
    LOG_LEVEL: level,
    FILE_STORAGE_DIR: `/tmp/csp-web-e2e-${tag}/files`,
  });
  const pool = createPool({ connectionString: tdb.url, max: 5, applicationName: `web-e2e-${name}` });
  pool.on('error', () => {});
  pools.push(pool);
  const redis = new Redis(REDIS_URL, { keyPrefix, maxRetriesPerRequest: null });
  const app = await build({ config, db: createDb(pool), pool, redis, batchPrefix });
  await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(async () => {
    await app.close();
    redis.disconnect();
  });
  serviceUrls[name] = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

for (const name of SERVICES) await startService(name);
const nowhere = 'http://127.0.0.1:9';
gateway = await buildGatewayApp(
  loadGatewayConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    REDIS_URL,
    BATCH_PREFIX: batchPrefix,
    ...Object.fromEntries(SERVICES.map((s) => [UPSTREAM_ENV[s].env, serviceUrls[s] ?? nowhere])),
  }),
);
await gateway.listen({ port: Number(process.env.WEB_E2E_PORT ?? 0), host: '127.0.0.1' });
const url = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;

const workerPool = createPool({ connectionString: tdb.url, max: 10, applicationName: 'web-e2e-workers' });
workerPool.on('error', () => {});
pools.push(workerPool);
for (const [service, specifier] of Object.entries(STEP_SERVICES) as [StepService, string][]) {
  const mod = (await import(specifier)) as Record<string, unknown>;
  const steps = Object.values(mod).find((v): v is readonly StepDefinition[] => Array.isArray(v));
  if (!steps) continue;
  workers.push(
    await startStepWorkers({
      connection: REDIS_URL,
      prefix: batchPrefix,
      db: createDb(workerPool),
      service,
      steps,
      logger: createLogger({ name: `web-e2e-${service}`, level }),
      handleSignals: false,
    }),
  );
}

// The what-if simulations' queue (issue 26) has its own worker, as src/worker.ts of ledger-settlement starts it.
{
  const { startSimulationWorker } = await import('../../../ledger-settlement/src/simulations/simulation.queue.js');
  const simulationWorker = startSimulationWorker({
    connection: { url: REDIS_URL, maxRetriesPerRequest: null },
    prefix: batchPrefix,
    db: createDb(workerPool),
    connectionString: tdb.url,
    logger: createLogger({ name: 'web-e2e-simulation', level }),
  });
  closers.push(() => simulationWorker.close());
}

async function call(method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json().catch(() => null)) as any;
  if (!res.ok || !json?.success) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const admin = (await call('POST', '/api/auth/login', USERS.admin)).accessToken as string;

// Users of the journeys: a manager, and an AGENT linked to an agent of the book.
const roles = (await call('GET', '/api/roles?pageSize=100', undefined, admin)) as { list: { roleId: number; roleCode: string }[] };
const roleId = (code: string) => roles.list.find((r) => r.roleCode === code)!.roleId;
const agentId = book.agentIds.first + 5;
if (!bookUrl) {
  await call('POST', '/api/users', { loginId: USERS.manager.loginId, password: USERS.manager.password, userName: 'Mina Manager', roleIds: [roleId('MANAGER')] }, admin);
  await call('POST', '/api/users', { loginId: USERS.agent.loginId, password: USERS.agent.password, userName: 'Andy Agent', agentId, roleIds: [roleId('AGENT')] }, admin);
  for (const u of [USERS.clerk, USERS.locked, USERS.approver]) {
    await call('POST', '/api/users', { loginId: u.loginId, password: u.password, userName: u.loginId, roleIds: [roleId(u.role)] }, admin);
  }

  // Bank accounts for the agents of the book (the demo book has none), so that a month can be paid.
  for (let id = book.agentIds.first; id <= book.agentIds.last; id++) {
    const agent = await call('GET', `/api/agents/${id}`, undefined, admin);
    await call('PUT', `/api/agents/${id}`, { agentName: agent.agentName, orgId: agent.orgId, gradeId: agent.gradeId, bankCode: '004', accountNo: `100-200-${String(id).padStart(6, '0')}` }, admin);
  }
}

// One settled month, so that settlement, explain and payment pages have rows.
const settled = bookUrl ? (await tdb.pool.query<{ month: string | null }>('select max(settle_month) as month from settle_master')).rows[0]!.month : null;
const month = settled ?? book.lastClosedMonth;
const runId = settled ? 0 : ((await call('POST', `/api/batch/settlement/run?settleMonth=${month}`, undefined, admin)) as number);
const deadline = Date.now() + (bookUrl ? 1_800_000 : 180_000);
for (; runId !== 0; ) {
  const status = await call('GET', `/api/batch/settlement/status?jobLogId=${runId}`, undefined, admin);
  if (status.run.status === 'COMPLETED') break;
  if (status.run.status === 'FAILED' || Date.now() > deadline) throw new Error(`setup run ${runId}: ${JSON.stringify(status.run)}`);
  await new Promise((r) => setTimeout(r, 250));
}
log(`month ${month} settled (run ${runId})`);

// Resource metadata straight from each service: the browser tests serve it when the gateway does not route it yet.
const resources: unknown[] = [];
for (const [name, base] of Object.entries(serviceUrls)) {
  const res = await fetch(`${base}/api/meta/resources`, { headers: { authorization: `Bearer ${admin}` } });
  if (!res.ok) continue;
  const body = (await res.json()) as { data?: { resources?: unknown[] } };
  resources.push(...(body.data?.resources ?? []));
  log(`${name}: ${body.data?.resources?.length ?? 0} resources`);
}
const metaFile = `/tmp/csp-web-e2e-${tag}-meta.json`;
await writeFile(metaFile, JSON.stringify({ success: true, code: '0000', message: 'Success', data: { resources } }));

async function close(): Promise<void> {
  if (closed) return;
  closed = true;
  await gateway?.close().catch(() => {});
  for (const w of workers) await w.close().catch(() => {});
  for (const c of closers.reverse()) await c().catch(() => {});
  for (const p of pools) await p.end().catch(() => {});
  const redis = new Redis(REDIS_URL);
  for (const prefix of [batchPrefix, keyPrefix.slice(0, -1)]) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  }
  redis.disconnect();
  await tdb.drop().catch(() => {});
}

let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  void close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);

process.stdout.write(
  `PLATFORM ${JSON.stringify({ url, users: USERS, agentId, month, runId, metaFile, services: Object.keys(serviceUrls) })}\n`,
);
