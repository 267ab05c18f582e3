import type { ServiceApp } from '@csp/service-kit';
import { registerRevisableRule } from '../common/revisable-rule-routes.js';
import { MENU_PERSISTENCY, persistencyRuleResource } from './persistency-rules.resource.js';

/** CRUD, export and POST|PUT /api/rules/persistency/{id}/revise (bonus pct). */
export async function registerPersistencyRuleRoutes(app: ServiceApp): Promise<void> {
  registerRevisableRule(
    app,
    persistencyRuleResource,
    { label: 'PersistencyRule', table: 'persistency_rule', idColumn: 'rule_id', menu: MENU_PERSISTENCY },
    { bonusPct: 'bonus_pct' },
  );
}
