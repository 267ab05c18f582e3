import type { FastifyBaseLogger } from 'fastify';
import { createServiceApp, type CreateServiceAppOptions, type ServiceApp } from '@csp/service-kit';

export const SERVICE_NAME = 'payment-tax';

export interface PaymentTaxDeps {
  config: CreateServiceAppOptions['config'];
  db: CreateServiceAppOptions['db'];
  pool: CreateServiceAppOptions['pool'];
  redis: CreateServiceAppOptions['redis'];
  logger?: FastifyBaseLogger;
}

/**
 * The payment-tax app: kit infrastructure (health, docs, auth, logs). Business routes (payments,
 * deductions, taxes, statements, accounting, tax reports) come with the payment-tax API issue.
 */
export async function buildApp(deps: PaymentTaxDeps): Promise<ServiceApp> {
  return createServiceApp({ name: SERVICE_NAME, ...deps });
}
