import { runServiceProcess } from '@csp/service-kit';
import { z } from 'zod';
import { buildApp, SERVICE_NAME } from './app.js';

await runServiceProcess({
  name: SERVICE_NAME,
  defaultPort: 8104,
  /** BullMQ prefix of the settlement queues; the step workers must use the same value. */
  config: { BATCH_PREFIX: z.string().min(1).max(50).optional() },
  buildApp: ({ config, ...deps }) =>
    buildApp({ config, ...deps, ...(config.BATCH_PREFIX ? { batchPrefix: config.BATCH_PREFIX } : {}) }),
});
