import type { BatchQueues } from './queues.js';
import { STEP_NAMES, queueNameOf, type StepName } from './steps.js';

/** The workers BullMQ knows for one step's queue (its blocking connections, from CLIENT LIST). */
export interface StepWorkerList {
  step: StepName;
  queue: string;
  /** null when Redis does not answer or does not allow CLIENT LIST (some managed Redis). */
  workers: number | null;
  /** Worker names (`<host>.<pid>` unless configured otherwise). */
  names: string[];
}

/** BullMQ's worker list per step queue (Queue.getWorkers); a failing queue gives `workers: null`. */
export async function listLiveWorkers(
  queues: BatchQueues,
  steps: readonly StepName[] = STEP_NAMES,
): Promise<StepWorkerList[]> {
  return Promise.all(
    steps.map(async (step) => {
      const queue = queueNameOf(step);
      try {
        const clients = await withTimeout(queues.queue(step).getWorkers(), 2_000);
        if (clients.some((c) => c.name === 'GCP does not support client list')) {
          return { step, queue, workers: null, names: [] };
        }
        const names = clients.map((c) => {
          const raw = c.rawname ?? '';
          const marker = raw.indexOf(':w:');
          return marker >= 0 ? raw.slice(marker + 3) : (c.addr ?? 'unnamed');
        });
        return { step, queue, workers: clients.length, names };
      } catch {
        return { step, queue, workers: null, names: [] };
      }
    }),
  );
}

/** Rejects after `ms`: a producer connection retries forever while Redis is down, a status call must not. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
