import type { FastifyBaseLogger } from 'fastify';
import { createServiceApp, type CreateServiceAppOptions, type ServiceApp } from '@csp/service-kit';
import { registerAreas } from './areas.js';

export const SERVICE_NAME = 'master-data';

export interface MasterDataDeps {
  config: CreateServiceAppOptions['config'];
  db: CreateServiceAppOptions['db'];
  pool: CreateServiceAppOptions['pool'];
  redis: CreateServiceAppOptions['redis'];
  logger?: FastifyBaseLogger;
}

/** The master-data app: kit infrastructure, then the business areas (tests use `inject`). */
export async function buildApp(deps: MasterDataDeps): Promise<ServiceApp> {
  const app = await createServiceApp({ name: SERVICE_NAME, ...deps });
  await registerAreas(app);
  return app;
}
