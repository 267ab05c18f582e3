import { runWorkerProcess } from '@csp/batch';
import { intakeSteps } from './steps/index.js';

// Batch steps 1-3 (environment: see @csp/batch runWorkerProcess; BATCH_STEPS=transformData scales one step).
await runWorkerProcess({ service: 'intake', steps: intakeSteps });
