import { companyRateRuleResource } from '../common/company-rate-rule.js';

export const MENU_REINSTATEMENT = 'REINSTATE_COMM';

/**
 * Reinstatement commission rules (REINSTATE_COMM: READ/CREATE/UPDATE/DELETE): pct(premium, rate) when a
 * lapsed contract is revived in the month; half-open validity, versioned.
 */
export const reinstatementRuleResource = companyRateRuleResource({
  name: 'ReinstatementRule',
  path: '/api/rules/reinstatement',
  table: 'reinstatement_rule',
  alias: 'rsr',
  menu: MENU_REINSTATEMENT,
  tag: 'Reinstatement rule',
  extra: {},
});
