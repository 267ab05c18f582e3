import type { ServiceApp, ZodTypeProvider } from '@csp/service-kit';
import { approvalRoutes } from './approvals/approvals.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { codeRoutes } from './codes/codes.routes.js';
import { configRoutes } from './config/config.routes.js';
import { dataDictionaryRoutes } from './data-dictionary/data-dictionary.routes.js';
import { dataDomainRoutes } from './data-domains/data-domains.routes.js';
import { externalCallRoutes } from './external-calls/external-calls.routes.js';
import { fileRoutes } from './files/files.routes.js';
import { logRoutes } from './logs/logs.routes.js';
import { menuRoutes } from './menus/menus.routes.js';
import { noticeRoutes } from './notices/notices.routes.js';
import { notificationRoutes } from './notifications/notifications.routes.js';
import { roleRoutes } from './roles/roles.routes.js';
import { userRoutes } from './users/users.routes.js';

/** Business areas of auth-platform, one folder each, each in its own encapsulated scope. */
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
  approvalRoutes,
];

export async function registerAreas(app: ServiceApp): Promise<void> {
  for (const area of AREAS) {
    await app.register(async (scope) => area(scope.withTypeProvider<ZodTypeProvider>()));
  }
}
