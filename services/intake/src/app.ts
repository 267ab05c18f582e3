import type { FastifyBaseLogger } from 'fastify';
import { createServiceApp, type CreateServiceAppOptions, type ServiceApp } from '@csp/service-kit';

export const SERVICE_NAME = 'intake';

export interface IntakeDeps {
  config: CreateServiceAppOptions['config'];
  db: CreateServiceAppOptions['db'];
  pool: CreateServiceAppOptions['pool'];
  redis: CreateServiceAppOptions['redis'];
  logger?: FastifyBaseLogger;
}

/**
 * The intake app: kit infrastructure (health, docs, auth, logs). Business routes (receive upload,
 * mappings, parse errors, reconciliation, upload templates) come with the intake API issue.
 */
export async function buildApp(deps: IntakeDeps): Promise<ServiceApp> {
  return createServiceApp({ name: SERVICE_NAME, ...deps });
}
