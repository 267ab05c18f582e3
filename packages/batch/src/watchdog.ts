import type { Database, Db } from '@csp/db';
import { sql, type Kysely } from 'kysely';
import type { BaseLogger } from 'pino';
import { batchDb, type BatchDb, type BatchJobLog } from './db.js';
import { stepJobId } from './job-ids.js';
import { listLiveWorkers, withTimeout, type StepWorkerList } from './live-workers.js';
import type { BatchQueues } from './queues.js';
import { STEP_NAMES, isStepName, type StepName } from './steps.js';
import { observeBatch, recordWatchdogPass } from './telemetry.js';

type AnyDb = Db | Kysely<Database>;

/** Any pino-compatible logger (a Fastify app's log fits). */
export type WatchdogLogger = Pick<BaseLogger, 'info' | 'warn'>;

export interface WatchdogSettings {
  /** A REQUESTED run whose first step has not started after this long is reported (default 60 s). */
  requestedTimeoutMs?: number;
  /**
   * A step with no live worker and no progress for this long is reported. Default 60 s: BullMQ's lock
   * duration and stalled-check interval (30 s each) twice, the time a killed worker's job needs to come back.
   */
  stepStallMs?: number;
}

export const WATCHDOG_DEFAULTS: Required<WatchdogSettings> = { requestedTimeoutMs: 60_000, stepStallMs: 60_000 };

/** What the watchdog concludes about one active run. */
export interface RunDiagnosis {
  runId: number;
  status: 'REQUESTED' | 'RUNNING';
  /** The step the run is in (RUNNING step row) or waits for (next step without a COMPLETED row). */
  step: StepName;
  /** Live workers of that step's queue; null when Redis could not tell. */
  workers: number | null;
  /** Milliseconds since the run last showed progress (run, step or chunk rows changed). */
  idleMs: number;
  /** null when the run looks healthy. */
  reason: string | null;
}

interface RunActivity {
  now: Date;
  current: StepName;
  split: boolean;
  lastActivity: Date;
}

async function activityOf(db: BatchDb, run: BatchJobLog): Promise<RunActivity> {
  const steps = await db
    .selectFrom('batch_job_log')
    .select(['step_name', 'status', 'updated_at'])
    .where('parent_job_log_id', '=', run.job_log_id)
    .orderBy('step_seq')
    .execute();
  const { rows } = await sql<{ now: Date; chunk_at: Date | null; chunk_steps: string[] | null }>`
    SELECT now() AS now, max(updated_at) AS chunk_at, array_agg(DISTINCT step_name) AS chunk_steps
      FROM batch_chunk WHERE parent_job_log_id = ${run.job_log_id}`.execute(db);
  const { now, chunk_at, chunk_steps } = rows[0]!;

  const running = steps.filter((s) => s.status === 'RUNNING').at(-1)?.step_name;
  const completed = new Set(steps.filter((s) => s.status === 'COMPLETED').map((s) => s.step_name));
  const waiting = STEP_NAMES.find((s) => !completed.has(s)) ?? STEP_NAMES[STEP_NAMES.length - 1]!;
  const current = running && isStepName(running) ? running : waiting;

  const times = [run.updated_at, run.started_at, chunk_at, ...steps.map((s) => s.updated_at)]
    .filter((t): t is Date => t instanceof Date)
    .map((t) => t.getTime());
  return {
    now,
    current,
    split: (chunk_steps ?? []).includes(current),
    lastActivity: new Date(Math.max(...times)),
  };
}

const seconds = (ms: number) => Math.round(ms / 1000);

/** The state of the run's job for `step` in BullMQ: missing, or its state and failure reason. */
async function jobState(
  queues: BatchQueues,
  run: BatchJobLog,
  step: StepName,
): Promise<{ state: string; failedReason?: string } | undefined> {
  try {
    const job = await withTimeout(
      queues.queue(step).getJob(stepJobId({ runId: run.job_log_id, runKey: run.run_key, attempt: run.run_attempt }, step)),
      2_000,
    );
    if (!job) return { state: 'missing' };
    return { state: await withTimeout(job.getState(), 2_000), failedReason: job.failedReason };
  } catch {
    return undefined; // Redis unreachable: say nothing about the job
  }
}

/**
 * Looks at one active run: which step it is in or waits for, whether that step's queue has live
 * workers, how long nothing moved, and (when it is stuck) why, in words an operator can act on.
 */
export async function diagnoseRun(
  db: AnyDb,
  queues: BatchQueues,
  run: BatchJobLog,
  settings: WatchdogSettings = {},
  workerLists?: readonly StepWorkerList[],
): Promise<RunDiagnosis | undefined> {
  if (run.status !== 'REQUESTED' && run.status !== 'RUNNING') return undefined;
  const { requestedTimeoutMs, stepStallMs } = { ...WATCHDOG_DEFAULTS, ...settings };
  const activity = await activityOf(batchDb(db), run);
  const step = activity.current;
  const lists = workerLists ?? (await listLiveWorkers(queues, [step]));
  const workers = lists.find((w) => w.step === step)?.workers ?? null;
  const idleMs = Math.max(0, activity.now.getTime() - activity.lastActivity.getTime());
  const base = { runId: Number(run.job_log_id), status: run.status, step, workers, idleMs };

  if (run.status === 'REQUESTED') {
    if (idleMs <= requestedTimeoutMs) return { ...base, reason: null };
    const since = `requested ${seconds(idleMs)} s ago and no step has started`;
    if (workers === 0) return { ...base, reason: `no worker for step ${step} is running (${since})` };
    const job = await jobState(queues, run, step);
    if (job?.state === 'missing') {
      return { ...base, reason: `the job of step ${step} is not in Redis: lost or removed (${since})` };
    }
    if (job?.state === 'failed') {
      return { ...base, reason: `BullMQ failed the job of step ${step}: ${job.failedReason ?? 'unknown'} (${since})` };
    }
    const state = job ? `the job of step ${step} is ${job.state}` : 'Redis does not answer';
    return { ...base, reason: `${since}; ${state}, ${workers ?? 'unknown'} worker(s) of it running` };
  }

  if (idleMs <= stepStallMs) return { ...base, reason: null };
  const idle = `no progress for ${seconds(idleMs)} s`;
  if (workers === 0) return { ...base, reason: `no worker for step ${step} is running (${idle})` };
  if (!activity.split) {
    const job = await jobState(queues, run, step);
    if (job?.state === 'failed') {
      return { ...base, reason: `BullMQ failed the job of step ${step}: ${job.failedReason ?? 'unknown'} (${idle})` };
    }
    if (job?.state === 'missing') {
      return { ...base, reason: `the job of step ${step} is not in Redis: lost or removed (${idle})` };
    }
  }
  return { ...base, reason: null };
}

/** Writes the diagnosis onto the run row (watchdog_reason/at); updated_at is left alone (it measures progress). */
async function record(db: BatchDb, run: BatchJobLog, reason: string | null): Promise<boolean> {
  if (reason === run.watchdog_reason) return false;
  await db
    .updateTable('batch_job_log')
    .set({
      watchdog_reason: reason === null ? null : reason.slice(0, 500),
      watchdog_at: reason === null ? null : sql`coalesce(watchdog_at, now())`,
    })
    .where('job_log_id', '=', run.job_log_id)
    .where('status', 'in', ['REQUESTED', 'RUNNING'])
    .where('run_attempt', '=', run.run_attempt)
    .execute();
  return true;
}

/** Diagnoses a run and stores the outcome on its row (the status endpoint and the periodic watchdog). */
export async function inspectRun(
  db: AnyDb,
  queues: BatchQueues,
  run: BatchJobLog,
  settings: WatchdogSettings = {},
  workerLists?: readonly StepWorkerList[],
  logger?: WatchdogLogger,
): Promise<RunDiagnosis | undefined> {
  const diagnosis = await diagnoseRun(db, queues, run, settings, workerLists);
  if (!diagnosis) return undefined;
  const changed = await record(batchDb(db), run, diagnosis.reason);
  if (changed && diagnosis.reason) logger?.warn({ ...diagnosis }, `batch run ${diagnosis.runId} stalled: ${diagnosis.reason}`);
  if (changed && !diagnosis.reason) logger?.info({ runId: diagnosis.runId }, 'batch run no longer stalled');
  return diagnosis;
}

/** One pass over every REQUESTED/RUNNING run. */
export async function checkActiveRuns(
  db: AnyDb,
  queues: BatchQueues,
  settings: WatchdogSettings = {},
  logger?: WatchdogLogger,
): Promise<RunDiagnosis[]> {
  const runs = await batchDb(db)
    .selectFrom('batch_job_log')
    .selectAll()
    .where('step_name', 'is', null)
    .where('status', 'in', ['REQUESTED', 'RUNNING'])
    .execute();
  if (runs.length === 0) return [];
  const lists = await listLiveWorkers(queues);
  const out: RunDiagnosis[] = [];
  for (const run of runs) {
    const d = await inspectRun(db, queues, run, settings, lists, logger);
    if (d) out.push(d);
  }
  return out;
}

export interface Watchdog {
  /** Runs one pass now (also what the timer does). */
  check(): Promise<RunDiagnosis[]>;
  stop(): void;
}

/** Checks the active runs every `intervalMs` (default 15 s) in the background; errors are logged, never thrown. */
export function startWatchdog(
  db: AnyDb,
  queues: BatchQueues,
  options: WatchdogSettings & { intervalMs?: number; logger: WatchdogLogger },
): Watchdog {
  const { intervalMs = 15_000, logger, ...settings } = options;
  let busy = false;
  const unobserve = observeBatch(db, queues);
  const check = async () => {
    const found = await checkActiveRuns(db, queues, settings, logger);
    recordWatchdogPass(found.filter((d) => d.reason !== null).length);
    return found;
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    check()
      .catch((err: unknown) => logger.warn({ err }, 'batch watchdog pass failed'))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return {
    check,
    stop: () => {
      clearInterval(timer);
      unobserve();
    },
  };
}
