import type { ServiceApp } from '@csp/service-kit';
import { registerRevisableRule } from '../common/revisable-rule-routes.js';
import { collectionRuleResource, MENU_COLLECTION } from './collection-rules.resource.js';

/** CRUD, export and POST|PUT /api/rules/collection/{id}/revise (rate and first commission year). */
export async function registerCollectionRuleRoutes(app: ServiceApp): Promise<void> {
  registerRevisableRule(
    app,
    collectionRuleResource,
    { label: 'CollectionRule', table: 'collection_rule', idColumn: 'rule_id', menu: MENU_COLLECTION },
    { ratePct: 'rate_pct', minCommissionYear: 'min_commission_year' },
  );
}
