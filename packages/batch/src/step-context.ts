import { clientTransaction, type Db } from '@csp/db';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { batchDb } from './db.js';
import { validateCounts, type StepContext, type Trx } from './define-step.js';
import { ChunkAlreadyCompletedError } from './errors.js';
import { lockChunk, markChunkCompleted, type StepCounts } from './job-log.js';
import type { Chunk, StepPayload } from './payload.js';
import type { StepName } from './steps.js';

/** Spec 1.3: progress is logged every 100,000 records. */
export const PROGRESS_LOG_EVERY = 100_000;
const PROGRESS_UPDATE_MS = 500;

export interface ContextInput {
  deps: { db: Db };
  step: StepName;
  job: Job;
  payload: StepPayload;
  log: Logger;
  stepLogId: number;
  signal: AbortSignal;
  chunk: Chunk | undefined;
}

export function createStepContext(input: ContextInput): StepContext {
  const { deps, step, job, payload, log, stepLogId, signal, chunk } = input;
  const runId = payload.runId;
  let processed = 0;
  let lastUpdate = 0;

  function requireChunk(what: string): Chunk {
    if (!chunk) throw new Error(`${what} called outside a chunk job of ${step}`);
    return chunk;
  }

  async function completeChunk(trx: Trx, counts: StepCounts): Promise<void> {
    const c = requireChunk('completeChunk');
    validateCounts(step, counts);
    const changed = await markChunkCompleted(batchDb(trx), runId, step, c.chunkNo, counts);
    if (!changed) throw new ChunkAlreadyCompletedError(runId, step, c.chunkNo);
  }

  async function claimChunk(trx: Trx): Promise<void> {
    const c = requireChunk('claimChunk');
    const status = await lockChunk(batchDb(trx), runId, step, c.chunkNo);
    if (status === undefined)
      throw new Error(`chunk ${c.chunkNo} of ${step} (run ${runId}) has no checkpoint row`);
    if (status === 'COMPLETED') throw new ChunkAlreadyCompletedError(runId, step, c.chunkNo);
  }

  return {
    step,
    runId,
    runAttempt: payload.attempt,
    jobAttempt: job.attemptsMade + 1,
    settleMonth: payload.settleMonth,
    companyCode: payload.companyCode,
    requestId: payload.requestId,
    stepLogId,
    chunk,
    db: deps.db,
    logger: log,
    signal,
    progress(n: number) {
      const before = processed;
      processed += n;
      if (Math.floor(processed / PROGRESS_LOG_EVERY) > Math.floor(before / PROGRESS_LOG_EVERY)) {
        log.info({ processed }, 'progress');
      }
      const now = Date.now();
      if (now - lastUpdate >= PROGRESS_UPDATE_MS) {
        lastUpdate = now;
        job
          .updateProgress({ processed })
          .catch((err: unknown) => log.warn({ err }, 'could not update job progress'));
      }
    },
    completeChunk,
    claimChunk,
    chunkTransaction(work) {
      return clientTransaction(deps.db, async ({ db: trx, client }) => {
        await claimChunk(trx);
        const counts = await work(trx, client);
        await completeChunk(trx, counts);
        return counts;
      });
    },
  };
}
