import { registerResource, type ServiceApp } from '@csp/service-kit';
import { apiLogResource, changeLogResource, loginLogResource } from './logs.resource.js';

/** Login, API access and data change logs: paged lists and their `/excel` exports (SYSTEM_LOG). */
export async function logRoutes(app: ServiceApp): Promise<void> {
  for (const resource of [loginLogResource, apiLogResource, changeLogResource]) registerResource(app, resource);
}
