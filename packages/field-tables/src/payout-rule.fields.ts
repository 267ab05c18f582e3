import { f } from '@csp/service-kit';
import { nonNegative } from './refinements.js';
import { revisableRuleTail } from './revisable-rule-tail.js';

export const INSURANCE_TYPE_CODE = {
  min: 1,
  max: 30,
  pattern: /^[A-Z0-9_]+$/,
  patternMessage: 'must be an insurance type code',
};

/**
 * The field table of master-data's payout-rule resource (POST /api/rules/payout); the joined
 * field reads its baseQuery (pr, g). Field order = export column order.
 */
export const payoutRuleFields = {
  ruleId: f.id().label('Rule ID'),
  gradeId: f.ref().required().sort().filter(),
  gradeName: f.joined('g.grade_name', 'text').search().label('Grade').export({ width: 20 }),
  insuranceType: f.text(INSURANCE_TYPE_CODE).required().sort().search().filter().label('Insurance type'),
  insuranceTypeName: f.codeName('INSURANCE_TYPE', 'insuranceType').export(false),
  commissionYear: f.int({ min: 1, max: 99 }).required().sort().filter().label('Commission year'),
  payoutPct: f.rate().required().refine(nonNegative).sort().label('Payout (%)'),
  payMethodCond: f.text({ max: 30 }).save().label('Pay method'),
  performanceGrade: f.text({ max: 20 }).save().search().label('Performance grade'),
  ...revisableRuleTail(),
};
