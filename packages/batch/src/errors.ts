/** A run of the same job name is already REQUESTED or RUNNING. Services map it to BATCH_RUNNING (B010). */
export class BatchRunningError extends Error {
  readonly code = 'BATCH_RUNNING';
  constructor(readonly jobName: string) {
    super(`A ${jobName} run is already requested or running`);
    this.name = 'BatchRunningError';
  }
}

export class RunNotFoundError extends Error {
  readonly code = 'NOT_FOUND';
  constructor(readonly runId: number) {
    super(`Batch run ${runId} not found`);
    this.name = 'RunNotFoundError';
  }
}

/** restartRun on a run that is not FAILED, failRun on a run that is not active. Services map it to BAD_REQUEST. */
export class RunStateError extends Error {
  readonly code = 'BAD_REQUEST';
  constructor(
    readonly runId: number,
    readonly status: string,
    expected: string,
  ) {
    super(`Batch run ${runId} is ${status}; expected ${expected}`);
    this.name = 'RunStateError';
  }
}

/**
 * Thrown by ctx.completeChunk / ctx.claimChunk when another delivery of the same chunk already
 * committed it. It rolls back the caller's transaction; the step wrapper treats it as "done".
 */
export class ChunkAlreadyCompletedError extends Error {
  constructor(
    readonly runId: number,
    readonly step: string,
    readonly chunkNo: number,
  ) {
    super(`Chunk ${chunkNo} of ${step} (run ${runId}) is already completed`);
    this.name = 'ChunkAlreadyCompletedError';
  }
}

/** One attempt of a step or chunk ran longer than the step's timeoutMs (retried like any transient error). */
export class StepTimeoutError extends Error {
  constructor(
    readonly step: string,
    readonly timeoutMs: number,
  ) {
    super(`Step ${step} timed out after ${timeoutMs} ms`);
    this.name = 'StepTimeoutError';
  }
}

/** PostgreSQL unique_violation on the given constraint or index. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; constraint?: unknown };
  return e.code === '23505' && e.constraint === constraint;
}

/**
 * An add was deduplicated by BullMQ against a job that belongs to another run row (its payload carries
 * another run key or attempt). The launcher fails the run loudly instead of waiting for a job that
 * will never run.
 */
export class JobIdCollisionError extends Error {
  constructor(
    readonly queueName: string,
    readonly jobId: string,
    readonly foreign: string,
  ) {
    super(`BullMQ job id ${jobId} in ${queueName} already belongs to another run (${foreign}); the job was not added`);
    this.name = 'JobIdCollisionError';
  }
}
