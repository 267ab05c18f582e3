import type { BatchJobLog, BatchStatus } from './db.js';

/** A run row (step_name NULL) as the API returns it (camelCase; services serialise timestamps). */
export interface BatchRunView {
  jobLogId: number;
  jobName: string;
  jobParams: unknown;
  settleMonth: string;
  companyCode: string | null;
  status: BatchStatus;
  /** Random per run row; part of every BullMQ job id of the run. */
  runKey: string;
  /** 1, then +1 for every restart. */
  runAttempt: number;
  /** Counts steps, not records: total = steps with a row, success = completed (not skipped), skipped, error = failed. */
  totalCount: number;
  successCount: number;
  errorCount: number;
  skippedCount: number;
  errorMessage: string | null;
  startedAt: Date | null;
  endedAt: Date | null;
  durationMs: number | null;
  requestedBy: number | null;
  /** Set while the watchdog considers this active run stalled: why (e.g. no worker for a step is running). */
  watchdogReason: string | null;
  watchdogAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A step row; counts are records processed by the step (summed over its chunks when split). */
export interface BatchStepView {
  jobLogId: number;
  stepName: string;
  stepSeq: number;
  status: BatchStatus;
  skipped: boolean;
  skipReason: string | null;
  totalCount: number;
  successCount: number;
  errorCount: number;
  skippedCount: number;
  errorMessage: string | null;
  startedAt: Date | null;
  endedAt: Date | null;
  durationMs: number | null;
  /** 0 for a step that is not split. */
  chunkCount: number;
  chunksCompleted: number;
  updatedAt: Date;
}

export interface RunStatus {
  run: BatchRunView;
  steps: BatchStepView[];
}

export function toRunView(row: BatchJobLog): BatchRunView {
  return {
    jobLogId: row.job_log_id,
    jobName: row.job_name,
    jobParams: row.job_params,
    settleMonth: row.settle_month,
    companyCode: row.company_code,
    status: row.status,
    runKey: row.run_key,
    runAttempt: row.run_attempt,
    totalCount: row.total_count,
    successCount: row.success_count,
    errorCount: row.error_count,
    skippedCount: row.skipped_count,
    errorMessage: row.error_message,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    durationMs: row.duration_ms,
    requestedBy: row.requested_by,
    watchdogReason: row.watchdog_reason,
    watchdogAt: row.watchdog_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toStepView(row: BatchJobLog, chunkCount: number, chunksCompleted: number): BatchStepView {
  return {
    jobLogId: row.job_log_id,
    stepName: row.step_name ?? '',
    stepSeq: row.step_seq ?? 0,
    status: row.status,
    skipped: row.skipped,
    skipReason: row.skip_reason,
    totalCount: row.total_count,
    successCount: row.success_count,
    errorCount: row.error_count,
    skippedCount: row.skipped_count,
    errorMessage: row.error_message,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    durationMs: row.duration_ms,
    chunkCount,
    chunksCompleted,
    updatedAt: row.updated_at,
  };
}
