import { hostname } from 'node:os';
import type { Database, Db } from '@csp/db';
import { trace } from '@opentelemetry/api';
import { Worker } from 'bullmq';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { StepDefinition } from './define-step.js';
import type { StepPayload } from './payload.js';
import { createQueues, openRedis, type BatchQueues, type RedisConnection } from './queues.js';
import { processStepJob, type StepJobResult } from './step-processor.js';
import { liveWorkers } from './telemetry.js';
import {
  STEP_CATALOG,
  STEP_NAMES,
  queueNameOf,
  stepsOwnedBy,
  type StepName,
  type StepService,
  type StepSettingsOverrides,
} from './steps.js';

export interface StartStepWorkersOptions {
  /** Redis URL or ioredis options (a connection with maxRetriesPerRequest: null is opened), or a client. */
  connection: RedisConnection;
  prefix?: string;
  db: Db | Kysely<Database>;
  /** The step implementations this process has. */
  steps: readonly StepDefinition[];
  /** Restrict to these steps (from BATCH_STEPS via parseStepList); default: every step of `service`, or every given definition. */
  only?: readonly StepName[];
  /** The hosting service: its catalog steps are the default selection and others are refused. */
  service?: StepService;
  /** Jobs one worker runs in parallel: one number, or per step. Default: the step's own `concurrency` (else 1). */
  concurrency?: number | Partial<Record<StepName, number>>;
  /** BullMQ lock duration (ms, default 30,000). A killed worker's job is picked up after ~2 x stalledInterval. */
  lockDuration?: number;
  /** BullMQ stalled check interval (ms, default 30,000). */
  stalledInterval?: number;
  /** Shown in the queues' worker lists (default `<host>.<pid>`); no spaces. */
  workerName?: string;
  /** Stalls a job survives before BullMQ fails it (default 2). */
  maxStalledCount?: number;
  /** Retry/timeout overrides; must match the producer's (createQueues) overrides. */
  settings?: StepSettingsOverrides;
  logger: Logger;
  /** Close gracefully on SIGTERM/SIGINT and exit the process (default true; tests pass false). */
  handleSignals?: boolean;
  /** Called by close() after the workers have stopped (for example to end the pg pool). */
  onClose?: () => Promise<void>;
}

export interface StepWorkers {
  readonly steps: readonly StepName[];
  readonly workers: ReadonlyMap<StepName, Worker<StepPayload, StepJobResult>>;
  /** The producer used to enqueue next steps (shares the workers' connection). */
  readonly queues: BatchQueues;
  /** Stops taking jobs, waits for the running ones, closes connections. Idempotent. */
  close(): Promise<void>;
}

/** Which steps this process works on; throws (start-up fails) on any inconsistency. */
export function selectSteps(
  definitions: readonly StepDefinition[],
  only: readonly StepName[] | undefined,
  service: StepService | undefined,
): StepName[] {
  const defined = new Set<StepName>();
  for (const def of definitions) {
    if (defined.has(def.name)) throw new Error(`Batch step ${def.name} is defined twice`);
    defined.add(def.name);
  }
  const candidates =
    only && only.length > 0 ? [...new Set(only)] : service ? stepsOwnedBy(service) : [...defined];
  if (service) {
    const foreign = candidates.filter((s) => STEP_CATALOG[s].service !== service);
    if (foreign.length > 0) {
      throw new Error(
        `Batch step(s) ${foreign.map((s) => `${s} (hosted by ${STEP_CATALOG[s].service})`).join(', ')} cannot run in ${service}`,
      );
    }
  }
  const missing = candidates.filter((s) => !defined.has(s));
  if (missing.length > 0) throw new Error(`No handler for batch step(s): ${missing.join(', ')}`);
  if (candidates.length === 0) throw new Error('No batch steps selected');
  return STEP_NAMES.filter((s) => candidates.includes(s));
}

/**
 * Starts one BullMQ Worker per selected step. Each step job runs through the defineStep wrapper
 * (step rows, chunks, checkpoints, retries, next-step enqueue). Scale a step by starting more
 * processes with BATCH_STEPS=<that step>.
 */
export async function startStepWorkers(options: StartStepWorkersOptions): Promise<StepWorkers> {
  const selected = selectSteps(options.steps, options.only, options.service);
  const byName = new Map(options.steps.map((d) => [d.name, d]));
  const logger = options.logger.child({ component: 'batch-worker' });

  // Workers block on Redis: ioredis must retry forever instead of failing commands (BullMQ rule).
  const { client, owned } = openRedis(options.connection, { maxRetriesPerRequest: null });
  const queues = createQueues(client, { prefix: options.prefix, settings: options.settings });
  const deps = { db: options.db as Db, queues, logger };

  const workerName = (options.workerName ?? `${hostname()}.${process.pid}`).replace(/\s+/g, '_');
  const workers = new Map<StepName, Worker<StepPayload, StepJobResult>>();
  for (const step of selected) {
    const def = byName.get(step)!;
    const concurrency =
      typeof options.concurrency === 'number' ? options.concurrency : (options.concurrency?.[step] ?? def.concurrency ?? 1);
    const worker = new Worker<StepPayload, StepJobResult>(
      queueNameOf(step),
      (job, _token, signal) => processStepJob(deps, def, job, signal),
      {
        connection: client,
        concurrency,
        maxStalledCount: options.maxStalledCount ?? 2,
        name: workerName,
        // BullMQ takes an explicit undefined as a value, so unset options are left out.
        ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
        ...(options.lockDuration !== undefined ? { lockDuration: options.lockDuration } : {}),
        ...(options.stalledInterval !== undefined ? { stalledInterval: options.stalledInterval } : {}),
      },
    );
    worker.on('error', (err) => logger.error({ err, step }, 'batch worker error'));
    workers.set(step, worker);
    liveWorkers.inc({ step });
  }
  await Promise.all([...workers.values()].map((w) => w.waitUntilReady()));
  logger.info({ steps: selected, prefix: options.prefix }, 'batch step workers started');

  let closing: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'closing batch step workers');
    void close()
      .then(
        () => 0,
        (err: unknown) => {
          logger.error({ err }, 'batch step workers did not close cleanly');
          return 1;
        },
      )
      // the spans of the last chunks are still in the batch span processor: export them before exiting
      .then((code) => flushSpans(logger).then(() => process.exit(code)));
  };
  function close(): Promise<void> {
    closing ??= (async () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      await Promise.all([...workers.values()].map((w) => w.close()));
      for (const step of workers.keys()) liveWorkers.dec({ step });
      await queues.close();
      if (owned) await client.quit().catch(() => client.disconnect());
      await options.onClose?.();
      logger.info('batch step workers closed');
    })();
    return closing;
  }
  if (options.handleSignals !== false) {
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }

  return { steps: selected, workers, queues, close };
}

/** How long an exiting worker waits for its last spans to leave (a collector that is down must not hold the exit). */
const FLUSH_TIMEOUT_MS = 5_000;

/**
 * Exports the spans still queued in the tracing SDK's batch processor, as the service kit's
 * flushTracing() does (this package does not depend on the kit): through the global tracer provider,
 * a no-op when tracing is off. Never rejects.
 */
export async function flushSpans(logger: Pick<Logger, 'warn'>): Promise<void> {
  const provider = trace.getTracerProvider() as { getDelegate?(): { forceFlush?(): Promise<void> } };
  const flushing = provider.getDelegate?.().forceFlush?.();
  if (!flushing) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      logger.warn({ timeoutMs: FLUSH_TIMEOUT_MS }, 'tracing flush timed out on exit');
      resolve();
    }, FLUSH_TIMEOUT_MS);
  });
  await Promise.race([flushing.catch((err: unknown) => logger.warn({ err }, 'tracing flush failed on exit')), timeout]);
  clearTimeout(timer);
}
