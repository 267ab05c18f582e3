import { registerResource, type ServiceApp } from '@csp/service-kit';
import { registerChargebackGradeRoutes } from './chargeback-grades/chargeback-grade-routes.js';
import { chargebackRuleResource } from './chargeback-rules/chargeback-rule-resource.js';
import { registerCommissionRateRoutes } from './commission-rates/commission-rate-routes.js';
import { exceptionCodeResource } from './exception-codes/exception-code-resource.js';
import { registerInstallmentRoutes } from './installments/installment-routes.js';
import { overrideRuleResource } from './override-rules/override-rule-resource.js';
import { registerPayoutRuleRoutes } from './payout-rules/payout-rule-routes.js';
import { registerRegulatoryLimitRoutes } from './regulatory-limits/regulatory-limit-routes.js';

/**
 * The rule areas of master-data (spec 2.4, 4.4): commission rates, payout/override/chargeback rules,
 * exception type codes, regulatory limits, chargeback grades, installment ratios and plans.
 * Plain CRUD goes through the service kit's registerResource; the revise/lookup/calculate/check/
 * generate operations are registered by their area.
 */
export async function registerRuleAreas(app: ServiceApp): Promise<void> {
  await registerCommissionRateRoutes(app);
  await registerPayoutRuleRoutes(app);
  registerResource(app, overrideRuleResource);
  registerResource(app, chargebackRuleResource);
  registerResource(app, exceptionCodeResource);
  await registerRegulatoryLimitRoutes(app);
  await registerChargebackGradeRoutes(app);
  await registerInstallmentRoutes(app);
}
