import { runWorkerProcess } from '@csp/batch';
import { startOpsListener, startTracing } from '@csp/service-kit/ops';
import { z } from 'zod';
import { setChunkSizes } from './calc/chunk-sizes.js';
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
await runWorkerProcess({
  service: 'ledger-settlement',
  steps: ledgerSteps,
  configure(env) {
    const chunks = chunkEnv.parse(env);
    setChunkSizes({ contracts: chunks.BATCH_CHUNK_CONTRACTS, agents: chunks.BATCH_CHUNK_AGENTS });
  },
});
