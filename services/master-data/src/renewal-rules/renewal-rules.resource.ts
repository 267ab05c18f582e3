import { companyRateRuleResource } from '../common/company-rate-rule.js';

export const MENU_RENEWAL = 'RENEWAL_COMM';

/**
 * Renewal commission rules (RENEWAL_COMM: READ/CREATE/UPDATE/DELETE): pct(renewed premium, rate) for a
 * RENEWAL endorsement effective in the month; half-open validity, versioned.
 */
export const renewalRuleResource = companyRateRuleResource({
  name: 'RenewalRule',
  path: '/api/rules/renewal',
  table: 'renewal_rule',
  alias: 'rnr',
  menu: MENU_RENEWAL,
  tag: 'Renewal rule',
  extra: {},
});
