import type { FastifyBaseLogger } from 'fastify';
import { createQueues, type BatchQueues } from '@csp/batch';
import { createServiceApp, type CreateServiceAppOptions, type ServiceApp } from '@csp/service-kit';
import { registerAreas } from './areas.js';

export const SERVICE_NAME = 'ledger-settlement';

export interface LedgerSettlementDeps {
  config: CreateServiceAppOptions['config'];
  db: CreateServiceAppOptions['db'];
  pool: CreateServiceAppOptions['pool'];
  redis: CreateServiceAppOptions['redis'];
  logger?: FastifyBaseLogger;
  /** BullMQ key prefix of the settlement queues; must equal the workers' (tests use a random one). */
  batchPrefix?: string;
}

/**
 * The producer side of the batch queues, on the app's Redis connection options. BullMQ does not
 * support ioredis' keyPrefix (it has its own `prefix`), so that option is dropped here.
 */
function queuesFor(deps: LedgerSettlementDeps): BatchQueues {
  const options = { ...deps.redis.options, maxRetriesPerRequest: null, lazyConnect: false };
  delete options.keyPrefix;
  return createQueues(options, deps.batchPrefix ? { prefix: deps.batchPrefix } : {});
}

/** The ledger-settlement app: kit infrastructure, batch queues, business areas (tests use `inject`). */
export async function buildApp(deps: LedgerSettlementDeps): Promise<ServiceApp> {
  const app = await createServiceApp({ name: SERVICE_NAME, ...deps });
  const queues = queuesFor(deps);
  app.addHook('onClose', async () => {
    await queues.close();
  });
  await registerAreas(app, { queues });
  return app;
}
