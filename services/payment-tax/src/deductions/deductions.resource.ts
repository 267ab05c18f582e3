import { AppError, defineResource, duplicate, f, invalid, type ResourceContext } from '@csp/service-kit';
import { sql } from 'kysely';

export const DEDUCTION_TYPES = ['LOAN', 'ADVANCE', 'GUARANTEE', 'DUES', 'AD', 'CHARGEBACK_PENDING', 'OTHER'] as const;
export const DEDUCTION_STATUSES = ['PENDING', 'APPLIED', 'CANCELLED'] as const;

type Body = Record<string, unknown>;

async function validateDeduction(body: Body, ctx: ResourceContext, existing?: Record<string, unknown>): Promise<void> {
  if (existing) {
    if (existing.status !== 'PENDING') {
      throw new AppError('ALREADY_CONFIRMED', `Deduction ${String(existing.deduction_id)} is ${String(existing.status)}: only a PENDING deduction can be changed`);
    }
    return;
  }
  const agent = await ctx.trx.selectFrom('agent').select('agent_id').where('agent_id', '=', body.agentId as number).executeTakeFirst();
  if (!agent) throw invalid('agentId', 'agent not found');
  const same = await ctx.trx
    .selectFrom('agent_deduction')
    .select(['deduction_id', 'status'])
    .where('agent_id', '=', body.agentId as number)
    .where('settle_month', '=', body.settleMonth as string)
    .where('deduction_type', '=', body.deductionType as string)
    .executeTakeFirst();
  if (same) {
    throw duplicate(
      `Agent ${String(body.agentId)} already has a ${String(body.deductionType)} deduction for ${String(body.settleMonth)} ` +
        `(deduction ${same.deduction_id}, ${same.status}); change its amount instead`,
    );
  }
}

/** Deductions (spec 2.6, `/api/deductions`): one per (agent, month, type); changed only while PENDING. */
export const deductionResource = defineResource({
  name: 'Deduction',
  path: '/api/deductions',
  table: 'agent_deduction',
  alias: 'd',
  menu: 'DEDUCTION',
  tags: ['Deductions'],
  baseQuery: (db) => db.selectFrom('agent_deduction as d').leftJoin('agent as a', 'a.agent_id', 'd.agent_id'),
  fields: {
    deductionId: f.id().label('Deduction'),
    agentId: f.ref().required().createOnly().filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().sort().label('Agent'),
    settleMonth: f.month().required().createOnly().filter().sort().label('Settle month'),
    deductionType: f.enum(DEDUCTION_TYPES).required().createOnly().filter().sort().label('Type'),
    deductionTypeName: f.codeName('DEDUCTION_TYPE', 'deductionType').label('Type name'),
    amount: f
      .money()
      .required()
      .refine((s) => s.refine((v) => typeof v === 'string' && !v.startsWith('-') && /[1-9]/.test(v), 'must be greater than 0'))
      .sort()
      .label('Amount'),
    description: f.text({ max: 500 }).save().search().label('Description'),
    status: f.enum(DEDUCTION_STATUSES).label('Status'),
    statusName: f.codeName('DEDUCTION_STATUS', 'status').label('Status name'),
    appliedPaymentId: f
      .computed(
        sql`(select x.payment_id from payment_deduction_detail x where x.deduction_id = d.deduction_id order by x.detail_id desc limit 1)`,
        'ref',
      )
      .label('Applied to payment'),
    carriedFromMonth: f
      .computed(
        sql`(select string_agg(c.from_month, ',' order by c.from_month) from deduction_carry_forward c where c.deduction_id = d.deduction_id)`,
        'text',
      )
      .label('Carried forward from'),
    appliedAt: f.timestamp().label('Applied at'),
    cancelledAt: f.timestamp().label('Cancelled at'),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy(),
  },
  statusField: 'status',
  dateFilter: 'createdAt',
  agentScope: 'agentId',
  validate: validateDeduction,
  delete: false,
  export: 'READ',
});
