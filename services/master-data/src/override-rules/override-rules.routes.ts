import type { ServiceApp } from '@csp/service-kit';
import { registerRevisableRule } from '../common/revisable-rule-routes.js';
import { overrideRuleResource } from './override-rules.resource.js';

/** CRUD, export and POST|PUT /api/rules/override/{id}/revise (override pct, cap). */
export async function registerOverrideRuleRoutes(app: ServiceApp): Promise<void> {
  registerRevisableRule(
    app,
    overrideRuleResource,
    { label: 'OverrideRule', table: 'override_rule', idColumn: 'override_id', menu: 'RULE_OVERRIDE' },
    { overridePct: 'override_pct', capAmount: 'cap_amount' },
  );
}
