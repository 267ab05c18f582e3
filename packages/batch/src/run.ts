import type { Database, Db } from '@csp/db';
import { context, trace } from '@opentelemetry/api';
import { sql, type Kysely } from 'kysely';
import { batchDb, type BatchStatus } from './db.js';
import { BatchRunningError, isUniqueViolation, RunNotFoundError, RunStateError } from './errors.js';
import { loadRun, truncateMessage } from './job-log.js';
import { SETTLE_MONTH_PATTERN } from './payload.js';
import type { BatchQueues } from './queues.js';
import { FIRST_STEP, SETTLEMENT_JOB_NAME, STEP_NAMES, isStepName, type StepName } from './steps.js';
import { toRunView, toStepView, type BatchRunView, type RunStatus } from './views.js';
import { endSpan, traceOf, tracer } from './telemetry.js';

const ONE_ACTIVE_RUN_INDEX = 'batch_job_log_one_active_run_uq';

type AnyDb = Db | Kysely<Database>;

export interface RequestRunInput {
  jobName?: string;
  settleMonth: string;
  companyCode?: string | null;
  /** users.user_id of the requester; null for a system trigger. */
  requestedBy?: number | null;
}

export interface StartRunOptions {
  /** Carried into every job of the run for log correlation. */
  requestId?: string;
}

/** What startRun needs of a run (a BatchRunView fits). */
export type RunRef = Pick<BatchRunView, 'jobLogId' | 'runKey' | 'runAttempt' | 'settleMonth' | 'companyCode'>;

/**
 * Inserts the REQUESTED run row. PostgreSQL decides concurrent requests atomically (partial unique
 * index): the loser gets BatchRunningError (B010). Nothing is enqueued yet; see startRun/launchRun.
 */
export async function requestRun(db: AnyDb, input: RequestRunInput): Promise<BatchRunView> {
  if (!SETTLE_MONTH_PATTERN.test(input.settleMonth)) {
    throw new RangeError(`settleMonth must be YYYYMM, got '${input.settleMonth}'`);
  }
  const jobName = input.jobName ?? SETTLEMENT_JOB_NAME;
  const companyCode = input.companyCode ?? null;
  try {
    const row = await batchDb(db)
      .insertInto('batch_job_log')
      .values({
        job_name: jobName,
        job_params: JSON.stringify({ settleMonth: input.settleMonth, companyCode }),
        settle_month: input.settleMonth,
        company_code: companyCode,
        status: 'REQUESTED',
        requested_by: input.requestedBy ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRunView(row);
  } catch (err) {
    if (isUniqueViolation(err, ONE_ACTIVE_RUN_INDEX)) throw new BatchRunningError(jobName);
    throw err;
  }
}

/**
 * The settlement run in progress (REQUESTED or RUNNING) of a month, or of any month when none is given: its
 * id, or null. What confirm, close and carrier processing check before touching figures a run is moving.
 */
export async function activeRunId(db: AnyDb, settleMonth?: string): Promise<number | null> {
  const run = await batchDb(db)
    .selectFrom('batch_job_log')
    .select('job_log_id')
    .where('step_name', 'is', null)
    .where('job_name', '=', SETTLEMENT_JOB_NAME)
    .$if(settleMonth !== undefined, (qb) => qb.where('settle_month', '=', settleMonth!))
    .where('status', 'in', ['REQUESTED', 'RUNNING'])
    .executeTakeFirst();
  return run ? Number(run.job_log_id) : null;
}

/**
 * Enqueues the first step (job id `${runId}-${runKey}-${attempt}-receiveData`); the run turns RUNNING when
 * it starts. Throws JobIdCollisionError when that id is held by a job of another run.
 */
export async function startRun(
  queues: BatchQueues,
  run: RunRef,
  options: StartRunOptions = {},
): Promise<void> {
  await enqueueFrom(queues, run, FIRST_STEP, options);
}

async function enqueueFrom(
  queues: BatchQueues,
  run: RunRef,
  step: StepName,
  options: StartRunOptions,
): Promise<void> {
  // The run span: every step and chunk job of this attempt carries its context (one trace per run).
  const span = tracer.startSpan('settlement run', {
    attributes: { 'batch.run_id': Number(run.jobLogId), 'batch.attempt': Number(run.runAttempt), 'batch.settle_month': run.settleMonth, 'batch.first_step': step },
  });
  const traceCarrier = traceOf(trace.setSpan(context.active(), span));
  try {
    await queues.enqueueStep(step, {
      runId: Number(run.jobLogId),
      runKey: run.runKey,
      attempt: Number(run.runAttempt),
      settleMonth: run.settleMonth,
      ...(run.companyCode ? { companyCode: run.companyCode } : {}),
      ...(options.requestId ? { requestId: options.requestId } : {}),
      ...(traceCarrier ? { trace: traceCarrier } : {}),
    });
    endSpan(span);
  } catch (err) {
    endSpan(span, err);
    throw err;
  }
}

/**
 * requestRun + startRun, as the run endpoint uses it. When the first job cannot be enqueued
 * (Redis down) the run is marked FAILED at once, so it does not block the next request.
 */
export async function launchRun(
  db: AnyDb,
  queues: BatchQueues,
  input: RequestRunInput & StartRunOptions,
): Promise<BatchRunView> {
  const run = await requestRun(db, input);
  try {
    await startRun(queues, run, { requestId: input.requestId });
  } catch (err) {
    await failRun(db, run.jobLogId, `could not enqueue the first step: ${(err as Error).message}`).catch(
      () => {},
    );
    throw err;
  }
  return run;
}

/**
 * Restarts a FAILED run from its first step that is not COMPLETED (the failed one): the run row goes
 * back to REQUESTED with run_attempt + 1 (subject to the one-active-run index -> BatchRunningError),
 * the failed step row is reset and reused, its unfinished chunks are reset to PENDING (COMPLETED
 * chunks keep their checkpoint and are not redone), completed steps are not repeated.
 */
export async function restartRun(
  db: AnyDb,
  queues: BatchQueues,
  runId: number,
  options: StartRunOptions = {},
): Promise<BatchRunView> {
  const bdb = batchDb(db);
  let restarted: { run: BatchRunView; from: StepName };
  try {
    restarted = await bdb.transaction().execute(async (trx) => {
      const run = await trx
        .selectFrom('batch_job_log')
        .selectAll()
        .where('job_log_id', '=', runId)
        .where('step_name', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!run) throw new RunNotFoundError(runId);
      // A run the watchdog found stalled may be restarted as it is: its old attempt's jobs turn stale.
      const stalled = (run.status === 'REQUESTED' || run.status === 'RUNNING') && run.watchdog_reason !== null;
      if (run.status !== 'FAILED' && !stalled) {
        throw new RunStateError(runId, run.status, 'FAILED (or stalled, as the watchdog reports)');
      }

      const stepRows = await trx
        .selectFrom('batch_job_log')
        .select(['step_name', 'status'])
        .where('parent_job_log_id', '=', runId)
        .execute();
      const completed = new Set(stepRows.filter((r) => r.status === 'COMPLETED').map((r) => r.step_name));
      // All steps completed but the run FAILED (failRun at the very end): re-driving the last step
      // finds its row COMPLETED and completes the run.
      const from = STEP_NAMES.find((s) => !completed.has(s)) ?? STEP_NAMES[STEP_NAMES.length - 1]!;

      // The run row and its unfinished step rows start over: requested again, no times, counts or error.
      const reset = {
        status: 'REQUESTED',
        error_message: null,
        started_at: null,
        ended_at: null,
        duration_ms: null,
        total_count: 0,
        success_count: 0,
        error_count: 0,
        skipped_count: 0,
        updated_at: sql<Date>`now()`,
      } as const;
      const updated = await trx
        .updateTable('batch_job_log')
        .set({ ...reset, watchdog_reason: null, watchdog_at: null, run_attempt: sql`run_attempt + 1` })
        .where('job_log_id', '=', runId)
        .returningAll()
        .executeTakeFirstOrThrow();

      await trx
        .updateTable('batch_job_log')
        .set({ ...reset, run_attempt: updated.run_attempt })
        .where('parent_job_log_id', '=', runId)
        .where('status', '<>', 'COMPLETED')
        .execute();

      await trx
        .updateTable('batch_chunk')
        .set({ status: 'PENDING', attempts: 0, error_message: null, ended_at: null, updated_at: sql`now()` })
        .where('parent_job_log_id', '=', runId)
        .where('status', '<>', 'COMPLETED')
        .execute();

      return { run: toRunView(updated), from };
    });
  } catch (err) {
    if (isUniqueViolation(err, ONE_ACTIVE_RUN_INDEX)) {
      const run = await loadRun(bdb, runId);
      throw new BatchRunningError(run?.job_name ?? SETTLEMENT_JOB_NAME);
    }
    throw err;
  }

  try {
    await enqueueFrom(queues, restarted.run, restarted.from, options);
  } catch (err) {
    await failRun(db, runId, `could not enqueue ${restarted.from}: ${(err as Error).message}`).catch(
      () => {},
    );
    throw err;
  }
  return restarted.run;
}

/**
 * Operator action: marks an active (REQUESTED/RUNNING) run and its unfinished step rows FAILED, for
 * example when its jobs were lost from Redis. Jobs of the run still in the queues then do nothing.
 */
export async function failRun(db: AnyDb, runId: number, reason: string): Promise<BatchRunView> {
  const bdb = batchDb(db);
  const message = truncateMessage(reason);
  return bdb.transaction().execute(async (trx) => {
    const run = await trx
      .updateTable('batch_job_log')
      .set({
        status: 'FAILED',
        error_message: message,
        watchdog_reason: null,
        watchdog_at: null,
        ended_at: sql`now()`,
        duration_ms: sql`coalesce((extract(epoch from (now() - started_at)) * 1000)::bigint, 0)`,
        updated_at: sql`now()`,
      })
      .where('job_log_id', '=', runId)
      .where('step_name', 'is', null)
      .where('status', 'in', ['REQUESTED', 'RUNNING'])
      .returningAll()
      .executeTakeFirst();
    if (!run) {
      const existing = await loadRun(trx, runId);
      if (!existing) throw new RunNotFoundError(runId);
      throw new RunStateError(runId, existing.status, 'REQUESTED or RUNNING');
    }
    await trx
      .updateTable('batch_job_log')
      .set({ status: 'FAILED', error_message: message, ended_at: sql`now()`, updated_at: sql`now()` })
      .where('parent_job_log_id', '=', runId)
      .where('status', 'in', ['REQUESTED', 'RUNNING'])
      .execute();
    return toRunView(run);
  });
}

/** The run row and its step rows in step order (with chunk progress); undefined when unknown. */
export async function getRunStatus(db: AnyDb, runId: number): Promise<RunStatus | undefined> {
  const bdb = batchDb(db);
  const run = await loadRun(bdb, runId);
  if (!run) return undefined;
  const steps = await bdb
    .selectFrom('batch_job_log')
    .selectAll()
    .where('parent_job_log_id', '=', runId)
    .orderBy('step_seq')
    .execute();
  const chunkStats = await bdb
    .selectFrom('batch_chunk')
    .select([
      'step_name',
      sql<number>`count(*)`.as('chunks'),
      sql<number>`count(*) filter (where status = 'COMPLETED')`.as('completed'),
    ])
    .where('parent_job_log_id', '=', runId)
    .groupBy('step_name')
    .execute();
  const byStep = new Map(chunkStats.map((c) => [c.step_name, c]));
  return {
    run: toRunView(run),
    steps: steps
      .filter((s) => s.step_name !== null && isStepName(s.step_name))
      .map((s) => {
        const c = byStep.get(s.step_name!);
        return toStepView(s, Number(c?.chunks ?? 0), Number(c?.completed ?? 0));
      }),
  };
}

export interface ListRunsQuery {
  pageNum?: number;
  pageSize?: number;
  jobName?: string;
  settleMonth?: string;
  status?: BatchStatus;
}

export interface RunPage {
  list: BatchRunView[];
  pageNum: number;
  pageSize: number;
  pages: number;
  total: number;
}

/** Run rows, newest first, in the spec's PageResponse shape. */
export async function listRuns(db: AnyDb, query: ListRunsQuery = {}): Promise<RunPage> {
  const pageNum = Math.max(1, Math.trunc(query.pageNum ?? 1));
  const pageSize = Math.min(1000, Math.max(1, Math.trunc(query.pageSize ?? 20)));
  const base = batchDb(db)
    .selectFrom('batch_job_log')
    .where('step_name', 'is', null)
    .$if(query.jobName !== undefined, (qb) => qb.where('job_name', '=', query.jobName!))
    .$if(query.settleMonth !== undefined, (qb) => qb.where('settle_month', '=', query.settleMonth!))
    .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!));
  const [{ total }, rows] = await Promise.all([
    base.select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('job_log_id', 'desc')
      .limit(pageSize)
      .offset((pageNum - 1) * pageSize)
      .execute(),
  ]);
  const count = Number(total);
  return {
    list: rows.map(toRunView),
    pageNum,
    pageSize,
    pages: Math.ceil(count / pageSize),
    total: count,
  };
}
