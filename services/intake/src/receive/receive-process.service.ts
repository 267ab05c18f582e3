import { activeRunId } from '@csp/batch';
import { clientTransaction, ensureMonthPartitions, type Db } from '@csp/db';
import { AppError, notFound } from '@csp/service-kit';
import { pendingRanges } from '../batch/raw-rows.js';
import { intakeDb } from '../db.js';
import { reconcileMonth } from '../steps/reconcile.js';
import { TRANSFORM_CHUNK_SIZE, transformChunk } from '../steps/transform-data.js';

export interface StepOutcome {
  step: 'transformData' | 'reconcile';
  total: number;
  success: number;
  error: number;
  skipped: number;
  durationMs: number;
}

export interface ProcessResult {
  companyCode: string;
  settleMonth: string;
  steps: StepOutcome[];
}

/** Chunks of one carrier's month processed side by side (two connections; the machine has two cores). */
const PARALLEL_CHUNKS = 2;

/** Lock namespace of "one receive/process per carrier at a time" (second key: the carrier code). */
const PROCESS_LOCK = 74_011;

/**
 * Steps 2-3 (transformData, reconcile) for one carrier and month outside the monthly run, with the
 * step code itself: the same chunks, the same transaction per chunk, the same reconciliation rows.
 * Refused with B010 while a settlement run is active or the carrier is already being processed.
 */
export async function processCarrierMonth(
  db: Db,
  companyCode: string,
  settleMonth: string,
): Promise<ProcessResult> {
  const company = await intakeDb(db)
    .selectFrom('insurance_company')
    .select('company_code')
    .where('company_code', '=', companyCode)
    .executeTakeFirst();
  if (!company) throw notFound(`Insurance company ${companyCode}`);

  return clientTransaction(db, async ({ client }) => {
    // A session lock on a connection of its own, held while the chunks run on others.
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked',
      [PROCESS_LOCK, companyCode],
    );
    if (!rows[0]?.locked)
      throw new AppError('BATCH_RUNNING', `carrier ${companyCode} is already being processed`);
    const active = await activeRunId(db);
    if (active !== null)
      throw new AppError('BATCH_RUNNING', `settlement run ${active} is in progress; process after it`);

    const steps: StepOutcome[] = [];
    let started = Date.now();
    await ensureMonthPartitions(db, settleMonth);
    const ranges = await pendingRanges(intakeDb(db), settleMonth, companyCode, TRANSFORM_CHUNK_SIZE);
    const transform: StepOutcome = {
      step: 'transformData',
      total: 0,
      success: 0,
      error: 0,
      skipped: 0,
      durationMs: 0,
    };
    const scope = { settleMonth, companyCode, progress: () => undefined };
    let next = 0;
    const worker = async () => {
      while (next < ranges.length) {
        const range = ranges[next++]!;
        const counts = await clientTransaction(db, ({ db: trx }) => transformChunk(scope, trx, range));
        transform.total += counts.total;
        transform.success += counts.success;
        transform.error += counts.error;
        transform.skipped += counts.skipped ?? 0;
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_CHUNKS, ranges.length) }, worker));
    transform.durationMs = Date.now() - started;
    steps.push(transform);

    started = Date.now();
    const recon = await reconcileMonth({ db, settleMonth, companyCode, runId: null });
    steps.push({ step: 'reconcile', ...recon, durationMs: Date.now() - started });
    return { companyCode, settleMonth, steps };
  });
}

/** After an error is resolved the carrier's reconciliation of the month is brought up to date. */
export async function refreshReconciliation(db: Db, companyCode: string, settleMonth: string): Promise<void> {
  await reconcileMonth({ db, settleMonth, companyCode, runId: null });
}
