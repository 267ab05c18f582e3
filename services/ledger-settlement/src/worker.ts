import { runWorkerProcess } from '@csp/batch';
import { createDb, createPool } from '@csp/db';
import { createLogger } from '@csp/service-kit';
import { startOpsListener, startTracing } from '@csp/service-kit/ops';
import { z } from 'zod';
import { setChunkSizes } from './calc/chunk-sizes.js';
import { startSimulationWorker } from './simulations/simulation.queue.js';
import { ledgerSteps } from './steps/index.js';

/**
 * Batch steps 4-9 (calcRecruit, calcMaintain, calcOtherCommission, chargebackException, calcOverride, aggregate); environment:
 * see @csp/batch runWorkerProcess. BATCH_STEPS=calcMaintain scales one step.
 */
const chunkEnv = z.object({
  /** candidate contracts per chunk of calcRecruit/calcMaintain */
  BATCH_CHUNK_CONTRACTS: z.coerce.number().int().min(100).max(50_000).default(4_000),
  /** agent ids per chunk of calcOtherCommission/calcOverride/aggregate */
  BATCH_CHUNK_AGENTS: z.coerce.number().int().min(100).max(50_000).default(2_000),
});

// Traces when OTEL_* asks for them; GET /metrics on METRICS_PORT (ops port) when set.
await startTracing('ledger-settlement-worker');
await startOpsListener();
const workers = await runWorkerProcess({
  service: 'ledger-settlement',
  steps: ledgerSteps,
  configure(env) {
    const chunks = chunkEnv.parse(env);
    setChunkSizes({ contracts: chunks.BATCH_CHUNK_CONTRACTS, agents: chunks.BATCH_CHUNK_AGENTS });
  },
});

/**
 * The what-if simulations' queue (issue 26): one job per run. Off by default so per-step worker groups do not each
 * start one; exactly one group turns it on (compose ledger-settlement-worker, k8s worker-aggregate, the launcher).
 */
const simulationEnv = z.object({
  DATABASE_URL: z.string().min(1).default('postgres://postgres@127.0.0.1:5432/commission'),
  REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
  BATCH_PREFIX: z.string().min(1).max(50).optional(),
  LOG_LEVEL: z.string().default('info'),
  SIMULATION_WORKER: z.enum(['true', 'false']).default('false'),
}).parse(process.env);
if (simulationEnv.SIMULATION_WORKER === 'true') {
  const pool = createPool({ connectionString: simulationEnv.DATABASE_URL, max: 3, applicationName: 'simulation-worker' });
  const db = createDb(pool);
  const logger = createLogger({ name: 'simulation-worker', level: simulationEnv.LOG_LEVEL });
  const worker = startSimulationWorker({
    connection: { url: simulationEnv.REDIS_URL, maxRetriesPerRequest: null },
    ...(simulationEnv.BATCH_PREFIX ? { prefix: simulationEnv.BATCH_PREFIX } : {}),
    db,
    connectionString: simulationEnv.DATABASE_URL,
    logger,
  });
  const stop = async () => {
    await worker.close();
    await db.destroy();
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  logger.info({ steps: workers.steps }, 'simulation worker ready');
}
