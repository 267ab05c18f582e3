import type { StepDefinition } from '@csp/batch';
import { aggregate } from './aggregate.js';
import { calcMaintain } from './calc-maintain.js';
import { calcOtherCommission } from './calc-other-commission.js';
import { calcOverride } from './calc-override.js';
import { calcRecruit } from './calc-recruit.js';
import { chargebackException } from './chargeback-exception.js';

export { aggregate, calcMaintain, calcOtherCommission, calcOverride, calcRecruit, chargebackException };

/** Batch steps 4-9 (calcOtherCommission after calcMaintain), hosted by the ledger-settlement worker. */
export const ledgerSteps: StepDefinition[] = [
  calcRecruit,
  calcMaintain,
  calcOtherCommission,
  chargebackException,
  calcOverride,
  aggregate,
];
