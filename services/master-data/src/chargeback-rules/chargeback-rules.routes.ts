import type { ServiceApp } from '@csp/service-kit';
import { registerRevisableRule } from '../common/revisable-rule-routes.js';
import { chargebackRuleResource } from './chargeback-rules.resource.js';

/**
 * CRUD, export and POST|PUT /api/rules/chargeback/{id}/revise (rate, override inclusion). The installment
 * settings are checked together by the resource's validate hook, so they change through an update, not here.
 */
export async function registerChargebackRuleRoutes(app: ServiceApp): Promise<void> {
  registerRevisableRule(
    app,
    chargebackRuleResource,
    { label: 'ChargebackRule', table: 'chargeback_rule', idColumn: 'cb_rule_id', menu: chargebackRuleResource.menu },
    { cbRate: 'cb_rate', includeOverride: 'include_override' },
  );
}
