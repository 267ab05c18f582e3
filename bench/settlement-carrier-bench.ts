/**
 * The settlement month with carrier data: steps 1-3 doing real work on a generated book.
 *   run 0  the month calculated once (no carrier data): the system's figures;
 *   files  the demo generator writes one carrier file per company from those figures
 *          (packages/demo-data/src/carrier-files.ts: XLSX, CP949 CSV, UTF-8 CSV; a known few amounts differ);
 *   upload each file received by intake's upload code (receiveCarrierFile: spool, hash, layout check, COPY);
 *   clear  the month's calculated rows deleted (as the settlement bench does between its runs): what follows is a
 *          month whose carrier files arrive before its first run, the order of a real month;
 *   run 1  the month from scratch with the carrier data: receiveData, transformData (every raw row mapped onto
 *          a new ledger row), reconcile, then calcRecruit/calcMaintain compute each row and mark the reported
 *          ones MATCHED or DIFF;
 *   run 2  the month run again on top of run 1 (a re-run after corrections: every carrier row and computed row
 *          already there; BENCH_RERUN=0 skips it).
 *   floor  one COPY of the month's raw rows into a scratch copy of raw_commission_data plus one
 *          INSERT ... SELECT of as many ledger rows as the month has into a scratch copy of maintain_ledger;
 *          the month from carrier files (uploads + run 1) is printed against it (issue 28: target <= 2.5 x).
 * Checks: every carrier MATCHED in reconcile, the DIFF ledger rows are exactly the manifest's rows.
 *   pnpm exec tsx bench/settlement-carrier-bench.ts            (from the repo root)
 * Env: BENCH_AGENTS (10000), BENCH_CONTRACTS (1000000), BENCH_SEED (bench), BENCH_TODAY (today, UTC),
 *      BENCH_DB (csp_bench_carrier), BENCH_BASE_URL (postgres://postgres@127.0.0.1:5432/postgres),
 *      REDIS_URL (redis://127.0.0.1:6379) with BENCH_REDIS_DB (14), BENCH_KEEP=1 keeps the database,
 *      BENCH_RERUN (1). The step workers read BATCH_CONCURRENCY and the rest of their configuration from the
 *      environment like any worker process.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runFromSource } from './lib/run-from-source.js';
import {
  benchRedisUrl,
  clearMonth,
  clearSettlementQueues,
  printSteps,
  runMonth as runSettlementMonth,
  seconds,
  settlementWorkers,
} from './lib/settlement-workers.js';

await runFromSource(import.meta.url, main);

async function main(): Promise<void> {
  const { createDb, createPool, migrate } = await import('../packages/db/src/index.js');
  const { createQueues } = await import('../packages/batch/src/index.js');
  const { generateDemoBook } = await import('../packages/demo-data/src/generate.js');
  const { writeCarrierFiles } = await import('../packages/demo-data/src/carrier-files.js');
  const { receiveCarrierFile } = await import('../services/intake/src/receive/receive-upload.service.js');
  const { FileStore } = await import('../services/intake/src/common/file-store.js');
  const { spoolToTemp } = await import('../services/intake/src/parsing/spool.js');

  const AGENTS = Number(process.env.BENCH_AGENTS ?? 10_000);
  const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 1_000_000);
  const SEED = process.env.BENCH_SEED ?? 'bench';
  const TODAY = process.env.BENCH_TODAY ?? new Date().toISOString().slice(0, 10);
  const DB_NAME = process.env.BENCH_DB ?? 'csp_bench_carrier';
  const BASE_URL = process.env.BENCH_BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const REDIS_URL = benchRedisUrl('14');
  const KEEP = process.env.BENCH_KEEP === '1';
  if (!/^[a-z0-9_]+$/.test(DB_NAME)) throw new Error(`unexpected database name ${DB_NAME}`);

  const log = (msg: string) => console.log(`[bench] ${msg}`);
  const dbUrl = (name: string) => {
    const url = new URL(BASE_URL);
    url.pathname = `/${name}`;
    return url.toString();
  };

  const admin = createPool({ connectionString: BASE_URL, max: 1 });
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const url = dbUrl(DB_NAME);
  const pool = createPool({ connectionString: url, max: 4, applicationName: 'settlement-carrier-bench' });
  const db = createDb(pool);
  await migrate(pool);
  const book = await generateDemoBook(pool, {
    agents: AGENTS,
    contracts: CONTRACTS,
    seed: SEED,
    today: TODAY,
  });
  const month = book.lastClosedMonth;
  log(
    `demo book: ${book.agents} agents, ${book.contracts} contracts, ${book.companies} companies (${seconds(book.timings.totalMs)}); month ${month}`,
  );

  const workers = settlementWorkers({ databaseUrl: url, redisUrl: REDIS_URL });

  const queues = createQueues(REDIS_URL);
  await clearSettlementQueues(queues);
  const storage = await mkdtemp(join(tmpdir(), 'csp-bench-carrier-'));
  try {
    for (const service of ['intake', 'ledger-settlement', 'payment-tax']) await workers.start(service);

    /** The month run to its end, its step table and the time of steps 1-3. */
    const runMonth = async (label: string) => {
      const { status, wallMs } = await runSettlementMonth(db, queues, month, label);
      printSteps(status, 'counts');
      const first3 = status.steps
        .filter((s) => ['receiveData', 'transformData', 'reconcile'].includes(s.stepName))
        .reduce((sum, s) => sum + Number(s.durationMs ?? 0), 0);
      log(`${label}: whole run ${seconds(Number(status.run.durationMs ?? wallMs))}, steps 1-3 ${seconds(first3)}`);
      return status;
    };

    log('run 0: the month without carrier data (the system figures the carrier files report)');
    await runMonth('run 0');

    const outDir = join(storage, 'carrier-files');
    let started = performance.now();
    const files = await writeCarrierFiles(pool, { outDir, settleMonth: month, log: (m) => log(`  ${m}`) });
    const records = files.files.reduce((n, f) => n + f.rows, 0);
    log(
      `carrier files: ${files.files.length} files, ${records} records written in ${seconds(performance.now() - started)}`,
    );

    started = performance.now();
    await clearMonth(pool, month);
    log(`month ${month} cleared (calculated rows deleted, tables vacuumed and analyzed) in ${seconds(performance.now() - started)}`);

    const store = new FileStore(join(storage, 'files'));
    started = performance.now();
    const uploadsStarted = started;
    for (const f of files.files) {
      const t = performance.now();
      const spooled = await spoolToTemp(createReadStream(f.path), basename(f.path));
      const result = await receiveCarrierFile(db, store, {
        companyCode: f.companyCode,
        settleMonth: month,
        dataType: undefined,
        replace: false,
        file: spooled,
        userId: null,
      });
      log(
        `  upload ${f.fileName}: ${result.rowCount} rows (${result.fileKind}) in ${seconds(performance.now() - t)}`,
      );
    }
    const uploadsMs = performance.now() - uploadsStarted;
    log(`uploads: ${records} records in ${seconds(uploadsMs)}`);

    log('run 1: the month from scratch with the carrier data (steps 1-3 real, then the ledger rows reconciled)');
    const run1Started = performance.now();
    const run1 = await runMonth('run 1');
    const run1Ms = Number(run1.run.durationMs ?? performance.now() - run1Started);

    const { rows: recon } = await pool.query<{
      company_code: string;
      recon_status: string;
      expected_count: number;
      diff_amount: string;
    }>(
      'SELECT company_code, recon_status, expected_count, diff_amount::text FROM reconciliation WHERE settle_month = $1 ORDER BY company_code',
      [month],
    );
    log(
      `reconcile: ${recon.map((r) => `${r.company_code} ${r.recon_status} (${r.expected_count} rows, diff ${r.diff_amount})`).join(', ')}`,
    );
    const { rows: statuses } = await pool.query<{ reconcile_status: string; n: string }>(
      `SELECT reconcile_status, count(*) AS n FROM (
         SELECT reconcile_status FROM recruit_ledger WHERE settle_month = $1
         UNION ALL SELECT reconcile_status FROM maintain_ledger WHERE settle_month = $1) l
       GROUP BY 1 ORDER BY 1`,
      [month],
    );
    log(`ledger rows: ${statuses.map((s) => `${s.reconcile_status} ${s.n}`).join(', ')}`);
    const { rows: diffRows } = await pool.query<{
      policy_no: string;
      commission_year: number;
      reconcile_diff: string;
    }>(
      `SELECT policy_no, commission_year, reconcile_diff::text FROM (
         SELECT policy_no, commission_year, reconcile_diff FROM recruit_ledger WHERE settle_month = $1 AND reconcile_status = 'DIFF'
         UNION ALL SELECT policy_no, commission_year, reconcile_diff FROM maintain_ledger WHERE settle_month = $1 AND reconcile_status = 'DIFF') l
       ORDER BY 1, 2`,
      [month],
    );
    const expected = files.files
      .flatMap((f) => f.diffs.map((d) => `${d.policyNo}/${d.commissionYear}/${d.delta}`))
      .sort();
    const found = diffRows.map((d) => `${d.policy_no}/${d.commission_year}/${d.reconcile_diff}`).sort();
    const same = JSON.stringify(expected) === JSON.stringify(found);
    log(
      `DIFF rows ${found.length}, the manifest lists ${expected.length}: ${same ? 'exactly those rows and deltas' : 'MISMATCH'}`,
    );
    if (!same) log(`  expected ${expected.join(' ')}\n  found    ${found.join(' ')}`);
    if (recon.some((r) => r.recon_status !== 'MATCHED'))
      log('reconcile: a carrier is not MATCHED (unexpected)');

    // ---- floor: COPY of the raw rows + INSERT ... SELECT of the ledger rows ----------------------
    const { copyRows } = await import('../packages/db/src/index.js');
    const { rows: rawRows } = await pool.query<{ company_code: string; settle_month: string; data_type: string; raw_content: string }>(
      'SELECT company_code, settle_month, data_type, raw_content FROM raw_commission_data WHERE settle_month = $1',
      [month],
    );
    const { rows: counts } = await pool.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM recruit_ledger WHERE settle_month = $1) + (SELECT count(*) FROM maintain_ledger WHERE settle_month = $1) AS n`,
      [month],
    );
    const ledgerRows = Number(counts[0]!.n);
    await pool.query('DROP TABLE IF EXISTS bench_floor_raw');
    await pool.query('CREATE TABLE bench_floor_raw (LIKE raw_commission_data INCLUDING ALL)');
    await pool.query('DROP TABLE IF EXISTS bench_floor_ledger');
    await pool.query('CREATE TABLE bench_floor_ledger (LIKE maintain_ledger INCLUDING ALL)');
    const { rows: fks } = await pool.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = 'maintain_ledger'::regclass AND contype = 'f' ORDER BY conname`,
    );
    for (const fk of fks) await pool.query(`ALTER TABLE bench_floor_ledger ADD ${fk.def}`);
    const copyClient = await pool.connect();
    let copyMs: number;
    try {
      const t = performance.now();
      await copyRows(
        copyClient,
        'bench_floor_raw',
        ['company_code', 'settle_month', 'data_type', 'raw_content'],
        rawRows.map((r) => [r.company_code, r.settle_month, r.data_type, r.raw_content]),
      );
      copyMs = performance.now() - t;
    } finally {
      copyClient.release();
    }
    const insertStarted = performance.now();
    await pool.query(
      `INSERT INTO bench_floor_ledger (contract_id, agent_id, policy_no, company_code, product_code, insurance_type, commission_year,
         premium, pay_method, company_rate, company_amount, payout_rate, agent_amount, tax_amount, settle_month, calc_basis)
       SELECT c.contract_id, c.agent_id, c.policy_no, ic.company_code, p.product_code, p.insurance_type, 2, c.premium, c.pay_cycle,
              10, round(c.premium * 10 / 100, 2), 50, round(round(c.premium * 10 / 100, 2) * 50 / 100, 2),
              round(round(round(c.premium * 10 / 100, 2) * 50 / 100, 2) * 3.3 / 100, 2), $1,
              jsonb_build_object('step', 'calcMaintain', 'rateDate', c.contract_date, 'commissionYear', 2, 'premium', c.premium,
                                 'companyRate', jsonb_build_object('ratePct', '10'), 'payoutRule', jsonb_build_object('payoutPct', '50'))
         FROM contract c JOIN product p ON p.product_id = c.product_id JOIN insurance_company ic ON ic.company_id = p.company_id
        ORDER BY c.contract_id
        LIMIT $2`,
      [month, ledgerRows],
    );
    const insertMs = performance.now() - insertStarted;
    await pool.query('DROP TABLE bench_floor_raw');
    await pool.query('DROP TABLE bench_floor_ledger');
    const floorMs = copyMs + insertMs;
    const monthMs = uploadsMs + run1Ms;
    log(
      `floor: COPY of ${rawRows.length} raw rows ${seconds(copyMs)} + INSERT ... SELECT of ${ledgerRows} ledger rows ${seconds(insertMs)} = ${seconds(floorMs)}`,
    );
    log(
      `month from carrier files: uploads ${seconds(uploadsMs)} + run 1 ${seconds(run1Ms)} = ${seconds(monthMs)}; ` +
        `ratio to the floor ${(monthMs / floorMs).toFixed(2)} (target <= 2.5) ${monthMs / floorMs <= 2.5 ? 'OK' : 'MISSED'}`,
    );

    if (process.env.BENCH_RERUN !== '0') {
      log('run 2: the month run again on top of run 1 (every ledger row already there)');
      const run2 = await runMonth('run 2');
      const run2Ms = Number(run2.run.durationMs ?? 0);
      log(`re-run with the carrier data: run 2 ${seconds(run2Ms)}; ratio of uploads + run 2 to the floor ${((uploadsMs + run2Ms) / floorMs).toFixed(2)}`);
    }
  } finally {
    await workers.stopAll();
    await queues.close();
    await rm(storage, { recursive: true, force: true });
    await pool.end();
    if (!KEEP) await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.end();
  }
}
