import { Queue, type JobsOptions } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { JobIdCollisionError } from './errors.js';
import { chunkJobId, stepJobId } from './job-ids.js';
import { parseStepPayload, type StepPayload } from './payload.js';
import {
  queueNameOf,
  resolveSettings,
  type StepName,
  type StepSettings,
  type StepSettingsOverrides,
} from './steps.js';

/** A Redis URL, ioredis options, or an existing ioredis client (shared, not closed by us). */
export type RedisConnection = string | RedisOptions | Redis;

export interface BatchQueuesOptions {
  /** BullMQ key prefix (default BullMQ's own, 'bull'); tests use a random one. */
  prefix?: string;
  /** Retry/timeout overrides of the catalog; producers and workers must use the same values. */
  settings?: StepSettingsOverrides;
}

export interface BatchQueues {
  readonly prefix: string | undefined;
  readonly overrides: StepSettingsOverrides | undefined;
  queue(step: StepName): Queue<StepPayload>;
  settings(step: StepName): StepSettings;
  /**
   * Adds the step job `${runId}-${runKey}-${attempt}-${step}`; a second add for the same run is a no-op.
   * Throws JobIdCollisionError when the id is taken by a job of another run (never silently waits).
   */
  enqueueStep(step: StepName, payload: StepPayload): Promise<void>;
  /** Adds one job per chunk, `${runId}-${runKey}-${attempt}-${step}-${chunkNo}` (same collision check). */
  enqueueChunks(step: StepName, payloads: StepPayload[]): Promise<void>;
  close(): Promise<void>;
}

const DAY_SECONDS = 24 * 3600;

/**
 * Completed jobs are kept for a while so deterministic ids keep de-duplicating late re-adds; the
 * real duplicate protection is in PostgreSQL (step rows and chunk checkpoints), not here.
 */
function jobOptions(settings: StepSettings, jobId: string): JobsOptions {
  return {
    jobId,
    attempts: settings.attempts,
    backoff: { type: 'exponential', delay: settings.backoffMs },
    removeOnComplete: { age: 7 * DAY_SECONDS, count: 50_000 },
    removeOnFail: { age: 30 * DAY_SECONDS },
  };
}

function withoutChunk(payload: StepPayload): StepPayload {
  const copy = { ...payload };
  delete copy.chunk;
  return copy;
}

/** Opens an ioredis client unless one was given; `owned` says whether we must close it. */
export function openRedis(
  connection: RedisConnection,
  options: RedisOptions = {},
): { client: Redis; owned: boolean } {
  if (connection instanceof Redis) return { client: connection, owned: false };
  const client =
    typeof connection === 'string'
      ? new Redis(connection, options)
      : new Redis({ ...connection, ...options });
  // ioredis reconnects by itself; without a listener every failed attempt is printed as "Unhandled error event".
  client.on('error', () => {});
  return { client, owned: true };
}

/**
 * BullMQ answers an add whose id exists with the old job's id and no error, so after adding we read
 * back the stored payloads (one pipelined HGET each) and refuse to go on when one is not ours.
 */
async function assertOwnJobs(
  client: Redis,
  queue: Queue<StepPayload>,
  jobs: ReadonlyArray<{ id: string; data: StepPayload }>,
): Promise<void> {
  for (let i = 0; i < jobs.length; i += 500) {
    const slice = jobs.slice(i, i + 500);
    const pipeline = client.pipeline();
    for (const job of slice) pipeline.hget(queue.toKey(job.id), 'data');
    const results = (await pipeline.exec()) ?? [];
    slice.forEach((job, n) => {
      const [err, raw] = results[n] ?? [null, null];
      if (err || typeof raw !== 'string') return; // already removed: nothing of another run is in the way
      let stored: Partial<StepPayload>;
      try {
        stored = JSON.parse(raw) as Partial<StepPayload>;
      } catch {
        stored = {};
      }
      if (
        stored.runId !== job.data.runId ||
        stored.runKey !== job.data.runKey ||
        stored.attempt !== job.data.attempt
      ) {
        throw new JobIdCollisionError(
          queue.name,
          job.id,
          `run ${String(stored.runId)} key ${String(stored.runKey)} attempt ${String(stored.attempt)}`,
        );
      }
    });
  }
}

/**
 * The producer side: one BullMQ Queue per step, created on first use, all sharing one Redis
 * connection. The run API uses it for the first step; workers use it to enqueue the next step.
 */
export function createQueues(connection: RedisConnection, options: BatchQueuesOptions = {}): BatchQueues {
  const { client, owned } = openRedis(connection);
  const queues = new Map<StepName, Queue<StepPayload>>();

  function queue(step: StepName): Queue<StepPayload> {
    let q = queues.get(step);
    if (!q) {
      q = new Queue<StepPayload>(queueNameOf(step), {
        connection: client,
        ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
      });
      // Connection errors come back as failed commands; an 'error' event without a listener would throw.
      q.on('error', () => {});
      queues.set(step, q);
    }
    return q;
  }

  function settings(step: StepName): StepSettings {
    return resolveSettings(step, options.settings);
  }

  return {
    prefix: options.prefix,
    overrides: options.settings,
    queue,
    settings,
    async enqueueStep(step, payload) {
      const data = parseStepPayload(withoutChunk(payload));
      const id = stepJobId({ runId: data.runId, runKey: data.runKey, attempt: data.attempt }, step);
      await queue(step).add(step, data, jobOptions(settings(step), id));
      await assertOwnJobs(client, queue(step), [{ id, data }]);
    },
    async enqueueChunks(step, payloads) {
      if (payloads.length === 0) return;
      const jobs = payloads.map((p) => {
        const data = parseStepPayload(p);
        if (!data.chunk) throw new Error(`enqueueChunks(${step}): payload without chunk`);
        const id = chunkJobId(
          { runId: data.runId, runKey: data.runKey, attempt: data.attempt },
          step,
          data.chunk.chunkNo,
        );
        return { name: step, data, opts: jobOptions(settings(step), id) };
      });
      await queue(step).addBulk(jobs);
      await assertOwnJobs(
        client,
        queue(step),
        jobs.map((j) => ({ id: j.opts.jobId!, data: j.data })),
      );
    },
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
      queues.clear();
      if (owned) await client.quit().catch(() => client.disconnect());
    },
  };
}
