import { registerResource, type ServiceApp } from '@csp/service-kit';
import { contractResource } from './contract-resource.js';
import { registerContractExport } from './contract-export.js';

export async function registerContractRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, contractResource);
  await registerContractExport(app);
}
