import { runWorkerProcess } from '@csp/batch';
import { paymentTaxSteps } from './steps/index.js';

// Batch steps 9-12 (environment: see @csp/batch runWorkerProcess).
await runWorkerProcess({ service: 'payment-tax', steps: paymentTaxSteps });
