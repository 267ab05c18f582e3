import { registerResource, type ServiceApp } from '@csp/service-kit';
import { agentSummaryResource, chargebackRiskOrgResource, chargebackRiskResource, orgSummaryResource } from './report.resource.js';

/** Reports (spec 4.4): read-only lists with month range, organization (subtree) and grade filters, and /excel. */
export async function registerReportRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, agentSummaryResource);
  registerResource(app, orgSummaryResource);
  registerResource(app, chargebackRiskOrgResource);
  registerResource(app, chargebackRiskResource);
}
