/**
 * List latency on the big book, through the gateway: for every list resource of every service
 * (discovered from GET /api/meta/resources) the first page, a deep page and a search, each timed
 * BENCH_ROUNDS times; prints p50/p95 per list and the targets (first page < 150 ms p95, search <
 * 300 ms p95).
 *   1. BENCH_QUICK=1 BENCH_KEEP=1 pnpm exec tsx bench/settlement-bench.ts   (book + one settled month)
 *   2. pnpm exec tsx bench/list-bench.ts
 * Env: BENCH_DB (csp_bench_settlement), BENCH_BASE_URL (postgres://postgres@127.0.0.1:5432/postgres),
 *      REDIS_URL, BENCH_ROUNDS (15), BENCH_DEEP_PAGE (500), BENCH_ONLY (substring of the paths to run).
 * Without a settled month the ledger lists are measured on empty months (said so in the output).
 * With several settled months (bench/history-bench.ts with BENCH_KEEP=1, BENCH_DB=csp_bench_history) every list
 * with a month filter is measured for the latest and for the first month (issue 27: page 500 p95 < 300 ms too).
 */
import type { AddressInfo } from 'node:net';
import { runFromSource } from './lib/run-from-source.js';

await runFromSource(import.meta.url, main);

interface Meta {
  path: string;
  name: string;
  service: string;
  searchTypes: string[];
  fields: Array<{ key: string; kind: string; filter?: string }>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const { createDb, createPool, ensureAdminUser, migrate } = await import('../packages/db/src/index.js');
  const { loadServiceConfig, signAccessToken, createLogger } = await import('../packages/service-kit/src/index.js');
  // ioredis is a dependency of the services, not of the root package.
  const { createRequire } = await import('node:module');
  const { Redis } = createRequire(new URL('../services/auth-platform/package.json', import.meta.url))('ioredis') as typeof import('ioredis');
  const { buildGatewayApp } = await import('../services/gateway/src/app.js');

  const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_settlement';
  const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
  const DEEP = Number(process.env.BENCH_DEEP_PAGE ?? 500);
  const ONLY = process.env.BENCH_ONLY;
  const url = new URL(BASE_URL);
  url.pathname = `/${DB_NAME}`;
  const dbUrl = url.toString();

  const pool = createPool({ connectionString: dbUrl, max: 4, applicationName: 'list-bench' });
  await migrate(pool);
  const counts = await pool.query<{ contracts: string; agents: string; month: string | null; firstMonth: string | null }>(
    `select (select count(*) from contract) as contracts, (select count(*) from agent) as agents,
            (select max(settle_month) from settle_master) as month, (select min(settle_month) from settle_master) as "firstMonth"`,
  );
  const { contracts, agents, month, firstMonth } = counts.rows[0]!;
  console.log(
    `[bench] book: ${contracts} contracts, ${agents} agents, settled month ${month ?? '(none)'}` +
      (firstMonth && firstMonth !== month ? ` (first settled month ${firstMonth}, measured too)` : ''),
  );
  await ensureAdminUser(createDb(pool), { password: `bench-${Date.now()}` });
  await pool.query('ANALYZE');

  const services: Record<string, string> = {};
  const closers: Array<() => Promise<unknown>> = [];
  const builders: Array<[string, string]> = [
    ['auth-platform', '../services/auth-platform/src/app.js'],
    ['master-data', '../services/master-data/src/app.js'],
    ['intake', '../services/intake/src/app.js'],
    ['ledger-settlement', '../services/ledger-settlement/src/app.js'],
    ['payment-tax', '../services/payment-tax/src/app.js'],
    ['analytics', '../services/analytics/src/app.js'],
  ];
  let signer: any;
  for (const [name, module] of builders) {
    let build: (deps: unknown) => Promise<any>;
    try {
      build = (await import(module)).buildApp;
    } catch (err) {
      console.log(`[bench] ${name}: not loaded (${(err as Error).message.split('\n')[0]})`);
      continue;
    }
    const config = loadServiceConfig(name, {}, { NODE_ENV: 'test', DATABASE_URL: dbUrl, REDIS_URL, LOG_LEVEL: 'warn' });
    const svcPool = createPool({ connectionString: dbUrl, max: 8, applicationName: `bench-${name}` });
    const redis = new Redis(REDIS_URL, { keyPrefix: `bench-lists:`, maxRetriesPerRequest: null });
    const app = await build({ config, db: createDb(svcPool), pool: svcPool, redis, logger: createLogger({ name, level: 'warn' }), batchPrefix: 'bench-lists' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    services[name] = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    signer ??= app;
    closers.push(async () => {
      await app.close();
      redis.disconnect();
    });
  }
  const unused = 'http://127.0.0.1:9';
  const gateway = await buildGatewayApp({
    nodeEnv: 'test',
    host: '127.0.0.1',
    port: 0,
    logLevel: 'warn',
    trustProxy: false,
    upstreams: {
      'auth-platform': services['auth-platform'] ?? unused,
      'master-data': services['master-data'] ?? unused,
      intake: services.intake ?? unused,
      'ledger-settlement': services['ledger-settlement'] ?? unused,
      'payment-tax': services['payment-tax'] ?? unused,
      analytics: services.analytics ?? unused,
    },
    loginRateLimit: { max: 100, windowMs: 60_000 },
    connectTimeoutMs: 3_000,
    responseTimeoutMs: 120_000,
    connectionsPerUpstream: 16,
    healthTimeoutMs: 3_000,
    openApiCacheMs: 30_000,
  } as never);
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;

  const admin = await pool.query<{ user_id: string; login_id: string; user_name: string }>(
    `select u.user_id, u.login_id, u.user_name from users u join user_role ur on ur.user_id = u.user_id
       join role r on r.role_id = ur.role_id where r.role_code = 'SUPER_ADMIN' and u.status = 'ACTIVE' order by u.user_id limit 1`,
  );
  const a = admin.rows[0];
  if (!a) throw new Error('no active SUPER_ADMIN user in the bench database');
  const token = signAccessToken(signer, { userId: Number(a.user_id), loginId: a.login_id, userName: a.user_name, roleCodes: ['SUPER_ADMIN'], agentId: null });
  const get = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { success: boolean; code: string; data?: { total?: number; totalEstimated?: boolean } };
    return { ms: performance.now() - started, status: res.status, body };
  };

  const metaRes = await get('/api/meta/resources');
  const metas = ((metaRes.body.data as unknown as { resources: Meta[] })?.resources ?? []).filter((m) => !ONLY || m.path.includes(ONLY));
  console.log(`[bench] ${metas.length} list resources${ONLY ? ` matching ${ONLY}` : ''}`);

  const hasMonthFilter = (m: Meta) => m.fields.some((f) => f.key === 'settleMonth' && f.filter);
  const monthFilter = (m: Meta, which = month) => (which && hasMonthFilter(m) ? `&settleMonth=${which}` : '');
  const time = async (path: string) => {
    const first = await get(path); // warm-up, and the answer we report
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) times.push((await get(path)).ms);
    times.sort((x, y) => x - y);
    return { p50: percentile(times, 50), p95: percentile(times, 95), status: first.status, code: first.body.code, total: first.body.data?.total, est: first.body.data?.totalEstimated };
  };
  const rows: string[] = [];
  const fmt = (r: Awaited<ReturnType<typeof time>>) =>
    r.status === 200 ? `${r.p50.toFixed(0)} / ${r.p95.toFixed(0)}` : `HTTP ${r.status} ${r.code}`;
  let worstFirst = 0;
  let worstSearch = 0;
  let worstDeep = 0;
  for (const m of metas) {
    if (firstMonth && firstMonth !== month && hasMonthFilter(m)) {
      const filter = monthFilter(m, firstMonth);
      const first = await time(`${m.path}?pageSize=20${filter}`);
      const deep = await time(`${m.path}?pageSize=20&pageNum=${DEEP}${filter}`);
      if (first.status === 200) worstFirst = Math.max(worstFirst, first.p95);
      if (deep.status === 200) worstDeep = Math.max(worstDeep, deep.p95);
      const total = first.total === undefined ? '' : `${first.total}${first.est ? ' (est.)' : ''}`;
      rows.push(`| ${m.service} | ${m.path} (${filter.slice(1)}, first month) | ${total} | ${fmt(first)} | ${fmt(deep)} | - |`);
    }
    const filter = monthFilter(m);
    const first = await time(`${m.path}?pageSize=20${filter}`);
    const deep = await time(`${m.path}?pageSize=20&pageNum=${DEEP}${filter}`);
    const search = m.searchTypes.length ? await time(`${m.path}?pageSize=20&searchKeyword=1234${filter}`) : undefined;
    if (first.status === 200) worstFirst = Math.max(worstFirst, first.p95);
    if (deep.status === 200) worstDeep = Math.max(worstDeep, deep.p95);
    if (search?.status === 200) worstSearch = Math.max(worstSearch, search.p95);
    const total = first.total === undefined ? '' : `${first.total}${first.est ? ' (est.)' : ''}`;
    rows.push(`| ${m.service} | ${m.path}${filter ? ` (${filter.slice(1)})` : ''} | ${total} | ${fmt(first)} | ${fmt(deep)} | ${search ? fmt(search) : '-'} |`);
  }
  console.log('\n| service | list | total | first page p50 / p95 ms | page ' + DEEP + ' p50 / p95 ms | search p50 / p95 ms |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log(
    `\n[bench] worst first page p95 ${worstFirst.toFixed(0)} ms (target < 150), worst page ${DEEP} p95 ${worstDeep.toFixed(0)} ms (target < 300), ` +
      `worst search p95 ${worstSearch.toFixed(0)} ms (target < 300)`,
  );

  await gateway.close();
  for (const close of closers) await close();
  await pool.end();
  process.exit(0);
}
