import type { FastifyBaseLogger } from 'fastify';
import { createServiceApp, type CreateServiceAppOptions, type ServiceApp, type ZodTypeProvider } from '@csp/service-kit';
import { authRoutes } from './auth/routes.js';
import { codeRoutes } from './codes/routes.js';
import { configRoutes } from './config/routes.js';
import { dataDictionaryRoutes } from './data-dictionary/routes.js';
import { dataDomainRoutes } from './data-domains/routes.js';
import { externalCallRoutes } from './external-calls/routes.js';
import { fileRoutes } from './files/routes.js';
import { logRoutes } from './logs/routes.js';
import { menuRoutes } from './menus/routes.js';
import { noticeRoutes } from './notices/routes.js';
import { notificationRoutes } from './notifications/routes.js';
import { roleRoutes } from './roles/routes.js';
import { userRoutes } from './users/routes.js';

export const SERVICE_NAME = 'auth-platform';

export interface AuthPlatformDeps {
  config: CreateServiceAppOptions['config'];
  db: CreateServiceAppOptions['db'];
  pool: CreateServiceAppOptions['pool'];
  redis: CreateServiceAppOptions['redis'];
  logger?: FastifyBaseLogger;
}

/** One plugin per business area, each in its own encapsulated scope. */
const AREAS: Array<(app: ServiceApp) => Promise<void>> = [
  authRoutes,
  userRoutes,
  roleRoutes,
  menuRoutes,
  codeRoutes,
  configRoutes,
  logRoutes,
  fileRoutes,
  notificationRoutes,
  noticeRoutes,
  dataDomainRoutes,
  dataDictionaryRoutes,
  externalCallRoutes,
];

/** The auth-platform app: kit infrastructure plus the area routes (tests use `inject`). */
export async function buildApp(deps: AuthPlatformDeps): Promise<ServiceApp> {
  const app = await createServiceApp({ name: SERVICE_NAME, ...deps });
  for (const area of AREAS) {
    await app.register(async (scope) => area(scope.withTypeProvider<ZodTypeProvider>()));
  }
  return app;
}
