import { runWorkerProcess } from '@csp/batch';
import { startOpsListener, startTracing } from '@csp/service-kit/ops';
import { intakeSteps } from './steps/index.js';

// Batch steps 1-3 (environment: see @csp/batch runWorkerProcess; BATCH_STEPS=transformData scales one step).
// Traces when OTEL_* asks for them; GET /metrics on METRICS_PORT (ops port) when set.
await startTracing('intake-worker');
await startOpsListener();
await runWorkerProcess({ service: 'intake', steps: intakeSteps });
