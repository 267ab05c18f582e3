import { mockAdapters } from '@csp/adapters';
import { EventQueues, silentLog } from '@csp/events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadBankRetrySettings, startBankRetrySchedule } from '../src/withdraw-requests/bank-retry.js';
import { grantRole, REDIS_URL, startWithdrawPlatform, userWith, waitFor, type WithdrawPlatform } from './withdraw-platform.js';

/**
 * Withdraw requests end to end: payment-tax through the gateway, the approval workflow in auth-platform, the
 * events between them through the outbox, relay and consumers both services host, the mock bank.
 */

let p: WithdrawPlatform;
let clerk: { userId: number; token: string };
let lead: { userId: number; token: string };
let head: { userId: number; token: string };
const agents: Record<'kim' | 'lee' | 'park', number> = { kim: 0, lee: 0, park: 0 };
const ACCOUNTS = { kim: '110-123-456789', lee: '1002-333-444444', park: '333-22-1111' };

beforeAll(async () => {
  p = await startWithdrawPlatform();
  const { db } = p.ctx;
  await grantRole(p.ctx, 'WD_CLERK', { WITHDRAW: ['READ', 'CREATE', 'UPDATE'], APPROVAL: ['READ'] });
  await grantRole(p.ctx, 'WD_LEAD', { APPROVAL: ['READ', 'APPROVE'] });
  await grantRole(p.ctx, 'WD_HEAD', { APPROVAL: ['READ', 'APPROVE'] });
  clerk = await userWith(p.ctx, 'wd_clerk', ['WD_CLERK']);
  lead = await userWith(p.ctx, 'wd_lead', ['WD_LEAD'], '010-5555-6666');
  head = await userWith(p.ctx, 'wd_head', ['WD_HEAD']);
  // the withdraw line: two steps; a request that names no line takes system_config WITHDRAW_APPROVAL_LINE
  expect(
    (await p.approvals('POST', '/api/approvals/lines', p.ctx.adminToken, { lineCode: 'WD_TWO', lineName: 'Withdraw', targetType: 'WITHDRAW', stepRoles: ['WD_LEAD', 'WD_HEAD'] })).status,
  ).toBe(200);
  await db.updateTable('system_config').set({ config_value: 'WD_TWO' }).where('config_key', '=', 'WITHDRAW_APPROVAL_LINE').execute();

  const org = await db.insertInto('organization').values({ org_name: 'Withdraw Branch', org_type: 'BR' }).returning('org_id').executeTakeFirstOrThrow();
  for (const [key, name] of [['kim', 'Kim Withdraw'], ['lee', '이출금'], ['park', 'Park Retry']] as const) {
    const agent = await db
      .insertInto('agent')
      .values({ org_id: org.org_id, grade_id: 1, agent_name: name, bank_code: '004', account_no: p.ctx.app.cipher.encrypt(ACCOUNTS[key]) })
      .returning('agent_id')
      .executeTakeFirstOrThrow();
    agents[key] = agent.agent_id;
    // confirmed, unpaid: 300000.00 + 200000.00 net; a PAID month does not count
    await db
      .insertInto('settle_master')
      .values([
        { agent_id: agent.agent_id, settle_month: '202501', gross_amount: '310000.00', tax_amount: '10000.00', net_amount: '300000.00', status: 'CONFIRMED' },
        { agent_id: agent.agent_id, settle_month: '202502', gross_amount: '210000.00', tax_amount: '10000.00', net_amount: '200000.00', status: 'CONFIRMED' },
        { agent_id: agent.agent_id, settle_month: '202412', gross_amount: '999999.00', tax_amount: '0.00', net_amount: '999999.00', status: 'PAID' },
      ])
      .execute();
  }
});

afterAll(async () => {
  await p?.close();
});

beforeEach(() => {
  mockAdapters().bank.reset();
  mockAdapters().message.reset();
});

const withdraw = async (id: number) => (await p.call('GET', `/api/withdraw-requests/${id}`, clerk.token)).body.data;
const create = (agentId: number, amount: string, extra: object = {}) => p.call('POST', '/api/withdraw-requests', clerk.token, { agentId, amount, ...extra });

/** Creates a withdraw and waits for its approval request (started by auth-platform from the event). */
async function requested(agentId: number, amount: string): Promise<{ withdrawId: number; requestId: number }> {
  const res = await create(agentId, amount);
  expect(res.status).toBe(200);
  const withdrawId = res.body.data.id as number;
  const request = await waitFor(
    () => p.ctx.db.selectFrom('approval_request').select('request_id').where('target_type', '=', 'WITHDRAW').where('target_id', '=', withdrawId).executeTakeFirst(),
    `the approval request of withdraw ${withdrawId}`,
  );
  return { withdrawId, requestId: request.request_id };
}

async function approveAll(requestId: number): Promise<void> {
  expect((await p.approvals('POST', `/api/approvals/requests/${requestId}/approve`, lead.token)).status).toBe(200);
  expect((await p.approvals('POST', `/api/approvals/requests/${requestId}/approve`, head.token)).status).toBe(200);
}

const untilStatus = (withdrawId: number, test: (w: any) => boolean, what: string) =>
  waitFor(async () => {
    const w = await withdraw(withdrawId);
    return test(w) ? w : undefined;
  }, what);

const bankCalls = (withdrawId: number) =>
  p.ctx.db
    .selectFrom('external_call_log')
    .select(['call_type', 'adapter_name', 'method_name', 'success', 'request_summary', 'response_summary', 'error_message'])
    .where('target_ref', '=', `WITHDRAW#${withdrawId}`)
    .orderBy('call_id')
    .execute();

describe('creating a withdraw request', () => {
  it('refuses an amount above the confirmed, unpaid balance with E411 naming the balance', async () => {
    const balance = await p.call('GET', `/api/withdraw-requests/balance?agentId=${agents.lee}`, clerk.token);
    expect(balance.body.data).toEqual({ agentId: agents.lee, confirmedUnpaid: '500000.00', outstandingWithdraws: '0.00', available: '500000.00' });

    const res = await create(agents.lee, '500000.01');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      success: false,
      code: 'E411',
      message: 'amount 500000.01 exceeds the available balance 500000.00 (confirmed unpaid 500000.00, open withdraws 0.00)',
      data: { errors: [{ field: 'amount' }] },
    });
    expect((await create(agents.lee, '0')).body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'amount', message: 'must be greater than 0' }] } });
    expect((await create(999_999, '1')).body).toMatchObject({ code: 'E411', message: 'agent 999999 not found' });
  });

  it('starts its approval through the outbox and counts against the balance while open', async () => {
    const res = await create(agents.lee, '120000', { note: 'school fees' });
    expect(res.status).toBe(200);
    const id = res.body.data.id;
    const w = await withdraw(id);
    expect(w).toMatchObject({ withdrawId: id, agentId: agents.lee, agentName: '이출금', amount: '120000.00', status: 'REQUESTED', approvalLineCode: 'WD_TWO', accountNo: '1002-***-******', note: 'school fees' });
    expect(w.settleMonth).toMatch(/^\d{6}$/);
    const event = await p.ctx.db.selectFrom('event_outbox').select(['event_type', 'target', 'subject', 'payload']).where('subject', '=', `WITHDRAW#${id}`).executeTakeFirstOrThrow();
    expect(event).toEqual({
      event_type: 'APPROVAL_REQUESTED',
      target: 'auth-platform',
      subject: `WITHDRAW#${id}`,
      payload: { targetType: 'WITHDRAW', targetId: id, approvalLineCode: 'WD_TWO', requestedBy: clerk.userId, title: `Withdraw request #${id} (agent ${agents.lee}, 120000.00)` },
    });
    const request = await waitFor(
      () => p.ctx.db.selectFrom('approval_request').select(['request_id', 'requested_by', 'line_code', 'status']).where('target_id', '=', id).where('target_type', '=', 'WITHDRAW').executeTakeFirst(),
      'the approval request',
    );
    expect(request).toMatchObject({ requested_by: clerk.userId, line_code: 'WD_TWO', status: 'PENDING' });
    const pending = await p.approvals('GET', '/api/approvals/requests/pending', lead.token);
    expect(pending.body.data.list.map((r: any) => r.requestId)).toContain(request.request_id);

    const balance = await p.call('GET', `/api/withdraw-requests/balance?agentId=${agents.lee}`, clerk.token);
    expect(balance.body.data).toMatchObject({ outstandingWithdraws: '120000.00', available: '380000.00' });
    expect((await create(agents.lee, '380000.01')).body.message).toContain('exceeds the available balance 380000.00');
  });
});

describe('final approval', () => {
  it('asks the bank to transfer: SENT with the transaction, an ADVANCE deduction, a masked BANK call log', async () => {
    const { withdrawId, requestId } = await requested(agents.kim, '150000.00');
    await approveAll(requestId);
    const w = await untilStatus(withdrawId, (x) => x.status === 'SENT', 'SENT');
    expect(w).toMatchObject({
      status: 'SENT',
      approvalRequestId: requestId,
      decidedBy: head.userId,
      transferTxId: `MOCK-WITHDRAW-${withdrawId}`,
      transferStatus: 'COMPLETED',
      transferAttempts: 1,
      failReason: null,
      rejectReason: null,
    });
    expect(w.transferAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(mockAdapters().bank.calls).toEqual([
      { reference: `WITHDRAW#${withdrawId}`, bankCode: '004', accountNo: ACCOUNTS.kim, holderName: 'Kim Withdraw', amount: '150000.00' },
    ]);
    const calls = await bankCalls(withdrawId);
    expect(calls.map((c) => [c.call_type, c.adapter_name, c.method_name, c.success, c.request_summary])).toEqual([
      ['BANK', 'mock-bank', 'transfer', true, `{"reference":"WITHDRAW#${withdrawId}","bankCode":"004","accountNo":"***-***-**6789","holderName":"K***********","amount":"150000.00"}`],
    ]);
    expect(JSON.parse(calls[0]!.response_summary!)).toMatchObject({ txId: `MOCK-WITHDRAW-${withdrawId}`, status: 'COMPLETED' });

    const deduction = await p.ctx.db.selectFrom('agent_deduction').select(['deduction_id', 'settle_month', 'deduction_type', 'amount', 'status']).where('agent_id', '=', agents.kim).executeTakeFirstOrThrow();
    expect(deduction).toMatchObject({ settle_month: w.settleMonth, deduction_type: 'ADVANCE', amount: '150000.00', status: 'PENDING' });
    expect(w.deductionId).toBe(deduction.deduction_id);
    const balance = await p.call('GET', `/api/withdraw-requests/balance?agentId=${agents.kim}`, clerk.token);
    expect(balance.body.data).toMatchObject({ outstandingWithdraws: '150000.00', available: '350000.00' });

    // the approval's requester heard about it
    const notes = await p.ctx.db.selectFrom('notification').select('title').where('user_id', '=', clerk.userId).execute();
    expect(notes.map((n) => n.title)).toContain(`Approved: Withdraw request #${withdrawId} (agent ${agents.kim}, 150000.00)`);
  });

  it('a duplicate delivery of the decision changes nothing and calls no bank', async () => {
    const { withdrawId, requestId } = await requested(agents.kim, '1000.00');
    await approveAll(requestId);
    const sent = await untilStatus(withdrawId, (x) => x.status === 'SENT', 'SENT');
    const decided = await p.ctx.db.selectFrom('event_outbox').select(['event_id', 'event_key', 'event_type']).where('subject', '=', `WITHDRAW#${withdrawId}`).where('event_type', '=', 'APPROVAL_DECIDED').executeTakeFirstOrThrow();
    const queues = new EventQueues(REDIS_URL, { prefix: p.eventsPrefix, attempts: 1, backoffMs: 10 });
    await queues.publish([{ eventId: decided.event_id, eventKey: decided.event_key, type: decided.event_type, target: 'payment-tax' }], '-duplicate');
    const job = await queues.queue('payment-tax').getJob(`evt-${decided.event_id}-${decided.event_key}-duplicate`);
    await waitFor(async () => (await job!.isCompleted()) && job, 'the duplicate job');
    expect((await queues.queue('payment-tax').getJob(job!.id!))!.returnvalue).toBe('duplicate');
    await queues.close();

    expect(await withdraw(withdrawId)).toEqual(sent);
    expect(mockAdapters().bank.calls).toHaveLength(1);
    const processed = await p.ctx.db.selectFrom('processed_event').select('consumer').where('event_id', '=', decided.event_id).execute();
    expect(processed).toEqual([{ consumer: 'payment-tax' }]);
  });
});

describe('a failing bank', () => {
  it('leaves the withdraw APPROVED with fail_reason; bank-retry (system_config limit) sends it', async () => {
    mockAdapters().bank.setBehaviour(ACCOUNTS.park, 'fail');
    const first = await requested(agents.park, '10000.00');
    const second = await requested(agents.park, '20000.00');
    await approveAll(first.requestId);
    await approveAll(second.requestId);
    for (const id of [first.withdrawId, second.withdrawId]) {
      const w = await untilStatus(id, (x) => x.transferAttempts === 1, 'the failed transfer');
      expect(w).toMatchObject({ status: 'APPROVED', transferStatus: 'DECLINED', failReason: 'mock bank declined the transfer to account ***-**-1111', transferTxId: null });
      const calls = await bankCalls(id);
      expect(calls.map((c) => [c.success, c.error_message])).toEqual([[false, 'BankTransferError: mock bank declined the transfer to account ***-**-1111']]);
    }

    // a timeout is a failure too (outcome unknown; the retry repeats the same reference)
    mockAdapters().bank.setBehaviour(ACCOUNTS.park, 'timeout');
    await p.ctx.db.updateTable('system_config').set({ config_value: '1' }).where('config_key', '=', 'BANK_RETRY_LIMIT').execute();
    const timedOut = await p.call('POST', '/api/internal/bank-retry', clerk.token);
    expect(timedOut.body.data).toEqual({ limit: 1, attempted: 1, sent: 0, failed: 1 });
    expect(await withdraw(first.withdrawId)).toMatchObject({ status: 'APPROVED', transferStatus: 'TIMEOUT', transferAttempts: 2, failReason: 'mock bank did not answer within 100 ms' });

    mockAdapters().bank.setBehaviour(ACCOUNTS.park, 'succeed');
    const retried = await p.call('PUT', '/api/internal/bank-retry', clerk.token);
    expect(retried.body.data).toEqual({ limit: 1, attempted: 1, sent: 1, failed: 0 });
    expect(await withdraw(first.withdrawId)).toMatchObject({ status: 'SENT', transferStatus: 'COMPLETED', transferAttempts: 3, failReason: null, transferTxId: `MOCK-WITHDRAW-${first.withdrawId}` });
    expect((await withdraw(second.withdrawId)).status).toBe('APPROVED');

    await p.ctx.db.updateTable('system_config').set({ config_value: '100' }).where('config_key', '=', 'BANK_RETRY_LIMIT').execute();
    expect((await p.call('POST', '/api/internal/bank-retry', clerk.token)).body.data).toEqual({ limit: 100, attempted: 1, sent: 1, failed: 0 });
    expect((await p.call('POST', '/api/internal/bank-retry', clerk.token)).body.data).toEqual({ limit: 100, attempted: 0, sent: 0, failed: 0 });
    const advance = await p.ctx.db.selectFrom('agent_deduction').select(['amount']).where('agent_id', '=', agents.park).where('deduction_type', '=', 'ADVANCE').execute();
    expect(advance).toEqual([{ amount: '30000.00' }]);
  });
});

describe('reject, cancel and an approval that cannot start', () => {
  it('reject makes the withdraw REJECTED with the reason; cancel CANCELLED; neither reaches the bank', async () => {
    const rejected = await requested(agents.lee, '1000.00');
    expect((await p.approvals('POST', `/api/approvals/requests/${rejected.requestId}/approve`, lead.token)).status).toBe(200);
    expect((await p.approvals('POST', `/api/approvals/requests/${rejected.requestId}/reject`, head.token, { reason: 'duplicate of last week' })).status).toBe(200);
    expect(await untilStatus(rejected.withdrawId, (x) => x.status !== 'REQUESTED', 'REJECTED')).toMatchObject({
      status: 'REJECTED',
      rejectReason: 'duplicate of last week',
      decidedBy: head.userId,
      approvalRequestId: rejected.requestId,
    });

    const cancelled = await requested(agents.lee, '2000.00');
    // the clerk who asked may cancel while nothing is decided; an approver may not approve its own request
    expect((await p.approvals('POST', `/api/approvals/requests/${cancelled.requestId}/cancel`, clerk.token, { reason: 'agent changed its mind' })).status).toBe(403);
    await grantRole(p.ctx, 'WD_CLERK', { APPROVAL: ['UPDATE'] });
    expect((await p.approvals('POST', `/api/approvals/requests/${cancelled.requestId}/cancel`, clerk.token, { reason: 'agent changed its mind' })).status).toBe(200);
    expect(await untilStatus(cancelled.withdrawId, (x) => x.status !== 'REQUESTED', 'CANCELLED')).toMatchObject({ status: 'CANCELLED', rejectReason: 'agent changed its mind' });
    expect(mockAdapters().bank.calls).toEqual([]);
  });

  it('an unknown approval line rejects the withdraw with the reason from the approval service', async () => {
    const res = await create(agents.lee, '10.00', { approvalLineCode: 'NO_SUCH_LINE' });
    expect(res.status).toBe(200);
    const w = await untilStatus(res.body.data.id, (x) => x.status !== 'REQUESTED', 'the refusal');
    expect(w).toMatchObject({ status: 'REJECTED', approvalRequestId: null, rejectReason: 'the approval could not start: unknown approval line NO_SUCH_LINE' });
  });

  it('a withdraw that is not REQUESTED any more cannot be put up for approval again (B001)', async () => {
    const { withdrawId, requestId } = await requested(agents.lee, '5.00');
    await approveAll(requestId);
    await untilStatus(withdrawId, (x) => x.status === 'SENT', 'SENT');
    const again = await p.approvals('POST', '/api/approvals/requests', clerk.token, { targetType: 'WITHDRAW', targetId: withdrawId, approvalLineCode: 'WD_TWO' });
    expect(again.status).toBe(403);
    await grantRole(p.ctx, 'WD_CLERK', { APPROVAL: ['CREATE'] });
    const refused = await p.approvals('POST', '/api/approvals/requests', clerk.token, { targetType: 'WITHDRAW', targetId: withdrawId, approvalLineCode: 'WD_TWO' });
    expect(refused.body).toMatchObject({ code: 'B001', message: `WITHDRAW ${withdrawId} is SENT; only REQUESTED can be put up for approval` });
    // parked events stay empty: every event of this file was applied
    const parked = await p.call('GET', '/api/internal/events/parked', p.ctx.adminToken);
    expect(parked.body.data).toMatchObject({ total: 0, list: [] });
    const sent = await p.call('GET', `/api/withdraw-requests?status=SENT&agentId=${agents.lee}`, clerk.token);
    expect(sent.body.data.list.map((r: any) => r.withdrawId)).toEqual([withdrawId]);
  });
});

describe('the bank retry schedule (APP_BANK_RETRY_CRON)', () => {
  it('runs the retry on its cron pattern until closed', async () => {
    let runs = 0;
    const stop = await startBankRetrySchedule({
      redisUrl: REDIS_URL,
      prefix: p.eventsPrefix,
      cron: '* * * * * *',
      retry: async () => (runs += 1),
      logger: silentLog,
    });
    await waitFor(async () => runs >= 2, 'two scheduled runs', 10_000);
    await stop();
    expect(loadBankRetrySettings({ APP_BANK_RETRY_CRON: '0 */10 * * * *', APP_BANK_RETRY_LIMIT: '25' })).toEqual({ cron: '0 */10 * * * *', limit: 25 });
    expect(loadBankRetrySettings({})).toEqual({ cron: undefined, limit: undefined });
  });
});
