import type { StepDefinition } from '@csp/batch';
import { aggregate } from './aggregate.js';
import { calcMaintain } from './calc-maintain.js';
import { calcOverride } from './calc-override.js';
import { calcRecruit } from './calc-recruit.js';
import { chargebackException } from './chargeback-exception.js';

export { aggregate, calcMaintain, calcOverride, calcRecruit, chargebackException };

/** Batch steps 4-8, hosted by the ledger-settlement worker. */
export const ledgerSteps: StepDefinition[] = [
  calcRecruit,
  calcMaintain,
  chargebackException,
  calcOverride,
  aggregate,
];
