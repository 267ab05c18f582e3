import type { StepDefinition } from '@csp/batch';
import { receiveData } from './receive-data.js';
import { reconcile } from './reconcile.js';
import { transformData } from './transform-data.js';

export { receiveData, createReceiveDataStep } from './receive-data.js';
export { transformData, TRANSFORM_CHUNK_SIZE } from './transform-data.js';
export { reconcile, reconcileTotals } from './reconcile.js';

/** Steps 1-3 of the settlement batch, hosted by the intake service. */
export const intakeSteps: readonly StepDefinition[] = [receiveData, transformData, reconcile];
