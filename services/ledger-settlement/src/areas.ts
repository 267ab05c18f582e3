import type { BatchQueues } from '@csp/batch';
import type { ServiceApp, ZodTypeProvider } from '@csp/service-kit';
import { registerBatchRoutes } from './batch/batch.routes.js';
import { registerExplainRoutes } from './explain/explain.routes.js';
import { registerLedgerRoutes } from './ledgers/ledgers.routes.js';
import { registerSettleRoutes } from './settle/settle.routes.js';

export interface AreaDeps {
  queues: BatchQueues;
}

/** Business areas of ledger-settlement, one folder each, each in its own encapsulated scope. */
const AREAS: Array<(app: ServiceApp, deps: AreaDeps) => Promise<void>> = [
  registerBatchRoutes,
  registerSettleRoutes,
  registerExplainRoutes,
  registerLedgerRoutes,
];

export async function registerAreas(app: ServiceApp, deps: AreaDeps): Promise<void> {
  for (const area of AREAS) {
    await app.register(async (scope) => area(scope.withTypeProvider<ZodTypeProvider>(), deps));
  }
}
