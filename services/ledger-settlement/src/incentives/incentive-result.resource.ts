import { INCENTIVE_RESULT_STATUSES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

export const MENU_PAYMENT = 'INCENTIVE_PAY';

/**
 * Incentive results (INCENTIVE_PAY: READ/CREATE/UPDATE/APPROVE; settle/incentive-payments): one row per
 * program and agent, paid in the program's pay month once APPROVED. List/detail/export through the field
 * table (AGENT users see their own); calculate, submit and cancel are workflow routes.
 */
export const resultResource = defineResource({
  name: 'IncentivePayment',
  path: '/api/incentive-payments',
  table: 'incentive_result',
  alias: 'ir',
  menu: MENU_PAYMENT,
  tags: ['Incentive payments'],
  create: false,
  update: false,
  delete: false,
  baseQuery: (db) =>
    db
      .selectFrom('incentive_result as ir')
      .innerJoin('incentive_program as ip', 'ip.program_id', 'ir.program_id')
      .leftJoin('agent as a', 'a.agent_id', 'ir.agent_id'),
  fields: {
    resultId: f.id().label('Result ID'),
    programId: f.ref().nullable(false).filter().sort().label('Program ID'),
    programCode: f.joined('ip.program_code', 'text').search().label('Program').export({ width: 18 }),
    programName: f.joined('ip.program_name', 'text').search().label('Program name').export({ width: 30 }),
    metric: f.joined('ip.metric', 'text').label('Metric'),
    rewardType: f.joined('ip.reward_type', 'text').label('Reward'),
    agentId: f.ref().nullable(false).filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().label('Agent').export({ width: 18 }),
    settleMonth: f.month().nullable(false).filter().sort().label('지급월', 'Pay month'),
    measuredValue: f.money().nullable(false).sort().label('Measured'),
    tierNo: f.int().nullable(false).sort().label('Tier'),
    amount: f.money().nullable(false).sort().label('Amount'),
    status: f.enum(INCENTIVE_RESULT_STATUSES).nullable(false).filter().sort().label('Status'),
    approvalRequestId: f.ref().label('Approval request'),
    approvedBy: f.ref().label('Approved by'),
    approvedAt: f.timestamp().label('Approved at').export({ width: 24 }),
    rejectReason: f.text().label('Reject reason').export({ width: 30 }),
    calcBasis: f.json().detailOnly().export(false).describe('measured figure, tier and reward the amount comes from'),
    version: f.version().export(false),
    createdAt: f.createdAt().sort().label('계산 일시', 'Calculated at'),
    updatedBy: f.updatedBy().hidden(),
    updatedAt: f.updatedAt().export(false),
  },
  statusField: 'status',
  defaultSort: '-resultId',
  agentScope: 'agentId',
});
