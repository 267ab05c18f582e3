import type { StepName } from './steps.js';

// BullMQ rejects custom ids containing ':' (its key separator), so the parts are joined with '-'.
// The run row's random key makes an id unique to that row: a reset database or a restored backup
// starts its run ids at an old number again, and an id of number + attempt alone would meet the
// finished job of the older run, which BullMQ keeps (the add would then be a silent no-op).
// The attempt keeps a restarted run clear of its own failed jobs of the previous attempt.

export interface JobRunRef {
  runId: number;
  runKey: string;
  attempt: number;
}

export function stepJobId(run: JobRunRef, step: StepName): string {
  return `${run.runId}-${run.runKey}-${run.attempt}-${step}`;
}

export function chunkJobId(run: JobRunRef, step: StepName, chunkNo: number): string {
  return `${stepJobId(run, step)}-${chunkNo}`;
}
