import { f } from '@csp/service-kit';
import { companyRateRuleResource } from '../common/company-rate-rule.js';

export const MENU_COLLECTION = 'COLLECT_COMM';

/**
 * Collection commission rules (COLLECT_COMM: READ/CREATE/UPDATE/DELETE): pct(premium, rate) for premiums
 * falling due from commission year `minCommissionYear` (default 6) on; half-open validity, versioned.
 */
export const collectionRuleResource = companyRateRuleResource({
  name: 'CollectionRule',
  path: '/api/rules/collection',
  table: 'collection_rule',
  alias: 'clr',
  menu: MENU_COLLECTION,
  tag: 'Collection rule',
  extra: {
    minCommissionYear: f.int({ min: 1, max: 99 }).save({ default: 6 }).sort().filter().label('From commission year'),
  },
});
