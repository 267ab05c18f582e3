import { registerResource, type ServiceApp } from '@csp/service-kit';
import { profileResource } from './profiles.resource.js';

/** Carrier intake profiles: plain CRUD from the declaration. */
export async function registerProfileRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, profileResource);
}
