import { defineResource, f, zDate } from '@csp/service-kit';
import { filters, trxOf } from '../common/resource-helpers.js';
import { checkHalfOpenPeriod, nonNegative, requireReference, validOn } from '../common/rules.js';

export const MENU_PAYOUT = 'RULE_PAYOUT';
export const INSURANCE_TYPE_CODE = { min: 1, max: 30, pattern: /^[A-Z0-9_]+$/, patternMessage: 'must be an insurance type code' };

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
  fields: {
    ruleId: f.id().label('Rule ID'),
    gradeId: f.ref().required().sort().filter().label('Grade ID'),
    gradeName: f.joined('g.grade_name', 'text').search().label('Grade').export({ width: 20 }),
    insuranceType: f.text(INSURANCE_TYPE_CODE).required().sort().search().filter().label('Insurance type'),
    insuranceTypeName: f.codeName('INSURANCE_TYPE', 'insuranceType').export(false),
    commissionYear: f.int({ min: 1, max: 99 }).required().sort().filter().label('Commission year'),
    payoutPct: f.rate().required().refine(nonNegative).sort().label('Payout (%)'),
    payMethodCond: f.text({ max: 30 }).save().label('Pay method'),
    performanceGrade: f.text({ max: 20 }).save().search().label('Performance grade'),
    effectiveFrom: f.date().required().sort().label('Effective from'),
    effectiveTo: f.date().save().label('Effective to'),
    version: f.version().sort().label('Version'),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
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
