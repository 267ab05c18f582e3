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

/** BullMQ names a worker's connection `<prefix>:<base64 queue name>` or `...:w:<worker name>`. */
function workerClientName(prefix: string | undefined, queue: string): string {
  return `${prefix ?? 'bull'}:${Buffer.from(queue).toString('base64')}`;
}

/** `CLIENT LIST` output -> the `name=` field of every connection (empty names dropped). */
function clientNames(list: string): string[] {
  const names: string[] = [];
  for (const line of list.split(/\r?\n/)) {
    const match = /(?:^| )name=([^ ]*)/.exec(line);
    if (match?.[1]) names.push(match[1]);
  }
  return names;
}

/**
 * BullMQ's worker list per step queue (what Queue.getWorkers reports), from ONE `CLIENT LIST` for all
 * steps instead of one per queue; when Redis fails or refuses CLIENT LIST every step gets `workers: null`.
 */
export async function listLiveWorkers(
  queues: BatchQueues,
  steps: readonly StepName[] = STEP_NAMES,
): Promise<StepWorkerList[]> {
  let names: string[] | null;
  try {
    const first = steps[0];
    if (first === undefined) return [];
    const client = await withTimeout(queues.queue(first).client, 2_000);
    names = clientNames(await withTimeout(client.clientList(), 2_000));
  } catch {
    names = null;
  }
  return steps.map((step) => {
    const queue = queueNameOf(step);
    if (names === null) return { step, queue, workers: null, names: [] };
    const base = workerClientName(queues.prefix, queue);
    const mine = names.filter((n) => n === base || n.startsWith(`${base}:w:`));
    const workerNames = mine.map((n) => (n.startsWith(`${base}:w:`) ? n.slice(base.length + 3) : 'unnamed'));
    return { step, queue, workers: mine.length, names: workerNames };
  });
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
