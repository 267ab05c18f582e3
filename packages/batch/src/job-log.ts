import { sql, type Kysely } from 'kysely';
import type { BatchChunk, BatchDatabase, BatchDb, BatchJobLog } from './db.js';
import type { Chunk } from './payload.js';
import { STEP_CATALOG, type StepName } from './steps.js';

/** Record counts a step (or one chunk) reports. */
export interface StepCounts {
  total: number;
  success: number;
  error: number;
  skipped?: number;
}

const MAX_MESSAGE = 4000;

export function truncateMessage(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 3)}...` : message;
}

/** Milliseconds since started_at, computed by PostgreSQL (one clock for every worker). */
const elapsedMs = sql<number>`coalesce((extract(epoch from (now() - started_at)) * 1000)::bigint, 0)`;

/** Run-row counts count the run's steps (see BatchRunView). */
const stepTotals = {
  total_count: sql<number>`(select count(*) from batch_job_log s where s.parent_job_log_id = batch_job_log.job_log_id)`,
  success_count: sql<number>`(select count(*) from batch_job_log s where s.parent_job_log_id = batch_job_log.job_log_id and s.status = 'COMPLETED' and not s.skipped)`,
  skipped_count: sql<number>`(select count(*) from batch_job_log s where s.parent_job_log_id = batch_job_log.job_log_id and s.skipped)`,
  error_count: sql<number>`(select count(*) from batch_job_log s where s.parent_job_log_id = batch_job_log.job_log_id and s.status = 'FAILED')`,
};

export async function loadRun(db: Kysely<BatchDatabase>, runId: number): Promise<BatchJobLog | undefined> {
  return db
    .selectFrom('batch_job_log')
    .selectAll()
    .where('job_log_id', '=', runId)
    .where('step_name', 'is', null)
    .executeTakeFirst();
}

/** REQUESTED -> RUNNING when the run's first step job starts (a no-op afterwards). */
export async function markRunRunning(db: BatchDb, runId: number, attempt: number): Promise<void> {
  await db
    .updateTable('batch_job_log')
    .set({ status: 'RUNNING', started_at: sql`now()`, updated_at: sql`now()`, watchdog_reason: null, watchdog_at: null })
    .where('job_log_id', '=', runId)
    .where('status', '=', 'REQUESTED')
    .where('run_attempt', '=', attempt)
    .execute();
}

function stepRowValues(run: BatchJobLog, step: StepName) {
  return {
    job_name: run.job_name,
    job_params: JSON.stringify(run.job_params ?? {}),
    settle_month: run.settle_month,
    company_code: run.company_code,
    step_name: step,
    parent_job_log_id: run.job_log_id,
    step_seq: STEP_CATALOG[step].seq,
    run_attempt: run.run_attempt,
  };
}

/**
 * Creates the step row as RUNNING or, for a retried/redelivered step, reuses it. A COMPLETED row is
 * returned unchanged: the caller then only makes sure the next step is enqueued.
 */
export async function upsertStepRunning(db: BatchDb, run: BatchJobLog, step: StepName): Promise<BatchJobLog> {
  const row = await db
    .insertInto('batch_job_log')
    .values({ ...stepRowValues(run, step), status: 'RUNNING', started_at: sql`now()` })
    .onConflict((oc) =>
      oc
        .columns(['parent_job_log_id', 'step_name'])
        .doUpdateSet({
          status: 'RUNNING',
          run_attempt: run.run_attempt,
          started_at: sql`coalesce(batch_job_log.started_at, now())`,
          updated_at: sql`now()`,
        })
        .where('batch_job_log.status', '<>', 'COMPLETED'),
    )
    .returningAll()
    .executeTakeFirst();
  if (row) return row;
  const existing = await loadStepRow(db, run.job_log_id, step);
  if (!existing) throw new Error(`step row ${step} of run ${run.job_log_id} vanished`);
  return existing;
}

/** A step that does not run in this month: COMPLETED, skipped, zero counts. */
export async function insertSkippedStep(
  db: BatchDb,
  run: BatchJobLog,
  step: StepName,
  reason: string,
): Promise<void> {
  await db
    .insertInto('batch_job_log')
    .values({
      ...stepRowValues(run, step),
      status: 'COMPLETED',
      skipped: true,
      skip_reason: reason,
      started_at: sql`now()`,
      ended_at: sql`now()`,
      duration_ms: 0,
    })
    .onConflict((oc) => oc.columns(['parent_job_log_id', 'step_name']).doNothing())
    .execute();
}

/** RUNNING -> COMPLETED with the step's counts; false when the row was not RUNNING. */
export async function completeStep(db: BatchDb, stepLogId: number, counts: StepCounts): Promise<boolean> {
  const result = await db
    .updateTable('batch_job_log')
    .set({
      status: 'COMPLETED',
      total_count: counts.total,
      success_count: counts.success,
      error_count: counts.error,
      skipped_count: counts.skipped ?? 0,
      error_message: null,
      ended_at: sql`now()`,
      duration_ms: elapsedMs,
      updated_at: sql`now()`,
    })
    .where('job_log_id', '=', stepLogId)
    .where('status', '=', 'RUNNING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A failed attempt that will be retried: the message is visible on the step (and chunk) row. */
export async function recordAttemptError(
  db: BatchDb,
  runId: number,
  attempt: number,
  step: StepName,
  message: string,
  chunkNo?: number,
): Promise<void> {
  await db
    .updateTable('batch_job_log')
    .set({ error_message: truncateMessage(message), updated_at: sql`now()` })
    .where('parent_job_log_id', '=', runId)
    .where('step_name', '=', step)
    .where('run_attempt', '=', attempt)
    .where('status', '=', 'RUNNING')
    .execute();
  if (chunkNo !== undefined) {
    await db
      .updateTable('batch_chunk')
      .set({ status: 'PENDING', error_message: truncateMessage(message), updated_at: sql`now()` })
      .where('parent_job_log_id', '=', runId)
      .where('step_name', '=', step)
      .where('chunk_no', '=', chunkNo)
      .where('status', '<>', 'COMPLETED')
      .execute();
  }
}

export async function loadStepRow(
  db: BatchDb,
  runId: number,
  step: StepName,
): Promise<BatchJobLog | undefined> {
  return db
    .selectFrom('batch_job_log')
    .selectAll()
    .where('parent_job_log_id', '=', runId)
    .where('step_name', '=', step)
    .executeTakeFirst();
}

/**
 * Final failure of a step (after its last attempt, or unrecoverable): run, step and chunk become
 * FAILED. Nothing changes when the run is no longer this attempt's (a stale job of a restarted run).
 */
export async function failStepAndRun(
  db: BatchDb,
  run: { runId: number; attempt: number },
  step: StepName,
  message: string,
  chunkNo?: number,
): Promise<boolean> {
  const text = truncateMessage(message);
  return db
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable('batch_job_log')
        .set({
          status: 'FAILED',
          error_message: text,
          ended_at: sql`now()`,
          duration_ms: elapsedMs,
          updated_at: sql`now()`,
        })
        .where('parent_job_log_id', '=', run.runId)
        .where('step_name', '=', step)
        .where('run_attempt', '=', run.attempt)
        .where('status', 'in', ['REQUESTED', 'RUNNING'])
        .execute();
      // After the step row, so the run's step counts include the failed step.
      const failed = await trx
        .updateTable('batch_job_log')
        .set({
          status: 'FAILED',
          error_message: text,
          ended_at: sql`now()`,
          duration_ms: elapsedMs,
          updated_at: sql`now()`,
          watchdog_reason: null,
          watchdog_at: null,
          ...stepTotals,
        })
        .where('job_log_id', '=', run.runId)
        .where('status', 'in', ['REQUESTED', 'RUNNING'])
        .where('run_attempt', '=', run.attempt)
        .executeTakeFirst();
      if (Number(failed.numUpdatedRows) === 0) {
        // Not (or no longer) this attempt's run: undo the step-row change as well.
        throw new StaleAttempt();
      }
      if (chunkNo !== undefined) {
        await trx
          .updateTable('batch_chunk')
          .set({ status: 'FAILED', error_message: text, ended_at: sql`now()`, updated_at: sql`now()` })
          .where('parent_job_log_id', '=', run.runId)
          .where('step_name', '=', step)
          .where('chunk_no', '=', chunkNo)
          .where('status', '<>', 'COMPLETED')
          .execute();
      }
      return true;
    })
    .catch((err: unknown) => {
      if (err instanceof StaleAttempt) return false;
      throw err;
    });
}

class StaleAttempt extends Error {}

/** After the last step: RUNNING -> COMPLETED. */
export async function completeRun(db: BatchDb, runId: number, attempt: number): Promise<boolean> {
  const result = await db
    .updateTable('batch_job_log')
    .set({
      status: 'COMPLETED',
      error_message: null,
      watchdog_reason: null,
      watchdog_at: null,
      ended_at: sql`now()`,
      duration_ms: elapsedMs,
      updated_at: sql`now()`,
      ...stepTotals,
    })
    .where('job_log_id', '=', runId)
    .where('status', '=', 'RUNNING')
    .where('run_attempt', '=', attempt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// ---- chunks ---------------------------------------------------------------------------------

export async function loadChunks(db: BatchDb, runId: number, step: StepName): Promise<BatchChunk[]> {
  return db
    .selectFrom('batch_chunk')
    .selectAll()
    .where('parent_job_log_id', '=', runId)
    .where('step_name', '=', step)
    .orderBy('chunk_no')
    .execute();
}

export async function insertChunks(
  db: BatchDb,
  runId: number,
  step: StepName,
  chunks: Chunk[],
): Promise<void> {
  for (let i = 0; i < chunks.length; i += 1000) {
    await db
      .insertInto('batch_chunk')
      .values(
        chunks.slice(i, i + 1000).map((c) => ({
          parent_job_log_id: runId,
          step_name: step,
          chunk_no: c.chunkNo,
          range_start: c.from,
          range_end: c.to,
        })),
      )
      .onConflict((oc) => oc.columns(['parent_job_log_id', 'step_name', 'chunk_no']).doNothing())
      .execute();
  }
}

/** Marks a chunk RUNNING (attempts + 1); undefined when it is already COMPLETED or unknown. */
export async function startChunk(
  db: BatchDb,
  runId: number,
  step: StepName,
  chunkNo: number,
): Promise<BatchChunk | undefined> {
  return db
    .updateTable('batch_chunk')
    .set({
      status: 'RUNNING',
      attempts: sql`attempts + 1`,
      started_at: sql`coalesce(started_at, now())`,
      updated_at: sql`now()`,
    })
    .where('parent_job_log_id', '=', runId)
    .where('step_name', '=', step)
    .where('chunk_no', '=', chunkNo)
    .where('status', '<>', 'COMPLETED')
    .returningAll()
    .executeTakeFirst();
}

export async function loadChunk(
  db: BatchDb,
  runId: number,
  step: StepName,
  chunkNo: number,
): Promise<BatchChunk | undefined> {
  return db
    .selectFrom('batch_chunk')
    .selectAll()
    .where('parent_job_log_id', '=', runId)
    .where('step_name', '=', step)
    .where('chunk_no', '=', chunkNo)
    .executeTakeFirst();
}

/** Locks the chunk row for the caller's transaction; returns its status (undefined when unknown). */
export async function lockChunk(
  trx: BatchDb,
  runId: number,
  step: StepName,
  chunkNo: number,
): Promise<string | undefined> {
  const row = await trx
    .selectFrom('batch_chunk')
    .select('status')
    .where('parent_job_log_id', '=', runId)
    .where('step_name', '=', step)
    .where('chunk_no', '=', chunkNo)
    .forUpdate()
    .executeTakeFirst();
  return row?.status;
}

/** The checkpoint: -> COMPLETED with counts unless already COMPLETED. Returns whether it changed the row. */
export async function markChunkCompleted(
  trx: BatchDb,
  runId: number,
  step: StepName,
  chunkNo: number,
  counts: StepCounts,
): Promise<boolean> {
  const result = await trx
    .updateTable('batch_chunk')
    .set({
      status: 'COMPLETED',
      total_count: counts.total,
      success_count: counts.success,
      error_count: counts.error,
      skipped_count: counts.skipped ?? 0,
      error_message: null,
      ended_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('parent_job_log_id', '=', runId)
    .where('step_name', '=', step)
    .where('chunk_no', '=', chunkNo)
    .where('status', '<>', 'COMPLETED')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type FinishOutcome =
  | { kind: 'completed-now'; totals: Required<StepCounts>; previousTotal: number }
  | { kind: 'pending'; totals: Required<StepCounts>; previousTotal: number; pending: number }
  | { kind: 'already-completed' }
  | { kind: 'not-running' };

/**
 * Under a row lock on the step row (so concurrent chunk workers serialise here): copies the summed
 * chunk counts onto the step row and, when no chunk is left, completes the step. Exactly one caller
 * sees 'completed-now' and advances the run.
 */
export async function finishSplitStepIfDone(
  db: BatchDb,
  stepLogId: number,
  runId: number,
  step: StepName,
): Promise<FinishOutcome> {
  return db.transaction().execute(async (trx) => {
    const stepRow = await trx
      .selectFrom('batch_job_log')
      .select(['status', 'total_count'])
      .where('job_log_id', '=', stepLogId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (stepRow.status === 'COMPLETED') return { kind: 'already-completed' } as const;
    if (stepRow.status !== 'RUNNING') return { kind: 'not-running' } as const;

    const agg = await trx
      .selectFrom('batch_chunk')
      .select([
        sql<number>`count(*) filter (where status <> 'COMPLETED')`.as('pending'),
        sql<number>`coalesce(sum(total_count) filter (where status = 'COMPLETED'), 0)::bigint`.as('total'),
        sql<number>`coalesce(sum(success_count) filter (where status = 'COMPLETED'), 0)::bigint`.as(
          'success',
        ),
        sql<number>`coalesce(sum(error_count) filter (where status = 'COMPLETED'), 0)::bigint`.as('error'),
        sql<number>`coalesce(sum(skipped_count) filter (where status = 'COMPLETED'), 0)::bigint`.as(
          'skipped',
        ),
      ])
      .where('parent_job_log_id', '=', runId)
      .where('step_name', '=', step)
      .executeTakeFirstOrThrow();
    // Number(): int8 arrives as a number only where @csp/db's type parser is installed.
    const totals = {
      total: Number(agg.total),
      success: Number(agg.success),
      error: Number(agg.error),
      skipped: Number(agg.skipped),
    };
    const done = Number(agg.pending) === 0;
    await trx
      .updateTable('batch_job_log')
      .set({
        total_count: totals.total,
        success_count: totals.success,
        error_count: totals.error,
        skipped_count: totals.skipped,
        updated_at: sql`now()`,
        ...(done
          ? {
              status: 'COMPLETED' as const,
              error_message: null,
              ended_at: sql`now()`,
              duration_ms: elapsedMs,
            }
          : {}),
      })
      .where('job_log_id', '=', stepLogId)
      .execute();
    return done
      ? ({ kind: 'completed-now', totals, previousTotal: Number(stepRow.total_count) } as const)
      : ({
          kind: 'pending',
          totals,
          previousTotal: Number(stepRow.total_count),
          pending: Number(agg.pending),
        } as const);
  });
}
