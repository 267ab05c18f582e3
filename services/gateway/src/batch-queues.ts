import { createQueues, listLiveWorkers, type BatchQueues, type StepWorkerList } from '@csp/batch/queues';
import type { FastifyInstance } from 'fastify';

export interface BatchHealth {
  /** UP when Redis answers; the worker counts are null while it does not. */
  redis: 'UP' | 'DOWN';
  /** Live BullMQ workers per settlement step queue. */
  steps: StepWorkerList[];
}

/**
 * The settlement queues seen from the gateway (health and the /ops dashboard). Connecting is lazy and
 * never fails a request: a Redis that is down shows as DOWN.
 */
export function createBatchQueues(app: FastifyInstance, redisUrl: string, prefix: string | undefined): BatchQueues {
  const queues = createQueues({ ...redisOptions(redisUrl), maxRetriesPerRequest: 1 }, prefix ? { prefix } : {});
  app.addHook('onClose', async () => queues.close());
  return queues;
}

function redisOptions(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    db: Number(u.pathname.replace('/', '') || 0),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

export async function batchHealth(queues: BatchQueues): Promise<BatchHealth> {
  const steps = await listLiveWorkers(queues);
  return { redis: steps.every((s) => s.workers === null) ? 'DOWN' : 'UP', steps };
}
