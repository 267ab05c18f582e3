import type { FastifyBaseLogger } from 'fastify';
import { createServiceApp, type CreateServiceAppOptions, type ServiceApp } from '@csp/service-kit';
import { registerAreas } from './areas.js';

export const SERVICE_NAME = 'auth-platform';

export interface AuthPlatformDeps {
  config: CreateServiceAppOptions['config'];
  db: CreateServiceAppOptions['db'];
  pool: CreateServiceAppOptions['pool'];
  redis: CreateServiceAppOptions['redis'];
  logger?: FastifyBaseLogger;
}

/** The auth-platform app: kit infrastructure plus the area routes (tests use `inject`). */
export async function buildApp(deps: AuthPlatformDeps): Promise<ServiceApp> {
  const app = await createServiceApp({ name: SERVICE_NAME, ...deps });
  await registerAreas(app);
  return app;
}
