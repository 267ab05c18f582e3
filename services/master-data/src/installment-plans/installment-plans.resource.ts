import { sql } from 'kysely';
import { settleMonthOfDate } from '@csp/domain';
import { defineResource, f, zDate } from '@csp/service-kit';
import { filters } from '../common/resource-helpers.js';
import { INSTALLMENT_STATUSES } from '@csp/db';

export const MENU_INSTALLMENT_PLAN = 'INSTALLMENT_PLAN';

/**
 * Installment plan rows (INSTALLMENT_PLAN): read through the resource, written only by
 * POST /generate and POST|PUT /{id}/status (installment-plans.routes.ts). Field order = export
 * column order.
 */
export const installmentPlanResource = defineResource({
  name: 'InstallmentPlan',
  path: '/api/installment-plans',
  table: 'installment_plan',
  alias: 'ip',
  menu: MENU_INSTALLMENT_PLAN,
  tags: ['Installment plan'],
  baseQuery: (db) => db.selectFrom('installment_plan as ip').leftJoin('contract as c', 'c.contract_id', 'ip.contract_id'),
  fields: {
    planId: f.id().label('Plan ID'),
    contractId: f.ref().nullable(false).sort().filter().label('Contract ID'),
    policyNo: f.joined('c.policy_no', 'text').search().label('Policy no').export({ width: 20 }),
    sequence: f
      .computed(sql`((ip.plan_year - 1) * 12 + ip.plan_month)`, 'int')
      .nullable(false)
      .describe('(planYear - 1) x 12 + planMonth, the combined sequence of spec 1.2 rule 9.')
      .label('Sequence'),
    planYear: f.int().nullable(false).label('Plan year'),
    planMonth: f.int().nullable(false).label('Plan month'),
    settleMonth: f.month().nullable(false).sort().filter().label('Settle month'),
    ratioPercent: f.rate().nullable(false).label('Ratio (%)'),
    plannedAmount: f.money().nullable(false).label('Planned amount'),
    status: f.enum(INSTALLMENT_STATUSES).nullable(false).sort().label('Status'),
    paidAmount: f.money().label('Paid amount'),
    paidAt: f.timestamp().label('Paid at'),
    paymentId: f.ref().label('Payment ID'),
    statusName: f.codeName('INSTALLMENT_STATUS', 'status').export(false),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
  },
  defaultSort: 'planId',
  statusField: 'status',
  create: false,
  update: false,
  delete: false,
  filters: filters({
    // startDate/endDate of the common parameters select the settle months they cover.
    shape: { startDate: zDate.optional(), endDate: zDate.optional() },
    apply: (qb, q) => {
      let out = qb;
      if (q.startDate) out = out.where('ip.settle_month', '>=', settleMonthOfDate(q.startDate));
      if (q.endDate) out = out.where('ip.settle_month', '<=', settleMonthOfDate(q.endDate));
      return out;
    },
  }),
});
