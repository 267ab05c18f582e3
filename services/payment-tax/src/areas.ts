import type { ServiceApp, ZodTypeProvider } from '@csp/service-kit';
import { accountCodeRoutes } from './accounting/account-codes.routes.js';
import { accountingRoutes } from './accounting/accounting.routes.js';
import { deductionRoutes } from './deductions/deductions.routes.js';
import { paymentRoutes } from './payments/payments.routes.js';
import { statementRoutes } from './statements/statements.routes.js';
import { taxReportRoutes } from './tax-reports/tax-reports.routes.js';
import { transferFileRoutes } from './transfer-files/transfer-files.routes.js';
import { withdrawRoutes } from './withdraw-requests/withdraw-requests.routes.js';

/** Business areas of payment-tax, one folder each, each in its own encapsulated scope. */
const AREAS: Array<(app: ServiceApp) => Promise<void>> = [
  paymentRoutes,
  transferFileRoutes,
  deductionRoutes,
  statementRoutes,
  accountingRoutes,
  accountCodeRoutes,
  taxReportRoutes,
  withdrawRoutes,
];

export async function registerAreas(app: ServiceApp): Promise<void> {
  for (const area of AREAS) {
    await app.register(async (scope) => area(scope.withTypeProvider<ZodTypeProvider>()));
  }
}
