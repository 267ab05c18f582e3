import { registerResource, type ServiceApp } from '@csp/service-kit';
import { otherCommissionResource } from './other-commission.resource.js';

/** /api/ledger/other-commissions: the read-only list and export of other_commission_ledger. */
export async function registerOtherCommissionRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, otherCommissionResource);
}
