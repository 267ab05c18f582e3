import { registerResource, type ServiceApp } from '@csp/service-kit';
import { externalCallResource } from './external-calls.resource.js';

export async function externalCallRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, externalCallResource);
}
