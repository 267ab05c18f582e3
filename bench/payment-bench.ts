/**
 * Paying a month on a 10,000-agent book through the payment-tax API (in-process app, app.inject, real
 * PostgreSQL and Redis):
 *   confirm all -> generate payments -> calculate taxes -> apply deductions -> transfer file (FIXED)
 *   -> generate-for-month statements (background run, polled; RSS sampled for the memory profile).
 *   pnpm exec tsx bench/payment-bench.ts            (from the repo root)
 * The book is synthetic and built in SQL: BENCH_AGENTS agents (accounts encrypted with the app's key),
 * BENCH_LINES recruit/maintain ledger rows per agent (the lines of each statement), one settle row per
 * agent (about 2 % with a negative gross, carried forward), a PENDING deduction for every tenth agent.
 * "confirm all" is ledger-settlement's month-wide confirm (`POST /api/settle/confirm-month`, in-process app): one
 * transaction of set-based statements over the month's settle and ledger rows.
 * Env: BENCH_AGENTS (10000), BENCH_LINES (65), BENCH_MONTH (202503), BENCH_DB (csp_bench_payment),
 *      BENCH_BASE_URL (postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL (redis://127.0.0.1:6379),
 *      BENCH_KEEP=1 keeps the database.
 * Targets: each of the first five steps < 5 s; 10,000 statements < 60 s with flat memory.
 */
import { runFromSource } from './lib/run-from-source.js';

// --expose-gc: the memory profile samples the heap after a collection, so growth means retained memory.
await runFromSource(import.meta.url, main, { nodeArgs: ['--expose-gc'] });

async function main(): Promise<void> {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { loadavg, tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { createRequire } = await import('node:module');
  const { pathToFileURL } = await import('node:url');
  // ioredis is a dependency of the services, not of the repository root.
  const serviceRequire = createRequire(new URL('../services/payment-tax/package.json', import.meta.url));
  const { Redis } = (await import(pathToFileURL(serviceRequire.resolve('ioredis')).href)) as typeof import('ioredis');
  const { createDb, createPool, migrate, ensureAdminUser } = await import('../packages/db/src/index.js');
  const { loadServiceConfig, signAccessToken, createFieldCipher } = await import('../packages/service-kit/src/index.js');
  const { buildApp } = await import('../services/payment-tax/src/app.js');
  const { buildApp: buildLedgerApp } = await import('../services/ledger-settlement/src/app.js');

  const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
  const LINES = Number(process.env.BENCH_LINES ?? 65);
  const MONTH = process.env.BENCH_MONTH ?? '202503';
  const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_payment';
  const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const KEEP = process.env.BENCH_KEEP === '1';
  const ENCRYPT_KEY = 'bench-encrypt-key-0123456789abcd';
  const JWT_SECRET = 'bench-jwt-secret-0123456789-0123456789-0123456789';
  if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`);

  const log = (msg: string) => console.log(`[bench] ${msg}`);
  const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
  const dbUrl = new URL(BASE_URL);
  dbUrl.pathname = `/${DB_NAME}`;

  // ---- database and book -------------------------------------------------------------------
  const admin = createPool({ connectionString: BASE_URL, max: 1 });
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const pool = createPool({ connectionString: dbUrl.toString(), max: 8, applicationName: 'payment-bench' });
  const db = createDb(pool);
  await migrate(pool);
  await ensureAdminUser(db, { password: 'bench-admin-password' });

  const cipher = createFieldCipher(ENCRYPT_KEY);
  let t = Date.now();
  const { rows: orgRows } = await pool.query<{ org_id: number }>(`INSERT INTO organization (org_name, org_type) VALUES ('Bench', 'BR') RETURNING org_id`);
  const accounts = Array.from({ length: AGENTS }, (_, i) => cipher.encrypt(`110-${String(i).padStart(3, '0').slice(-3)}-${String(100000 + i)}`));
  await pool.query(
    `INSERT INTO agent (org_id, grade_id, agent_name, tax_type, vat_type, bank_code, account_no)
     SELECT $1, 1, 'Agent ' || i,
            CASE WHEN i % 20 < 3 THEN 'OTHER_INCOME' ELSE 'BUSINESS_INCOME' END,
            CASE WHEN i % 20 < 3 THEN 'EXEMPT' WHEN i % 20 < 6 THEN 'TAXABLE' ELSE 'NONE' END,
            '004', acc
     FROM unnest($2::text[]) WITH ORDINALITY AS a(acc, i)`,
    [orgRows[0]!.org_id, accounts],
  );
  const recruitPerAgent = Math.max(1, Math.round(LINES / 13));
  const maintainPerAgent = Math.max(0, LINES - recruitPerAgent);
  for (const [table, perAgent, year] of [
    ['recruit_ledger', recruitPerAgent, '1'],
    ['maintain_ledger', maintainPerAgent, '2 + (n % 4)'],
  ] as const) {
    await pool.query(
      `INSERT INTO ${table} (contract_id, agent_id, policy_no, product_code, company_code, commission_year, premium,
                             company_rate, company_amount, payout_rate, agent_amount, settle_month, status)
       SELECT a.agent_id * 1000 + n, a.agent_id, 'P-' || a.agent_id || '-' || n, 'PR-' || (n % 7), 'L001', ${year},
              100000 + (n * 3701 % 900000), 10, round((100000 + (n * 3701 % 900000)) * 0.1, 2), 60,
              round((100000 + (n * 3701 % 900000)) * 0.06 + a.agent_id % 100 / 100.0, 2), $1, 'CALCULATED'
       FROM agent a CROSS JOIN generate_series(1, $2::int) AS n`,
      [MONTH, perAgent],
    );
  }
  await pool.query(
    `INSERT INTO settle_master (agent_id, settle_month, recruit_total, maintain_total, chargeback_total, gross_amount, tax_amount, net_amount, status)
     SELECT a.agent_id, $1, r.s, m.s, cb.s, r.s + m.s - cb.s, 0, r.s + m.s - cb.s, 'CALCULATED'
     FROM agent a
     CROSS JOIN LATERAL (SELECT coalesce(sum(agent_amount), 0) AS s FROM recruit_ledger WHERE agent_id = a.agent_id AND settle_month = $1) r
     CROSS JOIN LATERAL (SELECT coalesce(sum(agent_amount), 0) AS s FROM maintain_ledger WHERE agent_id = a.agent_id AND settle_month = $1) m
     CROSS JOIN LATERAL (SELECT CASE WHEN a.agent_id % 50 = 0 THEN r.s + m.s + 12345.67 ELSE 0 END AS s) cb`,
    [MONTH],
  );
  await pool.query(
    `INSERT INTO agent_deduction (agent_id, settle_month, deduction_type, amount, description)
     SELECT agent_id, $1, 'LOAN', 10000 + agent_id % 1000, 'bench loan' FROM agent WHERE agent_id % 10 = 0`,
    [MONTH],
  );
  // The batch writes the ledger days before anyone confirms the month; autovacuum has visited the new rows by
  // then (hint bits, visibility map). Without this the confirm would also pay for that first visit.
  await pool.query('VACUUM ANALYZE');
  const ledgerRows = Number((await pool.query(`SELECT (SELECT count(*) FROM recruit_ledger) + (SELECT count(*) FROM maintain_ledger) AS n`)).rows[0].n);
  log(`book: ${AGENTS} agents, ${ledgerRows} ledger rows in ${MONTH}, built in ${((Date.now() - t) / 1000).toFixed(1)} s`);

  // ---- app ---------------------------------------------------------------------------------
  const filesDir = await mkdtemp(join(tmpdir(), 'payment-bench-'));
  const config = loadServiceConfig('payment-tax', {}, {
    NODE_ENV: 'test',
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL,
    JWT_SECRET,
    ENCRYPT_KEY,
    LOG_LEVEL: 'warn',
    FILE_STORAGE_DIR: filesDir,
  });
  const redis = new Redis(REDIS_URL, { keyPrefix: `bench-payment:${process.pid}:` });
  const app = await buildApp({ config, db, pool, redis });
  await app.ready();
  const ledgerConfig = loadServiceConfig('ledger-settlement', {}, {
    NODE_ENV: 'test',
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL,
    JWT_SECRET,
    ENCRYPT_KEY,
    LOG_LEVEL: 'warn',
  });
  const ledgerApp = await buildLedgerApp({ config: ledgerConfig, db, pool, redis, batchPrefix: `bench-payment-${process.pid}` });
  await ledgerApp.ready();
  const user = (await pool.query(`SELECT user_id, login_id, user_name FROM users WHERE login_id = 'admin'`)).rows[0];
  const token = await signAccessToken(app, { userId: user.user_id, loginId: user.login_id, userName: user.user_name, roleCodes: ['SUPER_ADMIN'], agentId: null });
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, target = app) => {
    const res = await target.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
    const body = res.json();
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${JSON.stringify(body)}`);
    return body;
  };

  // The machine is shared: the 1-minute load average before and after each step says how busy it was.
  const load = () => loadavg()[0]!.toFixed(2);
  const results: Array<[string, number, string, string]> = [];
  const timed = async (name: string, work: () => Promise<string>) => {
    const loadBefore = load();
    const start = Date.now();
    const detail = await work();
    const ms = Date.now() - start;
    const loads = `${loadBefore} -> ${load()}`;
    results.push([name, ms, detail, loads]);
    log(`${name}: ${(ms / 1000).toFixed(2)} s  ${detail}  (load ${loads})`);
  };

  // ---- the month ---------------------------------------------------------------------------
  await timed('confirm all', async () => {
    const body = await call('POST', '/api/settle/confirm-month', { settleMonth: MONTH }, ledgerApp);
    const d = body.data;
    return `${d.confirmed} settle rows confirmed, ledger rows ${JSON.stringify(d.ledgerRows)}`;
  });
  await timed('generate payments', async () => {
    const body = await call('POST', `/api/payments/generate?settleMonth=${MONTH}`);
    return body.message;
  });
  await timed('calculate taxes', async () => {
    const body = await call('POST', `/api/payments/calculate-taxes?settleMonth=${MONTH}`);
    return `${body.data.calculated} payments`;
  });
  await timed('apply deductions', async () => {
    const body = await call('POST', `/api/payments/apply-deductions?settleMonth=${MONTH}`);
    return `${body.data.deductions} deductions on ${body.data.payments} payments, ${body.data.deductionSum}`;
  });
  await timed('transfer file (FIXED)', async () => {
    const body = await call('POST', '/api/payments/transfer-file', { settleMonth: MONTH, bankFormat: 'FIXED', transferDate: '2025-04-10' });
    return `${body.data.count} lines, total ${body.data.totalAmount}`;
  });

  const rss: Array<[number, number]> = [];
  const heap: Array<[number, number]> = [];
  const gc = (globalThis as { gc?: () => void }).gc;
  const heapNow = () => {
    gc?.();
    return process.memoryUsage().heapUsed;
  };
  await timed('generate-for-month statements', async () => {
    const rssStart = process.memoryUsage().rss;
    const heapStart = heapNow();
    const started = await call('POST', '/api/statements/generate-for-month', { settleMonth: MONTH });
    let run: any;
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      run = (await call('GET', `/api/statements/generate-for-month/${started.data.runId}`)).data;
      rss.push([run.doneCount, process.memoryUsage().rss]);
      if (rss.length % 8 === 0) heap.push([run.doneCount, heapNow()]);
      if (run.status !== 'RUNNING') break;
    }
    const peak = Math.max(...rss.map(([, r]) => r));
    const at = (series: Array<[number, number]>, q: number) => series.find(([done]) => done >= (run.totalCount * q) / 4)?.[1] ?? series.at(-1)?.[1] ?? 0;
    return (
      `${run.status}: ${run.doneCount}/${run.totalCount} statements, ${run.errorCount} errors; RSS start ${mb(rssStart)}, ` +
      `at 25/50/75/100 %: ${[1, 2, 3, 4].map((q) => mb(at(rss, q))).join(' / ')}, peak ${mb(peak)}; heap after GC start ` +
      `${mb(heapStart)}, at 25/50/75/100 %: ${[1, 2, 3, 4].map((q) => mb(at(heap, q))).join(' / ')}, end ${mb(heapNow())}`
    );
  });

  const files = Number((await pool.query(`SELECT count(*) AS n, sum(file_size) AS bytes FROM file_storage WHERE group_id LIKE 'STATEMENT-%'`)).rows[0].n);
  log(`statement files: ${files}`);
  console.log('\n| step | seconds | load avg (1 min) before -> after | detail |\n|---|---|---|---|');
  for (const [name, ms, detail, loads] of results) console.log(`| ${name} | ${(ms / 1000).toFixed(2)} | ${loads} | ${detail} |`);

  await app.close();
  await ledgerApp.close();
  // the settlement queues the ledger app created under its own BullMQ prefix
  redis.disconnect();
  const plain = new Redis(REDIS_URL);
  const stray = await plain.keys(`bench-payment-${process.pid}:*`);
  if (stray.length > 0) await plain.del(...stray);
  plain.disconnect();
  await pool.end().catch(() => undefined);
  await rm(filesDir, { recursive: true, force: true });
  if (!KEEP) await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.end();
}
