/**
 * What the settlement benches share: the step worker processes (each service's src/worker.ts), one
 * settlement month run to its end, and the step table. The batch package is loaded by dynamic import
 * (see run-from-source.ts), so a bench may import this module statically.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { BatchQueues, RunStatus, launchRun } from '../../packages/batch/src/index.js';
import { ROOT, SOURCE_NODE_ARGS } from './run-from-source.js';

type BatchDb = Parameters<typeof launchRun>[0];

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** REDIS_URL with the bench's own Redis database (BENCH_REDIS_DB, else `defaultDb`) in place of its own. */
export function benchRedisUrl(defaultDb: string): string {
  const base = (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d*$/, '');
  return `${base}/${process.env.BENCH_REDIS_DB ?? defaultDb}`;
}

/**
 * Deletes a month's calculated rows (ledgers, settle rows, override and other-commission rows, chargebacks,
 * unposted accounting entries) and vacuums and analyzes those tables: the next run computes the month from
 * scratch, as its first run does, on analyzed tables. Carrier raw rows and their files stay.
 */
export async function clearMonth(pool: { query(text: string, values?: unknown[]): Promise<unknown> }, month: string): Promise<void> {
  for (const table of [
    'override_settle',
    'settle_master',
    'commission_master',
    'other_commission_ledger',
    'chargeback',
    'maintain_ledger',
    'recruit_ledger',
  ]) {
    await pool.query(`DELETE FROM ${table} WHERE settle_month = $1`, [month]);
  }
  await pool.query('DELETE FROM contract_accounting_entry WHERE settle_month = $1 AND journal_no IS NULL', [month]);
  await pool.query(
    'VACUUM ANALYZE maintain_ledger, recruit_ledger, settle_master, override_settle, chargeback, contract_accounting_entry, other_commission_ledger, commission_master',
  );
}

/** Removes every key of the settlement queues (the bench's Redis database, BullMQ's default prefix). */
export async function clearSettlementQueues(queues: BatchQueues): Promise<void> {
  const { STEP_NAMES } = await import('../../packages/batch/src/index.js');
  for (const step of STEP_NAMES) await queues.queue(step).obliterate({ force: true });
}

export interface SettlementWorker {
  /** The service, with the steps it was limited to: `ledger-settlement[calcMaintain]`. */
  name: string;
  child: ChildProcess;
}

/** Step worker processes on one database and Redis; `nodeArgs` go to every process started. */
export function settlementWorkers(options: { databaseUrl: string; redisUrl: string; nodeArgs?: string[] }) {
  const started: SettlementWorker[] = [];

  /** Starts `services/<service>/src/worker.ts` and resolves once its step workers listen. */
  async function start(service: string, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
    const child = spawn(
      process.execPath,
      [...(options.nodeArgs ?? []), ...SOURCE_NODE_ARGS, `services/${service}/src/worker.ts`],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'development',
          LOG_LEVEL: 'info',
          DATABASE_URL: options.databaseUrl,
          REDIS_URL: options.redisUrl,
          ...extraEnv,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    started.push({ name: extraEnv.BATCH_STEPS ? `${service}[${extraEnv.BATCH_STEPS}]` : service, child });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('batch step workers started')) resolve();
        if (out.length > 100_000) out = out.slice(-10_000);
      });
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      child.once('exit', (code) => reject(new Error(`${service} worker exited (${code}): ${out.slice(-2000)}`)));
    });
    return child;
  }

  /** SIGTERM to every worker still running; resolves when all have exited. */
  async function stopAll(): Promise<void> {
    await Promise.all(
      started.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
  }

  return { started, start, stopAll };
}

/** Launches the month's run and polls it every 250 ms until COMPLETED (returned) or FAILED (thrown). */
export async function runMonth(
  db: BatchDb,
  queues: BatchQueues,
  settleMonth: string,
  label: string,
): Promise<{ status: RunStatus; wallMs: number }> {
  const { getRunStatus, launchRun } = await import('../../packages/batch/src/index.js');
  const run = await launchRun(db, queues, { settleMonth });
  const started = Date.now();
  for (;;) {
    const status = await getRunStatus(db, run.jobLogId);
    if (status && (status.run.status === 'COMPLETED' || status.run.status === 'FAILED')) {
      if (status.run.status === 'FAILED') throw new Error(`${label}: run FAILED: ${status.run.errorMessage}`);
      return { status, wallMs: Date.now() - started };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * One line per step: its status and duration, then either `rates` (rows written, rows/s, chunks)
 * or `counts` (total, success, error records).
 */
export function printSteps(status: RunStatus, columns: 'rates' | 'counts'): void {
  console.log(
    '  step                      status     duration' +
      (columns === 'rates' ? '      rows written    rows/s   chunks' : '      total    success   error'),
  );
  for (const s of status.steps) {
    const ms = Number(s.durationMs ?? 0);
    const head = `  ${s.stepName.padEnd(24)}  ${(s.skipped ? 'skipped' : s.status).padEnd(9)} ${seconds(ms).padStart(9)}`;
    if (columns === 'rates') {
      const rate = ms > 0 ? Math.round((Number(s.successCount) * 1000) / ms) : 0;
      console.log(`${head}  ${String(s.successCount).padStart(14)}  ${String(rate).padStart(8)}   ${s.chunkCount || ''}`);
    } else {
      console.log(
        `${head}  ${String(s.totalCount).padStart(9)}  ${String(s.successCount).padStart(9)}  ${String(s.errorCount).padStart(6)}`,
      );
    }
  }
}
