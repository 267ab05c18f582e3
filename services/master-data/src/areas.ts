import { registerResource, type Resource, type ServiceApp } from '@csp/service-kit';
import { registerAgentRoutes } from './agents/agents.routes.js';
import { agentContractResource } from './agent-contracts/agent-contracts.resource.js';
import { agentLicenseResource } from './agent-licenses/agent-licenses.resource.js';
import { agentTrainingResource } from './agent-trainings/agent-trainings.resource.js';
import { registerAppointmentRuleRoutes } from './appointment-rules/appointment-rules.routes.js';
import { registerChargebackGradeRoutes } from './chargeback-grades/chargeback-grades.routes.js';
import { registerChargebackRuleRoutes } from './chargeback-rules/chargeback-rules.routes.js';
import { registerCollectionRuleRoutes } from './collection-rules/collection-rules.routes.js';
import { registerCommissionRateRoutes } from './commission-rates/commission-rates.routes.js';
import { registerCompanyRoutes } from './companies/companies.routes.js';
import { complaintResource } from './complaints/complaints.resource.js';
import { contractResource } from './contracts/contracts.resource.js';
import { endorsementResource } from './endorsements/endorsements.resource.js';
import { exceptionCodeResource } from './exception-codes/exception-codes.resource.js';
import { gradeResource } from './grades/grades.resource.js';
import { registerInstallmentPlanRoutes } from './installment-plans/installment-plans.routes.js';
import { installmentRatioResource } from './installment-ratios/installment-ratios.resource.js';
import { registerOrgRoutes } from './orgs/orgs.routes.js';
import { registerOverrideRuleRoutes } from './override-rules/override-rules.routes.js';
import { registerPayoutRuleRoutes } from './payout-rules/payout-rules.routes.js';
import { registerPersistencyRuleRoutes } from './persistency-rules/persistency-rules.routes.js';
import { productResource } from './products/products.resource.js';
import { registerRegulatoryLimitRoutes } from './regulatory-limits/regulatory-limits.routes.js';
import { registerReinstatementRuleRoutes } from './reinstatement-rules/reinstatement-rules.routes.js';
import { registerRenewalRuleRoutes } from './renewal-rules/renewal-rules.routes.js';
import { registerSuccessionRoutes } from './successions/successions.routes.js';

type Area = Resource | ((app: ServiceApp) => Promise<void>);

/** Organization, people, products and contracts (spec 2.2, 4.2). */
const PEOPLE_AND_CONTRACTS: Area[] = [
  registerOrgRoutes,
  gradeResource,
  registerAgentRoutes,
  registerCompanyRoutes,
  productResource,
  contractResource,
  registerSuccessionRoutes,
  agentContractResource,
  agentLicenseResource,
  agentTrainingResource,
  endorsementResource,
  complaintResource,
];

/**
 * Commission, payout, override and chargeback rules, exception codes, limits, grades, installments (spec 2.4,
 * 4.4); collection, renewal, reinstatement, persistency and appointment rules (DECISIONS, issue 16).
 */
const RULES: Area[] = [
  registerCommissionRateRoutes,
  registerPayoutRuleRoutes,
  registerOverrideRuleRoutes,
  registerChargebackRuleRoutes,
  exceptionCodeResource,
  registerRegulatoryLimitRoutes,
  registerChargebackGradeRoutes,
  installmentRatioResource,
  registerInstallmentPlanRoutes,
  // commission types beyond recruit, maintain and override (issue 16)
  registerCollectionRuleRoutes,
  registerRenewalRuleRoutes,
  registerReinstatementRuleRoutes,
  registerPersistencyRuleRoutes,
  registerAppointmentRuleRoutes,
];

/** A plain resource is registered by the kit; an area with workflows registers its own routes too. */
async function register(app: ServiceApp, areas: Area[]): Promise<void> {
  for (const area of areas) {
    if (typeof area === 'function') await area(app);
    else registerResource(app, area);
  }
}

export const registerPeopleAndContractAreas = (app: ServiceApp) => register(app, PEOPLE_AND_CONTRACTS);
export const registerRuleAreas = (app: ServiceApp) => register(app, RULES);

/** Every area of master-data. */
export async function registerAreas(app: ServiceApp): Promise<void> {
  await registerPeopleAndContractAreas(app);
  await registerRuleAreas(app);
}
