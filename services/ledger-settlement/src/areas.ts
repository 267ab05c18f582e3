import type { BatchQueues } from '@csp/batch';
import type { ServiceApp, ZodTypeProvider } from '@csp/service-kit';
import { registerBatchRoutes } from './batch/batch.routes.js';
import { registerCarrierReplyRoutes } from './carrier-replies/carrier-reply.routes.js';
import { registerCorrectionRoutes } from './corrections/correction.routes.js';
import { registerDisputeRoutes } from './disputes/dispute.routes.js';
import { registerExplainRoutes } from './explain/explain.routes.js';
import { registerHoldRoutes } from './holds/hold.routes.js';
import { registerLedgerRoutes } from './ledgers/ledgers.routes.js';
import { registerPeriodCloseRoutes } from './period-closes/period-close.routes.js';
import { registerClosedMonthRunGuard } from './period-closes/run-guard.js';
import { registerSettleEvents } from './settle/settle-events.js';
import { registerSettleRoutes } from './settle/settle.routes.js';
import { registerTaxInvoiceRoutes } from './tax-invoices/tax-invoice.routes.js';

export interface AreaDeps {
  queues: BatchQueues;
}

/** Business areas of ledger-settlement, one folder each, each in its own encapsulated scope. */
const AREAS: Array<(app: ServiceApp, deps: AreaDeps) => Promise<void>> = [
  registerBatchRoutes,
  registerSettleRoutes,
  registerSettleEvents,
  registerExplainRoutes,
  registerLedgerRoutes,
  // settlement lifecycle (issue 15)
  registerPeriodCloseRoutes,
  registerCorrectionRoutes,
  registerDisputeRoutes,
  registerHoldRoutes,
  registerTaxInvoiceRoutes,
  registerCarrierReplyRoutes,
];

export async function registerAreas(app: ServiceApp, deps: AreaDeps): Promise<void> {
  registerClosedMonthRunGuard(app);
  for (const area of AREAS) {
    await app.register(async (scope) => area(scope.withTypeProvider<ZodTypeProvider>(), deps));
  }
}
