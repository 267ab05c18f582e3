import { defineResource, f } from '@csp/service-kit';
import { trxOf } from '../common/resource-helpers.js';
import { revisableRuleTail, validOnDateFilter } from '../common/revisable-rule-fields.js';
import { checkHalfOpenPeriod, nonNegative, requireReference } from '../common/rules.js';

/** Spec 5.5 has no menu of its own for appointment rules: they belong to the commission types page. */
export const MENU_APPOINTMENT = 'COMM_TYPE';

/**
 * Appointment allowance rules (COMM_TYPE: READ/CREATE/UPDATE/DELETE): a fixed monthly amount by grade in a
 * new agent's first `months` months after join_date (the join month is month 1); half-open validity,
 * versioned (revision: POST|PUT /{id}/revise). Field order = export order.
 */
export const appointmentRuleResource = defineResource({
  name: 'AppointmentRule',
  path: '/api/rules/appointment',
  table: 'appointment_rule',
  alias: 'apr',
  menu: MENU_APPOINTMENT,
  tags: ['Appointment rule'],
  baseQuery: (db) => db.selectFrom('appointment_rule as apr').leftJoin('grade as g', 'g.grade_id', 'apr.grade_id'),
  fields: {
    ruleId: f.id().label('Rule ID'),
    gradeId: f.ref().required().sort().filter(),
    gradeName: f.joined('g.grade_name', 'text').search().label('Grade').export({ width: 20 }),
    months: f.int({ min: 1, max: 120 }).required().sort().label('Months'),
    monthlyAmount: f.money().required().refine(nonNegative).sort().label('Monthly amount'),
    ...revisableRuleTail(),
  },
  defaultSort: 'ruleId',
  dateFilter: 'effectiveFrom',
  filters: validOnDateFilter('apr'),
  validate: async (b, ctx) => {
    checkHalfOpenPeriod(b as { effectiveFrom: string; effectiveTo?: string | null });
    await requireReference(trxOf(ctx), 'grade', 'grade_id', b.gradeId, 'gradeId', 'grade');
  },
});
