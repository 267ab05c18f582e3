import { registerResource, type ServiceApp } from '@csp/service-kit';
import { LEDGER_RESOURCES } from './ledgers.resource.js';
import { registerExceptionRoutes } from './exception.routes.js';

/** The ledger lists (declared once in ledgers.resource.ts) and the exception workflow. */
export async function registerLedgerRoutes(app: ServiceApp): Promise<void> {
  for (const resource of LEDGER_RESOURCES) registerResource(app, resource);
  await registerExceptionRoutes(app);
}
