import type { ServiceApp } from '@csp/service-kit';
import { registerRevisableRule } from '../common/revisable-rule-routes.js';
import { MENU_REINSTATEMENT, reinstatementRuleResource } from './reinstatement-rules.resource.js';

/** CRUD, export and POST|PUT /api/rules/reinstatement/{id}/revise (rate). */
export async function registerReinstatementRuleRoutes(app: ServiceApp): Promise<void> {
  registerRevisableRule(
    app,
    reinstatementRuleResource,
    { label: 'ReinstatementRule', table: 'reinstatement_rule', idColumn: 'rule_id', menu: MENU_REINSTATEMENT },
    { ratePct: 'rate_pct' },
  );
}
