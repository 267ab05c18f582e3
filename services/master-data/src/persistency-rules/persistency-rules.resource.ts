import { PERSISTENCY_MILESTONES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';
import { revisableRuleTail, validOnDateFilter } from '../common/revisable-rule-fields.js';
import { checkHalfOpenPeriod, nonNegative } from '../common/rules.js';
import { INSURANCE_TYPE_CODE } from '../payout-rules/payout-rules.resource.js';

export const MENU_PERSISTENCY = 'PERSIST_BONUS';

const milestone = (v: unknown) => (PERSISTENCY_MILESTONES as readonly unknown[]).includes(v);

/**
 * Persistency bonus rules (PERSIST_BONUS: READ/CREATE/UPDATE/DELETE): pct(recruit agent_amount, bonusPct)
 * to the recruiting agent when the contract is still in force at milestone month 13 or 25; per insurance
 * type, half-open validity, versioned (revision: POST|PUT /{id}/revise). Field order = export order.
 */
export const persistencyRuleResource = defineResource({
  name: 'PersistencyRule',
  path: '/api/rules/persistency',
  table: 'persistency_rule',
  alias: 'psr',
  menu: MENU_PERSISTENCY,
  tags: ['Persistency rule'],
  fields: {
    ruleId: f.id().label('Rule ID'),
    milestoneMonth: f
      .int()
      .required()
      .refine((s) => s.refine(milestone, `must be ${PERSISTENCY_MILESTONES.join(' or ')}`))
      .sort()
      .filter()
      .label('Milestone month'),
    insuranceType: f.text(INSURANCE_TYPE_CODE).required().sort().search().filter().label('Insurance type'),
    insuranceTypeName: f.codeName('INSURANCE_TYPE', 'insuranceType').export(false),
    bonusPct: f.rate().required().refine(nonNegative).sort().label('Bonus (%)'),
    ...revisableRuleTail(),
  },
  defaultSort: 'ruleId',
  dateFilter: 'effectiveFrom',
  filters: validOnDateFilter('psr'),
  validate: (b) => checkHalfOpenPeriod(b as { effectiveFrom: string; effectiveTo?: string | null }),
});
