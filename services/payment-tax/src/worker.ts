import { runWorkerProcess } from '@csp/batch';
import { startOpsListener, startTracing } from '@csp/service-kit/ops';
import { paymentTaxSteps } from './steps/index.js';

// Batch steps 9-12 (environment: see @csp/batch runWorkerProcess).
// Traces when OTEL_* asks for them; GET /metrics on METRICS_PORT (ops port) when set.
await startTracing('payment-tax-worker');
await startOpsListener();
await runWorkerProcess({ service: 'payment-tax', steps: paymentTaxSteps });
