import { registerResource, type ServiceApp, type ZodTypeProvider } from '@csp/service-kit';
import { registerOrgRoutes } from './orgs/org-routes.js';
import { registerGradeRoutes } from './grades/grade-routes.js';
import { registerAgentRoutes } from './agents/agent-routes.js';
import { registerCompanyRoutes } from './companies/companies.routes.js';
import { productResource } from './products/product-resource.js';
import { registerContractRoutes } from './contracts/contract-routes.js';
import { registerSuccessionRoutes } from './successions/succession-routes.js';
import { agentContractResource } from './agent-contracts/agent-contract-resource.js';
import { agentLicenseResource } from './agent-licenses/agent-license-resource.js';
import { agentTrainingResource } from './agent-trainings/agent-training-resource.js';
import { endorsementResource } from './endorsements/endorsement-resource.js';
import { complaintResource } from './complaints/complaint-resource.js';

/** Plain CRUD areas: one kit mechanism (defineResource/registerResource), no hand-written routes. */
const RESOURCES = [
  productResource,
  agentContractResource,
  agentLicenseResource,
  agentTrainingResource,
  endorsementResource,
  complaintResource,
];

/** Areas with their own logic (tree, encryption and history, succession chain, the bulk contract export). */
const AREAS: Array<(app: ServiceApp) => Promise<void>> = [
  registerOrgRoutes,
  registerGradeRoutes,
  registerAgentRoutes,
  registerCompanyRoutes,
  registerContractRoutes,
  registerSuccessionRoutes,
  async (app) => {
    for (const resource of RESOURCES) registerResource(app, resource);
  },
];

/** Organization, people, products and contracts of master-data, each area in its own scope. */
export async function registerPeopleAndContractAreas(app: ServiceApp): Promise<void> {
  for (const area of AREAS) {
    await app.register(async (scope) => area(scope.withTypeProvider<ZodTypeProvider>()));
  }
}
