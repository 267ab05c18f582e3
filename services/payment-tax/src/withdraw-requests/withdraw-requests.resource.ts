import { z } from 'zod';
import { PARKED_EVENT_STATUSES, WITHDRAW_STATUSES } from '@csp/db';
import { defineResource, f, zMoney } from '@csp/service-kit';

export const WITHDRAW_MENU = 'WITHDRAW';
export const tags = ['Withdraw requests'];

/**
 * Withdraw requests (`/api/withdraw-requests`, WITHDRAW; spec 2.6, 3.2): list, detail and export through the
 * kit; creating one is a workflow (balance check, approval start) in withdraw-requests.routes.ts.
 */
export const withdrawResource = defineResource({
  name: 'WithdrawRequest',
  path: '/api/withdraw-requests',
  table: 'withdraw_request',
  alias: 'w',
  menu: WITHDRAW_MENU,
  tags,
  baseQuery: (db) => db.selectFrom('withdraw_request as w').leftJoin('agent as a', 'a.agent_id', 'w.agent_id'),
  fields: {
    withdrawId: f.id().label('Withdraw request'),
    agentId: f.ref().filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().sort().label('Agent'),
    amount: f.money().sort().label('Amount'),
    settleMonth: f.month().filter().sort().label('반영 정산월', 'Counts for month'),
    requestDate: f.date().sort().label('Requested on'),
    status: f.enum(WITHDRAW_STATUSES).filter('in').sort().label('Status'),
    note: f.text({ max: 500 }).label('Note'),
    approvalLineCode: f.code({ max: 30 }).label('Approval line'),
    approvalRequestId: f.ref().label('Approval request'),
    bankCode: f.text({ max: 10 }).label('Bank'),
    accountNo: f.text({ max: 200 }).encrypted().masked('accountNo').label('Account'),
    decidedBy: f.ref().label('Decided by'),
    decidedAt: f.timestamp().label('Decided at'),
    rejectReason: f.text({ max: 1000 }).label('Reject reason'),
    transferTxId: f.text({ max: 100 }).label('Transfer id'),
    transferStatus: f.text({ max: 30 }).label('Transfer status'),
    transferAt: f.timestamp().sort().label('Transferred at'),
    transferAttempts: f.int().label('Transfer attempts'),
    failReason: f.text({ max: 1000 }).label('Fail reason'),
    deductionId: f.ref().label('선지급 공제', 'Advance deduction'),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy(),
  },
  // `?status=APPROVED,SENT` through the field's `in` filter (a statusField on the same key would compare the list)
  dateFilter: 'requestDate',
  agentScope: 'agentId',
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});

export const createWithdrawBody = z.object({
  agentId: z.coerce.number().int().positive(),
  amount: zMoney.refine((v) => !v.startsWith('-') && /[1-9]/.test(v), 'must be greater than 0'),
  note: z.string().trim().min(1).max(500).optional(),
  /** default: system_config WITHDRAW_APPROVAL_LINE */
  approvalLineCode: z.string().trim().min(1).max(30).optional(),
});

export const balanceQuery = z.object({ agentId: z.coerce.number().int().positive() });
export const balanceResp = z.object({
  agentId: z.number(),
  /** net of the agent's CONFIRMED (not yet paid) settlement rows */
  confirmedUnpaid: z.string(),
  /** requested, approved, and sent withdraws not yet settled by a successful payment */
  outstandingWithdraws: z.string(),
  available: z.string(),
});

export const retryResp = z.object({ limit: z.number(), attempted: z.number(), sent: z.number(), failed: z.number() });

/**
 * Events a consumer could not apply (`/api/internal/events/parked`, read with the external call log menu):
 * the operator's view of the outbox's poison messages, of every consumer.
 */
export const parkedEventResource = defineResource({
  name: 'ParkedEvent',
  path: '/api/internal/events/parked',
  table: 'parked_event',
  alias: 'p',
  menu: 'SYSTEM_EXTERNAL_CALL_LOG',
  tags: ['Events'],
  fields: {
    parkedId: f.id(),
    consumer: f.text({ max: 40 }).filter().sort().label('Consumer'),
    eventId: f.ref().filter().sort().label('Event'),
    eventType: f.text({ max: 60 }).filter().label('Type'),
    subject: f.text({ max: 100 }).search().label('Subject'),
    payload: f.json().label('Payload'),
    attempts: f.int().label('Attempts'),
    errorMessage: f.text({ max: 1000 }).label('Error'),
    status: f.enum(PARKED_EVENT_STATUSES).filter().sort().label('Status'),
    parkedAt: f.timestamp().sort().label('Parked at'),
    resolvedAt: f.timestamp().label('Resolved at'),
    resolvedBy: f.ref().label('Resolved by'),
  },
  defaultSort: '-parkedId',
  statusField: 'status',
  create: false,
  update: false,
  delete: false,
  export: false,
});
