import { defineResource, zDate } from '@csp/service-kit';
import { INSURANCE_TYPE_CODE, payoutRuleFields } from '@csp/field-tables';
import { filters, trxOf } from '../common/resource-helpers.js';
import { checkHalfOpenPeriod, requireReference, validOn } from '../common/rules.js';

export const MENU_PAYOUT = 'RULE_PAYOUT';
export { INSURANCE_TYPE_CODE };

/**
 * Payout rules (RULE_PAYOUT: READ/CREATE/UPDATE/DELETE), half-open validity; an update may carry
 * `version` (stale -> B002), a revision is POST|PUT /{id}/revise. Field order = export column order.
 */
export const payoutRuleResource = defineResource({
  name: 'PayoutRule',
  path: '/api/rules/payout',
  table: 'payout_rule',
  alias: 'pr',
  menu: MENU_PAYOUT,
  tags: ['Payout rule'],
  baseQuery: (db) => db.selectFrom('payout_rule as pr').leftJoin('grade as g', 'g.grade_id', 'pr.grade_id'),
  fields: payoutRuleFields,
  defaultSort: 'ruleId',
  dateFilter: 'effectiveFrom',
  filters: filters({
    shape: { effectiveDate: zDate.optional() },
    apply: (qb, q) => (q.effectiveDate ? qb.where(validOn('pr', q.effectiveDate, 'half-open')) : qb),
  }),
  validate: async (b, ctx) => {
    checkHalfOpenPeriod(b as { effectiveFrom: string; effectiveTo?: string | null });
    await requireReference(trxOf(ctx), 'grade', 'grade_id', b.gradeId, 'gradeId', 'grade');
  },
});
