import type { Db } from '@csp/db';
import { context, trace } from '@opentelemetry/api';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { batchDb, type BatchDb, type BatchJobLog } from './db.js';
import { validateCounts, validatePlan, type StepDefinition } from './define-step.js';
import { ChunkAlreadyCompletedError, StepTimeoutError } from './errors.js';
import {
  completeRun,
  completeStep,
  failStepAndRun,
  finishSplitStepIfDone,
  insertChunks,
  insertSkippedStep,
  loadChunks,
  loadRun,
  loadStepRow,
  markChunkCompleted,
  markRunRunning,
  recordAttemptError,
  startChunk,
  upsertStepRunning,
  type StepCounts,
} from './job-log.js';
import { parseStepPayload, type Chunk, type StepPayload } from './payload.js';
import type { BatchQueues } from './queues.js';
import { createStepContext, PROGRESS_LOG_EVERY } from './step-context.js';
import { nextStep, runsInMonth, skipReason, type StepName } from './steps.js';
import { chunkDuration, contextOf, endSpan, recordCounts, stepDuration, stepFailures, tracer } from './telemetry.js';

export interface StepProcessorDeps {
  db: Db;
  queues: BatchQueues;
  logger: Logger;
}

/** What a step job returns (BullMQ keeps it as the job's return value). */
export type StepJobResult =
  | { outcome: 'stale' }
  | { outcome: 'skipped' }
  | { outcome: 'already-completed' }
  | { outcome: 'completed'; counts: StepCounts }
  | { outcome: 'split'; chunks: number }
  | { outcome: 'chunk-completed'; chunkNo: number; stepCompleted: boolean }
  | { outcome: 'chunk-already-completed'; chunkNo: number };

interface JobScope {
  deps: StepProcessorDeps;
  bdb: BatchDb;
  def: StepDefinition;
  step: StepName;
  job: Job;
  payload: StepPayload;
  run: BatchJobLog;
  log: Logger;
  workerSignal: AbortSignal | undefined;
}

function isNamed(err: unknown, name: string): boolean {
  return err instanceof Error && err.name === name;
}

/** BullMQ's own rule: no further attempt after an UnrecoverableError or the last attempt. */
function isFinalAttempt(job: Job, err: unknown): boolean {
  if (err instanceof UnrecoverableError || isNamed(err, 'UnrecoverableError')) return true;
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/** A step or chunk job inside its span (child of the run span carried by the payload), timed and counted. */
export async function processStepJob(
  deps: StepProcessorDeps,
  def: StepDefinition,
  job: Job,
  workerSignal?: AbortSignal,
): Promise<StepJobResult> {
  const data = (job.data ?? {}) as Partial<StepPayload>;
  const chunkNo = data.chunk?.chunkNo;
  const parent = typeof data.trace?.traceparent === 'string' ? contextOf({ trace: data.trace }) : context.active();
  const span = tracer.startSpan(chunkNo ? `chunk ${def.name}` : `step ${def.name}`, {
    attributes: {
      'batch.step': def.name,
      ...(typeof data.runId === 'number' ? { 'batch.run_id': data.runId } : {}),
      ...(chunkNo ? { 'batch.chunk_no': chunkNo } : {}),
      'batch.job_attempt': job.attemptsMade + 1,
    },
  }, parent);
  const started = performance.now();
  try {
    const result = await context.with(trace.setSpan(parent, span), () => processJob(deps, def, job, workerSignal));
    const seconds = (performance.now() - started) / 1000;
    if (chunkNo) chunkDuration.observe({ step: def.name }, seconds);
    else stepDuration.observe({ step: def.name, outcome: result.outcome }, seconds);
    if (result.outcome === 'completed') recordCounts(def.name, result.counts);
    span.setAttribute('batch.outcome', result.outcome);
    endSpan(span);
    return result;
  } catch (err) {
    stepFailures.inc({ step: def.name, final: String(isFinalAttempt(job, err)) });
    endSpan(span, err);
    throw err;
  }
}

/**
 * The wrapper around a step's code: fencing against stale jobs, the step row, skip rules, chunking,
 * checkpoints, the failure bookkeeping, and enqueuing the next step.
 */
async function processJob(
  deps: StepProcessorDeps,
  def: StepDefinition,
  job: Job,
  workerSignal?: AbortSignal,
): Promise<StepJobResult> {
  const step = def.name;
  let payload: StepPayload;
  try {
    payload = parseStepPayload(job.data);
  } catch (err) {
    throw new UnrecoverableError((err as Error).message);
  }
  const log = deps.logger.child({
    runId: payload.runId,
    step,
    ...(payload.chunk ? { chunkNo: payload.chunk.chunkNo } : {}),
    jobId: job.id,
    ...(payload.requestId ? { requestId: payload.requestId } : {}),
  });
  const bdb = batchDb(deps.db);

  const run = await loadRun(bdb, payload.runId);
  if (run && run.run_key !== payload.runKey) {
    // Same run number, another run row (a reset database, a restored backup, another environment).
    log.warn({ runKey: run.run_key, jobRunKey: payload.runKey }, 'job of another run row ignored');
    return { outcome: 'stale' };
  }
  if (
    !run ||
    run.run_attempt !== payload.attempt ||
    (run.status !== 'REQUESTED' && run.status !== 'RUNNING')
  ) {
    // A job of a finished, failed or restarted run (older attempt): its run no longer wants it.
    log.info(
      { runStatus: run?.status, runAttempt: run?.run_attempt, jobAttempt: payload.attempt },
      'stale step job ignored',
    );
    return { outcome: 'stale' };
  }
  if (run.settle_month !== payload.settleMonth) {
    throw new UnrecoverableError(
      `payload settleMonth ${payload.settleMonth} does not match run ${run.settle_month}`,
    );
  }
  await markRunRunning(bdb, run.job_log_id, run.run_attempt);

  const scope: JobScope = { deps, bdb, def, step, job, payload, run, log, workerSignal };
  try {
    return payload.chunk ? await processChunk(scope, payload.chunk) : await processStep(scope);
  } catch (err) {
    await recordFailure(scope, err);
    throw err;
  }
}

async function recordFailure(scope: JobScope, err: unknown): Promise<void> {
  const { bdb, job, payload, step, log } = scope;
  const message = err instanceof Error ? err.message : String(err);
  const chunkNo = payload.chunk?.chunkNo;
  const attempts = job.opts.attempts ?? 1;
  try {
    if (isFinalAttempt(job, err)) {
      log.error({ err, attempt: job.attemptsMade + 1, attempts }, 'step failed; run failed');
      await failStepAndRun(bdb, { runId: payload.runId, attempt: payload.attempt }, step, message, chunkNo);
    } else {
      log.warn({ err, attempt: job.attemptsMade + 1, attempts }, 'step attempt failed; will retry');
      await recordAttemptError(
        bdb,
        payload.runId,
        payload.attempt,
        step,
        `attempt ${job.attemptsMade + 1}/${attempts}: ${message}`,
        chunkNo,
      );
    }
  } catch (bookkeepingError) {
    // The job still fails with the original error; BullMQ retries or fails it as usual.
    log.error({ err: bookkeepingError }, 'could not record the step failure');
  }
}

function basePayload(payload: StepPayload): StepPayload {
  return {
    runId: payload.runId,
    runKey: payload.runKey,
    attempt: payload.attempt,
    settleMonth: payload.settleMonth,
    ...(payload.companyCode ? { companyCode: payload.companyCode } : {}),
    ...(payload.requestId ? { requestId: payload.requestId } : {}),
    ...(payload.trace ? { trace: payload.trace } : {}),
  };
}

/** Enqueues the next step (deterministic job id, so a repeat is a no-op) or completes the run. */
async function advance(scope: JobScope): Promise<void> {
  const next = nextStep(scope.step);
  if (next) {
    await scope.deps.queues.enqueueStep(next, basePayload(scope.payload));
    scope.log.debug({ next }, 'next step enqueued');
  } else if (await completeRun(scope.bdb, scope.payload.runId, scope.payload.attempt)) {
    scope.log.info('settlement run completed');
  }
}

/** Runs `work` with the step's timeout; the context's signal is aborted on timeout. */
async function withTimeout<T>(
  scope: JobScope,
  controller: AbortController,
  work: () => Promise<T>,
): Promise<T> {
  const { timeoutMs } = scope.deps.queues.settings(scope.step);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new StepTimeoutError(scope.step, timeoutMs);
      controller.abort(err);
      reject(err);
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function attemptSignal(scope: JobScope): { controller: AbortController; signal: AbortSignal } {
  const controller = new AbortController();
  const signal = scope.workerSignal
    ? AbortSignal.any([controller.signal, scope.workerSignal])
    : controller.signal;
  return { controller, signal };
}

/** The step job itself (no chunk in the payload). */
async function processStep(scope: JobScope): Promise<StepJobResult> {
  const { bdb, def, step, payload, run, log } = scope;
  if (!runsInMonth(step, payload.settleMonth)) {
    await insertSkippedStep(bdb, run, step, skipReason(step));
    log.info({ reason: skipReason(step) }, 'step skipped');
    await advance(scope);
    return { outcome: 'skipped' };
  }

  const stepRow = await upsertStepRunning(bdb, run, step);
  if (stepRow.status === 'COMPLETED') {
    // Redelivered after it completed (for example the worker died before enqueuing the next step).
    await advance(scope);
    return { outcome: 'already-completed' };
  }

  const { controller, signal } = attemptSignal(scope);
  const ctx = createStepContext({ ...scope, stepLogId: stepRow.job_log_id, signal, chunk: undefined });

  if (!def.plan) {
    log.info('step started');
    const counts = await withTimeout(scope, controller, async () => {
      await def.cleanup?.(ctx);
      return validateCounts(step, await def.run(ctx));
    });
    await completeStep(bdb, stepRow.job_log_id, counts);
    log.info({ counts }, 'step completed');
    await advance(scope);
    return { outcome: 'completed', counts };
  }

  const plan = def.plan;
  let chunks = await loadChunks(bdb, run.job_log_id, step);
  if (chunks.length === 0) {
    const planned = await withTimeout(scope, controller, async () => {
      await def.cleanup?.(ctx);
      return validatePlan(step, await plan(ctx));
    });
    await insertChunks(bdb, run.job_log_id, step, planned);
    chunks = await loadChunks(bdb, run.job_log_id, step);
    log.info({ chunks: chunks.length }, 'step split into chunks');
  }
  const open = chunks.filter((c) => c.status !== 'COMPLETED');
  await scope.deps.queues.enqueueChunks(
    step,
    open.map((c) => ({
      ...basePayload(payload),
      chunk: { chunkNo: c.chunk_no, from: c.range_start, to: c.range_end },
    })),
  );
  // No chunks at all, or all of them checkpointed before (a restart): complete here.
  const outcome = await finishSplitStepIfDone(bdb, stepRow.job_log_id, run.job_log_id, step);
  if (outcome.kind === 'completed-now') {
    log.info({ counts: outcome.totals }, 'step completed');
    await advance(scope);
  }
  return { outcome: 'split', chunks: chunks.length };
}

/** One chunk job of a split step. */
async function processChunk(scope: JobScope, chunk: Chunk): Promise<StepJobResult> {
  const { bdb, def, step, run, log } = scope;
  const stepRow = await loadStepRow(bdb, run.job_log_id, step);
  if (!stepRow)
    throw new Error(`step row ${step} of run ${run.job_log_id} not found for chunk ${chunk.chunkNo}`);
  if (stepRow.status === 'COMPLETED') {
    await advance(scope);
    return { outcome: 'chunk-already-completed', chunkNo: chunk.chunkNo };
  }
  if (stepRow.status !== 'RUNNING') {
    log.info({ stepStatus: stepRow.status }, 'chunk of a step that is not running ignored');
    return { outcome: 'stale' };
  }

  const started = await startChunk(bdb, run.job_log_id, step, chunk.chunkNo);
  if (!started) {
    log.info('chunk already completed; skipped');
    await finishChunkedStep(scope, stepRow.job_log_id);
    return { outcome: 'chunk-already-completed', chunkNo: chunk.chunkNo };
  }

  const { controller, signal } = attemptSignal(scope);
  const ctx = createStepContext({ ...scope, stepLogId: stepRow.job_log_id, signal, chunk });
  try {
    const counts = await withTimeout(scope, controller, async () =>
      validateCounts(step, await def.run(ctx, chunk)),
    );
    // No-op when the step's code already checkpointed inside its own transaction (the normal case).
    await markChunkCompleted(bdb, run.job_log_id, step, chunk.chunkNo, counts);
    recordCounts(step, counts);
  } catch (err) {
    if (!(err instanceof ChunkAlreadyCompletedError || isNamed(err, 'ChunkAlreadyCompletedError'))) throw err;
    log.info('chunk completed by another delivery; skipped');
    await finishChunkedStep(scope, stepRow.job_log_id);
    return { outcome: 'chunk-already-completed', chunkNo: chunk.chunkNo };
  }
  const stepCompleted = await finishChunkedStep(scope, stepRow.job_log_id);
  return { outcome: 'chunk-completed', chunkNo: chunk.chunkNo, stepCompleted };
}

/** Rolls chunk counts up to the step row; the one caller that completes the step advances the run. */
async function finishChunkedStep(scope: JobScope, stepLogId: number): Promise<boolean> {
  const outcome = await finishSplitStepIfDone(scope.bdb, stepLogId, scope.run.job_log_id, scope.step);
  if (outcome.kind === 'completed-now' || outcome.kind === 'pending') {
    const before = Math.floor(outcome.previousTotal / PROGRESS_LOG_EVERY);
    const after = Math.floor(outcome.totals.total / PROGRESS_LOG_EVERY);
    if (after > before) scope.log.info({ processed: outcome.totals.total }, 'step progress');
  }
  if (outcome.kind !== 'completed-now') return false;
  scope.log.info({ counts: outcome.totals }, 'step completed');
  await advance(scope);
  return true;
}
