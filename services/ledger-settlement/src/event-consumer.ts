import { EventRefusal, hostEvents, type EventConsumer, type EventHandler, type ApprovalDecided } from '@csp/events';
import type { ServiceApp } from '@csp/service-kit';
import { applyDisputeDecision } from './disputes/dispute-events.js';
import { applyIncentiveDecision } from './incentives/incentive-events.js';
import { settleEventConsumer } from './settle/settle-events.js';
import { applySimulationDecision } from './simulations/simulation-events.js';

const settleDecision = settleEventConsumer.handlers.APPROVAL_DECIDED as EventHandler<ApprovalDecided>;

/** APPROVAL_DECIDED by target type. */
const approvalDecided: EventHandler<ApprovalDecided> = async (trx, event) => {
  switch (event.payload.targetType) {
    case 'INCENTIVE':
      return applyIncentiveDecision(trx, event);
    case 'SETTLE':
      return settleDecision(trx, event);
    case 'DISPUTE':
      return applyDisputeDecision(trx, event);
    case 'SIMULATION':
      return applySimulationDecision(trx, event);
    case 'WITHDRAW':
      throw new EventRefusal(`${event.payload.targetType} decisions have no consumer in ledger-settlement`);
  }
};

/**
 * ledger-settlement's one event consumer (queue `events.ledger-settlement`). One queue has one consumer, so
 * the areas' handlers are joined here: every event type the settle area handles (settle/settle-events.ts)
 * as it is, except APPROVAL_DECIDED, which goes to the area owning the target: SETTLE -> the settle area,
 * INCENTIVE -> incentives/incentive-events.ts, DISPUTE -> disputes/dispute-events.ts,
 * SIMULATION -> simulations/simulation-events.ts.
 */
export const ledgerEventConsumer: EventConsumer = {
  name: settleEventConsumer.name,
  handlers: { ...settleEventConsumer.handlers, APPROVAL_DECIDED: approvalDecided },
};

/** Area entry (src/areas.ts): hosts the relay and this consumer in the service process (EVENTS_ENABLED). */
export async function registerEventConsumer(app: ServiceApp): Promise<void> {
  hostEvents(app, { consumer: ledgerEventConsumer });
}
