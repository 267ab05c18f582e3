import type { FastifyBaseLogger } from 'fastify';
import { createServiceApp, type CreateServiceAppOptions, type ServiceApp } from '@csp/service-kit';
import { registerAreas } from './areas.js';

export const SERVICE_NAME = 'intake';

export interface IntakeDeps {
  config: CreateServiceAppOptions['config'];
  db: CreateServiceAppOptions['db'];
  pool: CreateServiceAppOptions['pool'];
  redis: CreateServiceAppOptions['redis'];
  logger?: FastifyBaseLogger;
}

/**
 * The intake app: kit infrastructure (health, docs, auth, logs) and the business areas: carrier
 * profiles, field/code mappings, receive (upload, process, status, parse errors), upload templates
 * and the spreadsheet import.
 */
export async function buildApp(deps: IntakeDeps): Promise<ServiceApp> {
  const app = await createServiceApp({ name: SERVICE_NAME, ...deps });
  await registerAreas(app);
  return app;
}
