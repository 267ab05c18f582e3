import type { FastifyBaseLogger } from 'fastify';
import { createServiceApp, type CreateServiceAppOptions, type ServiceApp } from '@csp/service-kit';
import { registerAreas } from './areas.js';

export const SERVICE_NAME = 'payment-tax';

export interface PaymentTaxDeps {
  config: CreateServiceAppOptions['config'];
  db: CreateServiceAppOptions['db'];
  pool: CreateServiceAppOptions['pool'];
  redis: CreateServiceAppOptions['redis'];
  logger?: FastifyBaseLogger;
}

/** The payment-tax app: kit infrastructure plus the business areas of src/areas.ts (tests use `inject`). */
export async function buildApp(deps: PaymentTaxDeps): Promise<ServiceApp> {
  const app = await createServiceApp({ name: SERVICE_NAME, ...deps });
  await registerAreas(app);
  return app;
}
