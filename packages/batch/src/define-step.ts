import type { Database, Db, PgClient } from '@csp/db';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { StepCounts } from './job-log.js';
import type { Chunk } from './payload.js';
import { isStepName, type StepName } from './steps.js';

export type { StepCounts } from './job-log.js';
export type { Chunk } from './payload.js';

/** A Kysely transaction (or the db itself) of the service's Database. */
export type Trx = Kysely<Database>;

/** Everything a step's code gets. No personal data is in here: only ids, the month and handles. */
export interface StepContext {
  readonly step: StepName;
  /** The run row's batch_job_log id. */
  readonly runId: number;
  /** The run's attempt (1, +1 per restart). */
  readonly runAttempt: number;
  /** This job's BullMQ attempt, 1-based. */
  readonly jobAttempt: number;
  readonly settleMonth: string;
  readonly companyCode: string | undefined;
  readonly requestId: string | undefined;
  /** The step row's batch_job_log id. */
  readonly stepLogId: number;
  /** Set for a chunk job of a split step. */
  readonly chunk: Chunk | undefined;
  readonly db: Db;
  /** pino child logger with runId, step, chunkNo and requestId bound. */
  readonly logger: Logger;
  /** Aborted when the attempt times out or the worker is shutting down; pass it on or poll it. */
  readonly signal: AbortSignal;
  /**
   * Reports n more records processed: updates BullMQ job progress and logs a line each time the
   * job's running total crosses a multiple of 100,000.
   */
  progress(n: number): void;
  /**
   * The chunk checkpoint, to be called inside the transaction that writes the chunk's output:
   * marks this chunk COMPLETED with its counts, so output and checkpoint commit together. Throws
   * ChunkAlreadyCompletedError (rolling the transaction back) when another delivery already did it.
   */
  completeChunk(trx: Trx, counts: StepCounts): Promise<void>;
  /**
   * Locks this chunk's checkpoint row for the transaction (call it first): a concurrent duplicate
   * delivery then waits and fails with ChunkAlreadyCompletedError instead of doing the work twice.
   */
  claimChunk(trx: Trx): Promise<void>;
  /**
   * claimChunk + your work + completeChunk in one transaction. The usual way to write a chunk. `client` is the
   * transaction's own connection, for bulk writes Kysely cannot express (COPY FROM STDIN via CopyWriter).
   */
  chunkTransaction(work: (trx: Trx, client: PgClient) => Promise<StepCounts>): Promise<StepCounts>;
}

export interface StepDefinition {
  name: StepName;
  /**
   * Splits the step into chunks (for example agent id ranges of ~2,000). Called once per run attempt
   * while the step has no chunk rows yet; must be deterministic for the run's data.
   */
  plan?: (ctx: StepContext) => Promise<Chunk[]>;
  /** Does the work: the whole step, or one chunk when `plan` is given. Returns record counts. */
  run: (ctx: StepContext, chunk?: Chunk) => Promise<StepCounts>;
  /**
   * Removes this step's previous output for the run's month/company before a fresh start: before
   * every attempt of an unsplit step, and once before `plan` of a split step (never after a chunk
   * has been checkpointed).
   */
  cleanup?: (ctx: StepContext) => Promise<void>;
  /**
   * Chunks of this step one worker process runs at once unless its configuration says otherwise
   * (BATCH_CONCURRENCY, or startStepWorkers' `concurrency`); default 1. For a split step whose chunk
   * keeps node and PostgreSQL busy in turn, two at once keep both busy (chunks are independent by the
   * split step's contract: several worker processes may run them anyway).
   */
  concurrency?: number;
}

/** Declares a step implementation; the name must be one of the catalog's steps. */
export function defineStep(definition: StepDefinition): Readonly<StepDefinition> {
  if (!isStepName(definition.name)) {
    throw new Error(`defineStep: unknown step '${String(definition.name)}'`);
  }
  if (typeof definition.run !== 'function') {
    throw new Error(`defineStep(${definition.name}): run is required`);
  }
  if (definition.concurrency !== undefined && !(Number.isSafeInteger(definition.concurrency) && definition.concurrency >= 1)) {
    throw new Error(`defineStep(${definition.name}): concurrency must be a positive integer`);
  }
  return Object.freeze({ ...definition });
}

export function validateCounts(step: string, counts: StepCounts): StepCounts {
  const values = [counts.total, counts.success, counts.error, counts.skipped ?? 0];
  if (!values.every((v) => Number.isSafeInteger(v) && v >= 0)) {
    throw new Error(`Step ${step} returned invalid counts ${JSON.stringify(counts)}`);
  }
  return counts;
}

export function validatePlan(step: string, chunks: Chunk[]): Chunk[] {
  const seen = new Set<number>();
  for (const c of chunks) {
    if (!Number.isSafeInteger(c.chunkNo) || c.chunkNo < 1 || seen.has(c.chunkNo)) {
      throw new Error(`Step ${step}: plan returned an invalid or duplicate chunkNo ${c.chunkNo}`);
    }
    if (!Number.isSafeInteger(c.from) || !Number.isSafeInteger(c.to) || c.from > c.to) {
      throw new Error(`Step ${step}: chunk ${c.chunkNo} has an invalid range ${c.from}..${c.to}`);
    }
    seen.add(c.chunkNo);
  }
  return chunks;
}

/** Splits [min, max] into consecutive inclusive ranges of `size` ids, numbered from 1. */
export function rangeChunks(min: number, max: number, size: number): Chunk[] {
  if (!(size > 0)) throw new RangeError('rangeChunks: size must be > 0');
  const chunks: Chunk[] = [];
  for (let from = min, chunkNo = 1; from <= max; from += size, chunkNo++) {
    chunks.push({ chunkNo, from, to: Math.min(max, from + size - 1) });
  }
  return chunks;
}
