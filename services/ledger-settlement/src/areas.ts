import type { BatchQueues } from '@csp/batch';
import type { ServiceApp, ZodTypeProvider } from '@csp/service-kit';
import { registerBatchRoutes } from './batch/batch.routes.js';
import { registerCarrierReplyRoutes } from './carrier-replies/carrier-reply.routes.js';
import { registerCommissionMasterRoutes } from './commission-master/commission-master.routes.js';
import { registerCommissionTypeRoutes } from './commission-types/commission-type.routes.js';
import { registerCorrectionRoutes } from './corrections/correction.routes.js';
import { registerEventConsumer } from './event-consumer.js';
import { registerDisputeRoutes } from './disputes/dispute.routes.js';
import { registerExplainRoutes } from './explain/explain.routes.js';
import { registerHoldRoutes } from './holds/hold.routes.js';
import { registerIncentiveRoutes } from './incentives/incentive.routes.js';
import { registerLedgerRoutes } from './ledgers/ledgers.routes.js';
import { registerOtherCommissionRoutes } from './other-commissions/other-commission.routes.js';
import { registerPeriodCloseRoutes } from './period-closes/period-close.routes.js';
import { registerPartitionRoutes } from './period-closes/partitions.routes.js';
import { registerClosedMonthRunGuard } from './period-closes/run-guard.js';
import { registerSettleRoutes } from './settle/settle.routes.js';
import { registerSimulationRoutes } from './simulations/simulation.routes.js';
import { registerTaxInvoiceRoutes } from './tax-invoices/tax-invoice.routes.js';
import { registerTerminationRoutes } from './termination-settlements/termination-settlement.routes.js';

export interface AreaDeps {
  queues: BatchQueues;
}

/** Business areas of ledger-settlement, one folder each, each in its own encapsulated scope. */
const AREAS: Array<(app: ServiceApp, deps: AreaDeps) => Promise<void>> = [
  registerBatchRoutes,
  registerSettleRoutes,
  // APPROVAL_DECIDED of SETTLE and INCENTIVE targets (one consumer per service queue)
  registerEventConsumer,
  registerExplainRoutes,
  registerLedgerRoutes,
  // settlement lifecycle (issue 15)
  registerPeriodCloseRoutes,
  // month partitions: maintenance job, archive and restore of closed years (issue 27)
  registerPartitionRoutes,
  registerCorrectionRoutes,
  registerDisputeRoutes,
  registerHoldRoutes,
  registerTaxInvoiceRoutes,
  registerCarrierReplyRoutes,
  registerTerminationRoutes,
  // incentive programs and payments (issue 16)
  registerIncentiveRoutes,
  // commission master, commission types, other commission rows (issue 16)
  registerCommissionMasterRoutes,
  registerCommissionTypeRoutes,
  registerOtherCommissionRoutes,
  // what-if simulations on the real engine (issue 26)
  registerSimulationRoutes,
];

export async function registerAreas(app: ServiceApp, deps: AreaDeps): Promise<void> {
  registerClosedMonthRunGuard(app);
  for (const area of AREAS) {
    await app.register(async (scope) => area(scope.withTypeProvider<ZodTypeProvider>(), deps));
  }
}
