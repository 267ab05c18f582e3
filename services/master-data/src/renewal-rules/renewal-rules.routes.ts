import type { ServiceApp } from '@csp/service-kit';
import { registerRevisableRule } from '../common/revisable-rule-routes.js';
import { MENU_RENEWAL, renewalRuleResource } from './renewal-rules.resource.js';

/** CRUD, export and POST|PUT /api/rules/renewal/{id}/revise (rate). */
export async function registerRenewalRuleRoutes(app: ServiceApp): Promise<void> {
  registerRevisableRule(
    app,
    renewalRuleResource,
    { label: 'RenewalRule', table: 'renewal_rule', idColumn: 'rule_id', menu: MENU_RENEWAL },
    { ratePct: 'rate_pct' },
  );
}
