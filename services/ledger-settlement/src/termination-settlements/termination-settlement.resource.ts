import { sql } from 'kysely';
import { TERMINATION_STATUSES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

export const MENU_TERMINATION = 'TERM_SETTLE';

/**
 * Termination settlements (TERM_SETTLE): list/export through the field table (AGENT users see their own);
 * create, the detail (recomputed while DRAFT), approve and cancel are workflow routes.
 */
export const terminationResource = defineResource({
  name: 'TerminationSettlement',
  path: '/api/termination-settlements',
  table: 'termination_settlement',
  alias: 'ts',
  menu: MENU_TERMINATION,
  tags: ['Termination settlements'],
  create: false,
  update: false,
  detail: false,
  delete: false,
  baseQuery: (db) => db.selectFrom('termination_settlement as ts').leftJoin('agent as a', 'a.agent_id', 'ts.agent_id'),
  fields: {
    termId: f.id().label('Termination ID'),
    agentId: f.ref().nullable(false).filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().label('Agent').export({ width: 18 }),
    agentStatus: f.joined('a.status', 'text').label('Agent status'),
    leaveDate: f.date().nullable(false).sort().label('Leave date'),
    settleMonth: f.month().nullable(false).filter('range').sort().label('최종 정산월', 'Final month'),
    unpaidConfirmed: f.money().nullable(false).label('Unpaid confirmed'),
    futureChargebacks: f.money().nullable(false).label('Accelerated chargebacks'),
    pendingDeductions: f.money().nullable(false).label('Pending deductions'),
    pendingExceptions: f.money().nullable(false).label('Pending exceptions'),
    finalNet: f.money().nullable(false).sort().label('Final net'),
    receivable: f.computed(sql`greatest(-ts.final_net, 0)`, 'money').label('Receivable'),
    status: f.enum(TERMINATION_STATUSES).nullable(false).filter().sort().label('Status'),
    note: f.text().label('Note').export({ width: 30 }),
    decisionNote: f.text().label('Decision note').export({ width: 30 }),
    approvedBy: f.ref().label('Approved by'),
    approvedAt: f.timestamp().label('Approved at').export({ width: 24 }),
    deductionId: f.ref().label('미수금 공제', 'Receivable deduction'),
    correctionId: f.ref().label('Payout correction'),
    calcBasis: f.json().detailOnly().export(false).describe('the rows counted, by kind, with their signed amounts'),
    version: f.version().export(false),
    createdBy: f.createdBy().label('요청자', 'Requested by'),
    createdAt: f.createdAt().sort().label('요청 일시', 'Requested at'),
    updatedBy: f.updatedBy().hidden(),
    updatedAt: f.updatedAt().export(false),
  },
  statusField: 'status',
  dateFilter: 'createdAt',
  defaultSort: '-termId',
  agentScope: 'agentId',
});
