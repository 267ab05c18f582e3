import type { StepName } from './steps.js';

// BullMQ rejects custom ids containing ':' (its key separator), so the parts are joined with '-'.
// The run attempt is part of the id: a restarted run must not collide with the failed jobs of the
// previous attempt, which BullMQ keeps (a duplicate id would make the add a silent no-op).

export function stepJobId(runId: number, attempt: number, step: StepName): string {
  return `${runId}-${attempt}-${step}`;
}

export function chunkJobId(runId: number, attempt: number, step: StepName, chunkNo: number): string {
  return `${runId}-${attempt}-${step}-${chunkNo}`;
}
