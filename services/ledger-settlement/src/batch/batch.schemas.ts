import { z } from 'zod';
import type { BatchRunView, MonitoredStep, RunDiagnosis, StepWorkerList } from '@csp/batch';
import { isoTimestamp, listQuery, zId, zSettleMonth } from '@csp/service-kit';

export const RUN_STATUSES = ['REQUESTED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;

export const runQuery = z.object({
  settleMonth: zSettleMonth,
  companyCode: z.string().trim().min(1).max(20).optional(),
});

export const statusQuery = z.object({ jobLogId: zId.optional() });

export const runsQuery = listQuery([], {
  settleMonth: zSettleMonth.optional(),
  status: z.enum(RUN_STATUSES).optional(),
});

export const runIdParams = z.object({ id: zId });

export const failBody = z.object({ reason: z.string().trim().min(1).max(500) });

/** Counts and timing of a run row and of a step row (batch_job_log). */
const countsAndTimes = {
  totalCount: z.number().int(),
  successCount: z.number().int(),
  errorCount: z.number().int(),
  skippedCount: z.number().int(),
  errorMessage: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  durationMs: z.number().int().nullable(),
};

export const runResp = z.object({
  jobLogId: z.number().int(),
  jobName: z.string(),
  settleMonth: z.string(),
  companyCode: z.string().nullable(),
  status: z.enum(RUN_STATUSES),
  /** Random per run row; part of every BullMQ job id of the run. */
  runKey: z.string(),
  runAttempt: z.number().int(),
  /** Steps with a row / completed with work / skipped / failed. */
  ...countsAndTimes,
  requestedBy: z.number().int().nullable(),
  /** Set while the watchdog considers the active run stalled: why (for example no worker for a step). */
  watchdogReason: z.string().nullable(),
  watchdogAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const progressResp = z.object({
  /** chunks (split step: processed/total = chunks done/planned) or records. */
  unit: z.enum(['chunks', 'records']),
  processed: z.number().int(),
  total: z.number().int().nullable(),
  records: z.number().int(),
  ratePerSecond: z.number().int().nullable(),
  /** Seconds left of a running split step, from the pace of its chunks so far. */
  etaSeconds: z.number().int().nullable(),
  percent: z.number().int().nullable(),
});

export const workersResp = z.object({
  step: z.string(),
  queue: z.string(),
  /** Live BullMQ workers of the step's queue; null when Redis cannot tell. */
  workers: z.number().int().nullable(),
  names: z.array(z.string()),
});

export const watchdogResp = z.object({
  step: z.string(),
  workers: z.number().int().nullable(),
  idleMs: z.number().int(),
  reason: z.string().nullable(),
});

export const stepResp = z.object({
  jobLogId: z.number().int(),
  stepName: z.string(),
  stepSeq: z.number().int(),
  status: z.enum(RUN_STATUSES),
  skipped: z.boolean(),
  skipReason: z.string().nullable(),
  /** Records of the step (summed over chunks). */
  ...countsAndTimes,
  chunkCount: z.number().int(),
  chunksCompleted: z.number().int(),
  /** successCount per second of durationMs; null while running or when too short to measure. */
  rowsPerSecond: z.number().int().nullable(),
  progress: progressResp,
  /** Live workers of this step's queue. */
  workers: z.number().int().nullable(),
});

export const statusResp = z.object({
  run: runResp,
  steps: z.array(stepResp),
  /** Every step queue with its live workers (BullMQ worker list). */
  workers: z.array(workersResp),
  /** The watchdog's view of an active run; null once the run has ended. */
  watchdog: watchdogResp.nullable(),
});

// int8 columns arrive as numbers or strings depending on the pool's type parser.
const num = (v: number | string) => Number(v);
const numOrNull = (v: number | string | null) => (v === null ? null : Number(v));

export function toRunResp(v: BatchRunView): z.input<typeof runResp> {
  return {
    jobLogId: num(v.jobLogId),
    jobName: v.jobName,
    settleMonth: v.settleMonth,
    companyCode: v.companyCode,
    status: v.status,
    runKey: v.runKey,
    runAttempt: num(v.runAttempt),
    totalCount: num(v.totalCount),
    successCount: num(v.successCount),
    errorCount: num(v.errorCount),
    skippedCount: num(v.skippedCount),
    errorMessage: v.errorMessage,
    startedAt: isoTimestamp(v.startedAt),
    endedAt: isoTimestamp(v.endedAt),
    durationMs: numOrNull(v.durationMs),
    requestedBy: numOrNull(v.requestedBy),
    watchdogReason: v.watchdogReason,
    watchdogAt: isoTimestamp(v.watchdogAt),
    createdAt: isoTimestamp(v.createdAt)!,
    updatedAt: isoTimestamp(v.updatedAt)!,
  };
}

export function toStepResp(v: MonitoredStep, workers: readonly StepWorkerList[]): z.input<typeof stepResp> {
  const durationMs = numOrNull(v.durationMs);
  const success = num(v.successCount);
  return {
    jobLogId: num(v.jobLogId),
    stepName: v.stepName,
    stepSeq: num(v.stepSeq),
    status: v.status,
    skipped: v.skipped,
    skipReason: v.skipReason,
    totalCount: num(v.totalCount),
    successCount: success,
    errorCount: num(v.errorCount),
    skippedCount: num(v.skippedCount),
    errorMessage: v.errorMessage,
    startedAt: isoTimestamp(v.startedAt),
    endedAt: isoTimestamp(v.endedAt),
    durationMs,
    chunkCount: v.chunkCount,
    chunksCompleted: v.chunksCompleted,
    rowsPerSecond:
      v.status === 'COMPLETED' && durationMs !== null && durationMs > 0
        ? Math.round((success * 1000) / durationMs)
        : null,
    progress: v.progress,
    workers: workers.find((w) => w.step === v.stepName)?.workers ?? null,
  };
}

export function toWatchdogResp(d: RunDiagnosis | undefined): z.input<typeof watchdogResp> | null {
  return d ? { step: d.step, workers: d.workers, idleMs: Math.round(d.idleMs), reason: d.reason } : null;
}
