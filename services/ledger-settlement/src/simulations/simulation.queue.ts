import type { BatchQueues } from '@csp/batch';
import type { Db } from '@csp/db';
import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import { runSimulation, type SimulationJobDeps } from './simulation.job.js';

/** The simulations' own BullMQ queue (same prefix as the settlement queues): one job per simulation run. */
export const SIMULATION_QUEUE = 'simulation';

export interface SimulationJob {
  simulationId: number;
}

/** Producer on the batch queues' Redis connection and prefix. */
export function simulationQueue(queues: BatchQueues): Queue<SimulationJob> {
  const connection = queues.queue('calcRecruit').opts.connection;
  return new Queue<SimulationJob>(SIMULATION_QUEUE, {
    connection,
    ...(queues.prefix !== undefined ? { prefix: queues.prefix } : {}),
  });
}

export async function enqueueSimulation(queue: Queue<SimulationJob>, simulationId: number): Promise<void> {
  await queue.add('run', { simulationId }, { attempts: 1, removeOnComplete: 1000, removeOnFail: 1000 });
}

export interface SimulationWorkerOptions {
  connection: ConnectionOptions;
  prefix?: string;
  db: Db;
  /** the database URL: the engine opens its own small pool with search_path = sim_<id>, public */
  connectionString: string;
  logger: SimulationJobDeps['logger'];
  concurrency?: number;
}

/** The worker of the simulation queue (hosted by the ledger-settlement worker process). */
export function startSimulationWorker(options: SimulationWorkerOptions): Worker<SimulationJob> {
  return new Worker<SimulationJob>(
    SIMULATION_QUEUE,
    async (job) => {
      await runSimulation(
        { db: options.db, connectionString: options.connectionString, logger: options.logger },
        job.data.simulationId,
      );
    },
    {
      connection: options.connection,
      ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
      concurrency: options.concurrency ?? 1,
      // a whole-book simulation holds its job for minutes
      lockDuration: 5 * 60_000,
    },
  );
}
