import { expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { startStepWorkers, type StepDefinition, type StepService, type StepWorkers } from '@csp/batch';
import { createDb, createPool, type Db } from '@csp/db';
import { createTestDatabase, TEST_ADMIN_PASSWORD, type TestDatabase } from '@csp/db/testing';
import { createLogger, loadServiceConfig } from '@csp/service-kit';
import { TEST_ENCRYPT_KEY, TEST_JWT_SECRET } from '@csp/service-kit/testing';
import { buildApp as buildAuthApp } from '@csp/auth-platform/app';
import { buildGatewayApp } from '@csp/gateway/app';
import { buildApp as buildMasterDataApp } from '@csp/master-data/app';
import { buildApp as buildIntakeApp } from '@csp/intake/app';
import { intakeSteps } from '@csp/intake/steps';
import { paymentTaxSteps } from '@csp/payment-tax/steps';
import { buildApp as buildPaymentTaxApp } from '@csp/payment-tax/app';
import { buildApp as buildLedgerApp } from '../src/app.js';
import { ledgerSteps } from '../src/steps/index.js';
import { REDIS_URL, removeRedisPrefix } from './api-helpers.js';

export interface HttpResult {
  status: number;
  body: any;
}

export interface Platform {
  gatewayUrl: string;
  tdb: TestDatabase;
  pool: pg.Pool;
  db: Db;
  /** BullMQ prefix shared by the run API and the workers. */
  batchPrefix: string;
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, token?: string): Promise<HttpResult>;
  login(loginId: string, password: string): Promise<string>;
  /** Step workers of one service in this process (ledger-settlement's can be left out for a child process). */
  startWorkers(service: StepService): Promise<StepWorkers>;
  stopWorkers(service: StepService): Promise<void>;
  close(): Promise<void>;
}

const STEPS: Record<StepService, readonly StepDefinition[]> = {
  intake: intakeSteps,
  'ledger-settlement': ledgerSteps,
  'payment-tax': paymentTaxSteps,
};

function urlOf(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${address.port}`;
}

export interface PlatformOptions {
  /** Worker services to start right away (default: all three). */
  workers?: StepService[];
  lockDuration?: number;
  stalledInterval?: number;
  /** Also serve intake's HTTP app (receive, mapping, upload) behind the gateway (default: off). */
  withIntake?: boolean;
  /** Also serve payment-tax's HTTP app (payments, transfer files) behind the gateway (default: off). */
  withPaymentTax?: boolean;
}

/**
 * gateway -> auth-platform, master-data, ledger-settlement (and intake's app with `withIntake`, its
 * files in a temporary folder) on random ports, one fresh database, a random Redis key prefix and
 * BullMQ prefix, and the step workers of intake, ledger-settlement and payment-tax in this process.
 */
export async function startPlatform(options: PlatformOptions = {}): Promise<Platform> {
  const tdb = await createTestDatabase();
  tdb.pool.on('error', () => {});
  const tag = randomBytes(5).toString('hex');
  const batchPrefix = `csp-e2e-${tag}`;
  const keyPrefix = `e2e:${tag}:`;
  const level = process.env.TEST_LOG_LEVEL ?? 'silent';
  const closers: Array<() => Promise<unknown>> = [];
  const pools: pg.Pool[] = [];

  const service = async (
    name: string,
    build: (deps: any) => Promise<FastifyInstance>,
    extra: object = {},
    env: Record<string, string> = {},
  ) => {
    const config = loadServiceConfig(
      name,
      {},
      {
        NODE_ENV: 'test',
        DATABASE_URL: tdb.url,
        REDIS_URL,
        JWT_SECRET: TEST_JWT_SECRET,
        ENCRYPT_KEY: TEST_ENCRYPT_KEY,
        LOG_LEVEL: level,
        ...env,
      },
    );
    const pool = createPool({ connectionString: tdb.url, max: 5, applicationName: `e2e-${name}` });
    pool.on('error', () => {});
    pools.push(pool);
    const redis = new Redis(REDIS_URL, { keyPrefix, maxRetriesPerRequest: null });
    const app = await build({ config, db: createDb(pool), pool, redis, ...extra });
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(async () => {
      await app.close();
      redis.disconnect();
    });
    return urlOf(app);
  };

  const authUrl = await service('auth-platform', buildAuthApp as never);
  const masterUrl = await service('master-data', buildMasterDataApp as never);
  const ledgerUrl = await service('ledger-settlement', buildLedgerApp as never, { batchPrefix });
  const unused = 'http://127.0.0.1:9';
  /** An optional service that stores files: its own temporary storage folder, removed on close. */
  const fileService = async (on: boolean | undefined, name: string, build: unknown, dirPrefix: string) => {
    if (!on) return unused;
    const storageDir = await mkdtemp(join(tmpdir(), dirPrefix));
    closers.push(() => rm(storageDir, { recursive: true, force: true }));
    return service(name, build as never, {}, { FILE_STORAGE_DIR: storageDir });
  };
  const intakeUrl = await fileService(options.withIntake, 'intake', buildIntakeApp, 'e2e-intake-files-');
  const paymentTaxUrl = await fileService(options.withPaymentTax, 'payment-tax', buildPaymentTaxApp, 'e2e-payment-files-');
  const gateway = await buildGatewayApp({
    nodeEnv: 'test',
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    trustProxy: false,
    upstreams: {
      'auth-platform': authUrl,
      'master-data': masterUrl,
      intake: intakeUrl,
      'ledger-settlement': ledgerUrl,
      'payment-tax': paymentTaxUrl,
      analytics: unused,
    },
    loginRateLimit: { max: 100, windowMs: 60_000 },
    connectTimeoutMs: 3_000,
    responseTimeoutMs: 120_000,
    connectionsPerUpstream: 64,
    healthTimeoutMs: 1_500,
    openApiCacheMs: 30_000,
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const gatewayUrl = urlOf(gateway);

  const workerPool = createPool({ connectionString: tdb.url, max: 10, applicationName: 'e2e-workers' });
  workerPool.on('error', () => {});
  pools.push(workerPool);
  const workerDb = createDb(workerPool);
  const logger = createLogger({ name: 'e2e-workers', level });
  const running = new Map<StepService, StepWorkers>();

  const platform: Platform = {
    gatewayUrl,
    tdb,
    pool: tdb.pool,
    db: tdb.db,
    batchPrefix,
    async call(method, path, body, token) {
      const res = await fetch(`${gatewayUrl}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text.length > 0 && text.startsWith('{') ? JSON.parse(text) : text };
    },
    async login(loginId, password) {
      const res = await platform.call('POST', '/api/auth/login', { loginId, password });
      if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
      return res.body.data.accessToken as string;
    },
    async startWorkers(svc) {
      const workers = await startStepWorkers({
        connection: REDIS_URL,
        prefix: batchPrefix,
        db: workerDb,
        service: svc,
        steps: STEPS[svc],
        logger,
        handleSignals: false,
        ...(options.lockDuration ? { lockDuration: options.lockDuration } : {}),
        ...(options.stalledInterval ? { stalledInterval: options.stalledInterval } : {}),
      });
      running.set(svc, workers);
      return workers;
    },
    async stopWorkers(svc) {
      await running.get(svc)?.close();
      running.delete(svc);
    },
    async close() {
      await gateway.close().catch(() => {});
      for (const w of running.values()) await w.close().catch(() => {});
      for (const close of closers.reverse()) await close().catch(() => {});
      for (const pool of pools) await pool.end().catch(() => {});
      await removeRedisPrefix(batchPrefix);
      await removeRedisPrefix(keyPrefix.slice(0, -1));
      await tdb.drop();
    },
  };
  for (const svc of options.workers ?? (['intake', 'ledger-settlement', 'payment-tax'] as StepService[])) {
    await platform.startWorkers(svc);
  }
  return platform;
}

export { TEST_ADMIN_PASSWORD };

/** Polls the run status through the gateway until it is COMPLETED or FAILED. */
export async function waitForRun(
  p: Platform,
  token: string,
  runId: number,
  timeoutMs = 120_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await p.call('GET', `/api/batch/settlement/status?jobLogId=${runId}`, undefined, token);
    const status = res.body?.data?.run?.status;
    if (status === 'COMPLETED' || status === 'FAILED') return res.body.data;
    if (Date.now() > deadline)
      throw new Error(
        `run ${runId} still ${status} after ${timeoutMs} ms: ${JSON.stringify(res.body?.data)}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A test's calls through the gateway under a token: `call`, `ok` (expects 200 and returns `data`) and
 * `runMonth` (requests a run and expects it COMPLETED; returns its status). The platform and token are
 * read at each call, as tests start and log in after declaring them.
 */
export function gatewayClient(platform: () => Platform, token: () => string) {
  const call = (method: Method, path: string, body?: unknown, as = token()) => platform().call(method, path, body, as);
  const ok = async (method: Method, path: string, body?: unknown, as = token()): Promise<any> => {
    const res = await call(method, path, body, as);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data;
  };
  const runMonth = async (month: string): Promise<any> => {
    const runId = await ok('POST', `/api/batch/settlement/run?settleMonth=${month}`);
    const status = await waitForRun(platform(), token(), runId);
    expect(status.run.status, JSON.stringify(status.steps.filter((s: any) => s.status !== 'COMPLETED'))).toBe('COMPLETED');
    return status;
  };
  return { call, ok, runMonth };
}
