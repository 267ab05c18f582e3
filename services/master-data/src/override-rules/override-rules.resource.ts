import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { defineResource, f, invalid, zDate, zId } from '@csp/service-kit';
import { filters, trxOf } from '../common/resource-helpers.js';
import { checkHalfOpenPeriod, nonNegative, requireReference, validOn } from '../common/rules.js';
import { revisableRuleTail } from '../common/revisable-rule-fields.js';

/**
 * Override rules (RULE_OVERRIDE: READ/CREATE/UPDATE/DELETE), half-open validity; an update may
 * carry `version` (stale -> B002). Field order = export column order.
 */
export const overrideRuleResource = defineResource({
  name: 'OverrideRule',
  path: '/api/rules/override',
  table: 'override_rule',
  alias: 'orl',
  menu: 'RULE_OVERRIDE',
  tags: ['Override rule'],
  baseQuery: (db) =>
    db
      .selectFrom('override_rule as orl')
      .leftJoin('grade as gf', 'gf.grade_id', 'orl.from_grade')
      .leftJoin('grade as gt', 'gt.grade_id', 'orl.to_grade'),
  fields: {
    overrideId: f.id().label('Override ID'),
    fromGrade: f.ref().required().sort().filter().export(false),
    fromGradeName: f.joined('gf.grade_name', 'text').search().label('From grade').export({ width: 20 }),
    toGrade: f.ref().required().sort().filter().export(false),
    toGradeName: f.joined('gt.grade_name', 'text').search().label('To grade').export({ width: 20 }),
    overridePct: f.rate().required().refine(nonNegative).sort().label('Override (%)'),
    calcType: f
      .text({ max: 20, pattern: /^[A-Z_]+$/, patternMessage: 'must be a code like RATE' })
      .save({ default: 'RATE' })
      .search()
      .label('Calc type'),
    insuranceTypeCond: f.text({ max: 30 }).save().label('Insurance type'),
    capAmount: f.money().save().refine(nonNegative).label('Cap amount'),
    ...revisableRuleTail(),
    version: f.version().label('Version'), // not sortable here
  },
  defaultSort: 'overrideId',
  dateFilter: 'effectiveFrom',
  filters: filters({
    shape: {
      /** Either side of the rule. */
      gradeId: zId.optional(),
      insuranceType: z.string().trim().max(30).optional(),
      effectiveDate: zDate.optional(),
    },
    apply: (qb, q) => {
      let out = qb;
      if (q.gradeId !== undefined) out = out.where(sql<SqlBool>`(orl.from_grade = ${q.gradeId} OR orl.to_grade = ${q.gradeId})`);
      if (q.insuranceType) out = out.where('orl.insurance_type_cond', '=', q.insuranceType);
      if (q.effectiveDate) out = out.where(validOn('orl', q.effectiveDate, 'half-open'));
      return out;
    },
  }),
  validate: async (b, ctx) => {
    checkHalfOpenPeriod(b as { effectiveFrom: string; effectiveTo?: string | null });
    if (b.fromGrade === b.toGrade) throw invalid('toGrade', 'must differ from fromGrade');
    await requireReference(trxOf(ctx), 'grade', 'grade_id', b.fromGrade, 'fromGrade', 'grade');
    await requireReference(trxOf(ctx), 'grade', 'grade_id', b.toGrade, 'toGrade', 'grade');
  },
});
