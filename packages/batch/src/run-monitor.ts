import type { Database, Db } from '@csp/db';
import { sql, type Kysely } from 'kysely';
import { batchDb } from './db.js';
import { stepJobId } from './job-ids.js';
import { loadRun } from './job-log.js';
import { listLiveWorkers, withTimeout, type StepWorkerList } from './live-workers.js';
import type { BatchQueues } from './queues.js';
import { getRunStatus } from './run.js';
import { isStepName } from './steps.js';
import type { BatchStepView, RunStatus } from './views.js';
import { inspectRun, type RunDiagnosis, type WatchdogLogger, type WatchdogSettings } from './watchdog.js';

type AnyDb = Db | Kysely<Database>;

/** Progress a person can read: how far, how fast, how long still (split steps). */
export interface StepProgress {
  /** 'chunks' for a split step (processed/total = chunks done/planned), else 'records'. */
  unit: 'chunks' | 'records';
  processed: number;
  /** Chunks planned; for an unsplit step the records once it has completed (unknown before). */
  total: number | null;
  /** Records looked at so far (summed over the checkpointed chunks of a split step). */
  records: number;
  /** Records per second since the step started; null before a second has passed. */
  ratePerSecond: number | null;
  /** Estimated seconds left of a running split step (elapsed x chunks left / chunks done); 0 when done. */
  etaSeconds: number | null;
  /** 0..100, for split steps and completed steps; null when unknown. */
  percent: number | null;
}

export interface MonitoredStep extends BatchStepView {
  progress: StepProgress;
}

export interface RunMonitor {
  run: RunStatus['run'];
  steps: MonitoredStep[];
  /** BullMQ's live workers per step queue. */
  workers: StepWorkerList[];
  /** The watchdog's view of an active run (undefined for a finished one). */
  watchdog: RunDiagnosis | undefined;
}

/** Progress of one step at `now` (the database's clock); `liveRecords` = BullMQ job progress of a running unsplit step. */
export function stepProgress(step: BatchStepView, now: Date, liveRecords?: number): StepProgress {
  const elapsedMs =
    step.status === 'COMPLETED' || step.status === 'FAILED'
      ? Number(step.durationMs ?? 0)
      : step.startedAt
        ? Math.max(0, now.getTime() - step.startedAt.getTime())
        : 0;
  const done = step.status === 'COMPLETED';
  const records = done || step.chunkCount > 0 ? Number(step.totalCount) : (liveRecords ?? 0);
  const ratePerSecond = elapsedMs >= 1000 ? Math.round((records * 1000) / elapsedMs) : null;
  if (step.chunkCount > 0) {
    const left = step.chunkCount - step.chunksCompleted;
    const etaSeconds = done
      ? 0
      : step.status === 'RUNNING' && step.chunksCompleted > 0
        ? Math.round((elapsedMs * left) / step.chunksCompleted / 1000)
        : null;
    return {
      unit: 'chunks',
      processed: step.chunksCompleted,
      total: step.chunkCount,
      records,
      ratePerSecond,
      etaSeconds,
      percent: Math.floor((step.chunksCompleted * 100) / step.chunkCount),
    };
  }
  return {
    unit: 'records',
    processed: records,
    total: done ? records : null,
    records,
    ratePerSecond,
    etaSeconds: done ? 0 : null,
    percent: done ? 100 : null,
  };
}

async function liveJobRecords(queues: BatchQueues, status: RunStatus, step: BatchStepView): Promise<number | undefined> {
  if (step.status !== 'RUNNING' || step.chunkCount > 0 || !isStepName(step.stepName)) return undefined;
  try {
    const run = status.run;
    const job = await withTimeout(
      queues
        .queue(step.stepName)
        .getJob(stepJobId({ runId: Number(run.jobLogId), runKey: run.runKey, attempt: Number(run.runAttempt) }, step.stepName)),
      2_000,
    );
    const progress = job?.progress as { processed?: unknown } | undefined;
    return typeof progress?.processed === 'number' ? progress.processed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Everything the status endpoint shows: the run, its steps with progress, the live workers of every
 * step queue and, for an active run, the watchdog's diagnosis (stored on the run row as it is made).
 */
export async function describeRun(
  db: AnyDb,
  queues: BatchQueues,
  runId: number,
  options: { watchdog?: WatchdogSettings; logger?: WatchdogLogger } = {},
): Promise<RunMonitor | undefined> {
  const workers = await listLiveWorkers(queues);
  const row = await loadRun(batchDb(db), runId);
  if (!row) return undefined;
  const watchdog = await inspectRun(db, queues, row, options.watchdog, workers, options.logger);
  const status = await getRunStatus(db, runId);
  if (!status) return undefined;
  const { rows } = await sql<{ now: Date }>`SELECT now() AS now`.execute(db);
  const now = rows[0]!.now;
  const steps = await Promise.all(
    status.steps.map(async (s) => ({ ...s, progress: stepProgress(s, now, await liveJobRecords(queues, status, s)) })),
  );
  // the run may have ended between the diagnosis and this read: a finished run has nothing to diagnose
  const active = status.run.status === 'REQUESTED' || status.run.status === 'RUNNING';
  return { run: status.run, steps, workers, watchdog: active ? watchdog : undefined };
}
