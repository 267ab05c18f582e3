import type { ServiceApp, ZodTypeProvider } from '@csp/service-kit';
import { registerMappingRoutes } from './mappings/mappings.routes.js';
import { registerProfileRoutes } from './profiles/profiles.routes.js';
import { registerReceiveRoutes } from './receive/receive.routes.js';
import { registerUploadTemplateRoutes } from './upload-templates/upload-templates.routes.js';
import { registerUploadRoutes } from './upload/upload.routes.js';

/** Business areas of intake, one folder each, each in its own encapsulated scope. */
const AREAS: Array<(app: ServiceApp) => Promise<void>> = [
  registerProfileRoutes,
  registerMappingRoutes,
  registerReceiveRoutes,
  registerUploadTemplateRoutes,
  registerUploadRoutes,
];

export async function registerAreas(app: ServiceApp): Promise<void> {
  for (const area of AREAS) {
    await app.register(async (scope) => area(scope.withTypeProvider<ZodTypeProvider>()));
  }
}
