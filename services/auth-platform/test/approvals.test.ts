import { mockAdapters } from '@csp/adapters';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addUser, approvalRole, call, decisions, notificationsOf, settleRow, setupApprovals, type Ctx, type TestUser } from './approvals-helpers.js';

let ctx: Ctx;
let requester: TestUser;
let first: TestUser; // STEP_ONE, no phone
let firstWithPhone: TestUser; // STEP_ONE
let second: TestUser; // STEP_TWO and STEP_THREE
let third: TestUser; // STEP_THREE
let outsider: TestUser; // READ only

beforeAll(async () => {
  ctx = await setupApprovals();
  await approvalRole(ctx, 'STEP_ONE', ['READ', 'APPROVE']);
  await approvalRole(ctx, 'STEP_TWO', ['READ', 'APPROVE']);
  await approvalRole(ctx, 'STEP_THREE', ['READ', 'APPROVE']);
  await approvalRole(ctx, 'REQUESTER', ['READ', 'CREATE', 'UPDATE']);
  await approvalRole(ctx, 'VIEWER', ['READ']);
  // the requester also holds STEP_ONE: it must not be asked (nor allowed) to approve its own request
  requester = await addUser(ctx, 'requester', ['REQUESTER', 'STEP_ONE'], '010-9999-0000', '요청자');
  first = await addUser(ctx, 'first', ['STEP_ONE'], null, '박일번');
  firstWithPhone = await addUser(ctx, 'first_phone', ['STEP_ONE'], '010-1111-2222', '이승인');
  second = await addUser(ctx, 'second', ['STEP_TWO', 'STEP_THREE'], '010-2222-3333', 'Second Approver');
  third = await addUser(ctx, 'third', ['STEP_THREE'], '+82 10-3333-4444', '김결재');
  outsider = await addUser(ctx, 'outsider', ['VIEWER']);

  const lines = [
    { lineCode: 'THREE_STEP', lineName: 'Three steps', targetType: 'SETTLE', stepRoles: ['STEP_ONE', 'STEP_TWO', 'STEP_THREE'] },
    { lineCode: 'ONE_STEP', lineName: 'One step', targetType: 'SETTLE', stepRoles: ['STEP_ONE'] },
    { lineCode: 'WITHDRAW_ONE', lineName: 'Withdraw', targetType: 'WITHDRAW', stepRoles: ['STEP_ONE'] },
  ];
  for (const line of lines) expect((await call(ctx, 'POST', '/api/approvals/lines', ctx.adminToken, line)).status).toBe(200);
});

afterAll(async () => {
  await ctx?.close();
});

beforeEach(() => {
  mockAdapters().message.reset();
});

const pendingIds = async (u: TestUser) => (await call(ctx, 'GET', '/api/approvals/requests/pending', u.token)).body.data.list.map((r: any) => r.requestId);
const approve = (u: TestUser, id: number, body?: object) => call(ctx, 'POST', `/api/approvals/requests/${id}/approve`, u.token, body);
const messages = () =>
  ctx.db.selectFrom('external_call_log').select(['call_type', 'adapter_name', 'success', 'target_ref', 'request_summary', 'error_message']).orderBy('call_id').execute();

async function newRequest(lineCode = 'THREE_STEP', targetId?: number): Promise<{ id: number; settleId: number }> {
  const settleId = targetId ?? (await settleRow(ctx));
  const res = await call(ctx, 'POST', '/api/approvals/requests', requester.token, { targetType: 'SETTLE', targetId: settleId, approvalLineCode: lineCode });
  expect(res.status).toBe(200);
  return { id: res.body.data.id, settleId };
}

describe('approval lines', () => {
  it('keep 1-3 role steps: a 4-step line or an unknown role is E411, a duplicate code B009', async () => {
    const four = await call(ctx, 'POST', '/api/approvals/lines', ctx.adminToken, {
      lineCode: 'FOUR',
      lineName: 'Too long',
      targetType: 'SETTLE',
      stepRoles: ['STEP_ONE', 'STEP_TWO', 'STEP_THREE', 'ADMIN'],
    });
    expect(four.status).toBe(400);
    expect(four.body).toMatchObject({ success: false, code: 'E411', data: { errors: [{ field: 'stepRoles', message: 'has at most 3 steps' }] } });

    const unknownRole = await call(ctx, 'POST', '/api/approvals/lines', ctx.adminToken, { lineCode: 'BAD', lineName: 'Bad', targetType: 'SETTLE', stepRoles: ['STEP_ONE', 'NOBODY'] });
    expect(unknownRole.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'stepRoles.1', message: 'role NOBODY does not exist or is inactive' }] } });

    const dup = await call(ctx, 'POST', '/api/approvals/lines', ctx.adminToken, { lineCode: 'ONE_STEP', lineName: 'Again', targetType: 'SETTLE', stepRoles: ['STEP_ONE'] });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('B009');

    const list = await call(ctx, 'GET', '/api/approvals/lines?targetType=SETTLE', ctx.adminToken);
    expect(list.body.data.list.map((l: any) => [l.lineCode, l.stepRoles, l.stepCount, l.isActive])).toEqual([
      ['ONE_STEP', ['STEP_ONE'], 1, true],
      ['SETTLE_DEFAULT', ['ADMIN'], 1, true],
      ['THREE_STEP', ['STEP_ONE', 'STEP_TWO', 'STEP_THREE'], 3, true],
    ]);
  });
});

describe('a three-step request', () => {
  it('is pending for exactly the holders of the active step, notifies them, texts the first with a phone, and ends APPROVED with an event', async () => {
    const { id, settleId } = await newRequest();

    // step 1: STEP_ONE holders other than the requester
    expect(await pendingIds(first)).toEqual([id]);
    expect(await pendingIds(firstWithPhone)).toEqual([id]);
    expect(await pendingIds(second)).toEqual([]);
    expect(await pendingIds(third)).toEqual([]);
    expect(await pendingIds(requester)).toEqual([]);
    const needed = { noti_type: 'APPROVAL', title: `Approval needed: Settlement #${settleId}`, link_url: `/system/approvals?requestId=${id}` };
    expect(await notificationsOf(ctx, first.userId)).toEqual([{ ...needed, content: 'Step 1 of 3 (STEP_ONE) waits for your decision.' }]);
    expect(await notificationsOf(ctx, firstWithPhone.userId)).toEqual([{ ...needed, content: 'Step 1 of 3 (STEP_ONE) waits for your decision.' }]);
    expect(await notificationsOf(ctx, requester.userId)).toEqual([]);
    // the first STEP_ONE holder (by user id) has no phone: the text goes to the next one, masked in the call log
    expect(mockAdapters().message.sent).toEqual([
      { channel: 'SMS', phone: '010-1111-2222', recipientName: '이승인', text: `[CSP] Approval needed: Settlement #${settleId} (step 1 of 3)`, reference: `APPROVAL#${id}` },
    ]);

    // nobody decides a request of their own, nor a step of another role
    const self = await approve(requester, id);
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({ code: 'E403', message: `You cannot approve your own approval request ${id}` });
    const wrongRole = await approve(second, id);
    expect(wrongRole.body).toMatchObject({ code: 'E403', message: `Step 1 of approval request ${id} is decided by role STEP_ONE` });
    const noGrant = await approve(outsider, id);
    expect(noGrant.status).toBe(403);

    expect((await approve(first, id, { comment: 'figures checked' })).status).toBe(200);
    expect(await pendingIds(first)).toEqual([]);
    expect(await pendingIds(firstWithPhone)).toEqual([]);
    expect(await pendingIds(second)).toEqual([id]);
    expect(await pendingIds(third)).toEqual([]);

    expect((await approve(second, id)).status).toBe(200);
    // step 3 is STEP_THREE, which `second` also holds: one user approves one step only
    expect(await pendingIds(second)).toEqual([]);
    expect(await pendingIds(third)).toEqual([id]);
    const twice = await approve(second, id);
    expect(twice.body).toMatchObject({ code: 'E403', message: `You already decided step 2 of approval request ${id}` });
    expect((await notificationsOf(ctx, third.userId)).map((n) => n.content)).toEqual(['Step 3 of 3 (STEP_THREE) waits for your decision.']);
    expect((await notificationsOf(ctx, second.userId)).map((n) => n.content)).toEqual(['Step 2 of 3 (STEP_TWO) waits for your decision.']);

    expect((await approve(third, id)).status).toBe(200);
    expect(await pendingIds(third)).toEqual([]);
    const again = await approve(third, id);
    expect(again.body).toMatchObject({ code: 'B001', message: `Approval request ${id} is APPROVED` });

    const detail = await call(ctx, 'GET', `/api/approvals/requests/${id}`, outsider.token);
    expect(detail.body.data).toMatchObject({ requestId: id, targetType: 'SETTLE', targetId: settleId, status: 'APPROVED', statusName: '승인', currentStep: 3, stepCount: 3, decidedBy: third.userId, requestedBy: requester.userId, requesterName: '요청자' });
    expect(detail.body.data.steps.map((s: any) => [s.stepNo, s.roleCode, s.status, s.decidedBy, s.deciderName, s.comment])).toEqual([
      [1, 'STEP_ONE', 'APPROVED', first.userId, '박일번', 'figures checked'],
      [2, 'STEP_TWO', 'APPROVED', second.userId, 'Second Approver', null],
      [3, 'STEP_THREE', 'APPROVED', third.userId, '김결재', null],
    ]);

    const events = (await decisions(ctx)).filter((e) => e.subject === `SETTLE#${settleId}`);
    expect(events).toEqual([
      {
        event_type: 'APPROVAL_DECIDED',
        target: 'ledger-settlement',
        subject: `SETTLE#${settleId}`,
        payload: {
          requestId: id,
          targetType: 'SETTLE',
          targetId: settleId,
          decision: 'APPROVED',
          reason: null,
          decidedBy: third.userId,
          decidedAt: expect.any(String),
          requestedBy: requester.userId,
          approvalLineCode: 'THREE_STEP',
        },
      },
    ]);
    expect((await notificationsOf(ctx, requester.userId)).map((n) => n.title)).toEqual([`Approved: Settlement #${settleId}`]);

    // one text per activated step, each in external_call_log with the phone's last 4 digits and the name's first character
    const logs = (await messages()).filter((m) => m.target_ref === `APPROVAL#${id}`);
    expect(logs.map((m) => [m.call_type, m.adapter_name, m.success, JSON.parse(m.request_summary!)])).toEqual([
      ['MESSAGE', 'mock-message', true, { channel: 'SMS', phone: '***-****-2222', recipientName: '이**', text: `[CSP] Approval needed: Settlement #${settleId} (step 1 of 3)` }],
      ['MESSAGE', 'mock-message', true, { channel: 'SMS', phone: '***-****-3333', recipientName: 'S**************', text: `[CSP] Approval needed: Settlement #${settleId} (step 2 of 3)` }],
      ['MESSAGE', 'mock-message', true, { channel: 'SMS', phone: '+** **-****-4444', recipientName: '김**', text: `[CSP] Approval needed: Settlement #${settleId} (step 3 of 3)` }],
    ]);

    const mine = await call(ctx, 'GET', '/api/approvals/requests/mine?status=APPROVED', requester.token);
    expect(mine.body.data.list.map((r: any) => [r.requestId, r.status, r.activeRole])).toEqual([[id, 'APPROVED', null]]);
  });
});

describe('reject and cancel', () => {
  it('reject needs a reason, ends the request REJECTED at its step and tells the owner', async () => {
    const { id, settleId } = await newRequest();
    const noReason = await call(ctx, 'POST', `/api/approvals/requests/${id}/reject`, first.token, {});
    expect(noReason.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'reason' }] } });

    const res = await call(ctx, 'PUT', `/api/approvals/requests/${id}/reject`, first.token, { reason: 'exception ledger not approved yet' });
    expect(res.status).toBe(200);
    const detail = (await call(ctx, 'GET', `/api/approvals/requests/${id}`, first.token)).body.data;
    expect([detail.status, detail.reason, detail.steps.map((s: any) => s.status)]).toEqual(['REJECTED', 'exception ledger not approved yet', ['REJECTED', 'CANCELLED', 'CANCELLED']]);
    const event = (await decisions(ctx)).find((e) => e.subject === `SETTLE#${settleId}`);
    expect(event?.payload).toMatchObject({ requestId: id, decision: 'REJECTED', reason: 'exception ledger not approved yet', decidedBy: first.userId });
    expect((await notificationsOf(ctx, requester.userId)).at(-1)).toMatchObject({ title: `Rejected: Settlement #${settleId}`, content: 'exception ledger not approved yet' });

    const cancelLate = await call(ctx, 'POST', `/api/approvals/requests/${id}/cancel`, requester.token);
    expect(cancelLate.body).toMatchObject({ code: 'B001', message: `Approval request ${id} is REJECTED` });
    // the target can be put up for approval again
    expect((await newRequest('ONE_STEP', settleId)).id).toBeGreaterThan(id);
  });

  it('cancel is for the requester while nothing is decided', async () => {
    const { id, settleId } = await newRequest();
    const notMine = await call(ctx, 'POST', `/api/approvals/requests/${id}/cancel`, first.token);
    expect(notMine.status).toBe(403);
    expect((await call(ctx, 'POST', `/api/approvals/requests/${id}/cancel`, requester.token, { reason: 'wrong month' })).status).toBe(200);
    const detail = (await call(ctx, 'GET', `/api/approvals/requests/${id}`, requester.token)).body.data;
    expect([detail.status, detail.reason, detail.steps.map((s: any) => s.status)]).toEqual(['CANCELLED', 'wrong month', ['CANCELLED', 'CANCELLED', 'CANCELLED']]);
    expect((await decisions(ctx)).find((e) => e.subject === `SETTLE#${settleId}`)?.payload).toMatchObject({ decision: 'CANCELLED', decidedBy: requester.userId });
    expect(await pendingIds(first)).not.toContain(id);

    const started = await newRequest();
    expect((await approve(first, started.id)).status).toBe(200);
    const late = await call(ctx, 'POST', `/api/approvals/requests/${started.id}/cancel`, requester.token);
    expect(late.body).toMatchObject({ code: 'B001', message: `Step 1 of approval request ${started.id} is already approved; it can no longer be cancelled` });
  });
});

describe('messages', () => {
  it('a message service that throws does not fail the approval; the failure is in external_call_log', async () => {
    const { id } = await newRequest();
    mockAdapters().message.behaviour = 'fail';
    const res = await approve(firstWithPhone, id);
    expect(res.status).toBe(200);
    expect(await pendingIds(second)).toContain(id);
    expect((await notificationsOf(ctx, second.userId)).at(-1)?.link_url).toBe(`/system/approvals?requestId=${id}`);
    const failed = (await messages()).filter((m) => m.target_ref === `APPROVAL#${id}`).at(-1);
    expect(failed).toMatchObject({ success: false, error_message: 'MessageSendError: mock message service is unavailable' });
  });

  it('a step whose role holders have no phone skips the message and keeps the notifications', async () => {
    await approvalRole(ctx, 'NO_PHONE', ['READ', 'APPROVE']);
    const silent = await addUser(ctx, 'silent', ['NO_PHONE']);
    expect((await call(ctx, 'POST', '/api/approvals/lines', ctx.adminToken, { lineCode: 'NO_PHONE', lineName: 'No phone', targetType: 'SETTLE', stepRoles: ['NO_PHONE'] })).status).toBe(200);
    const { id } = await newRequest('NO_PHONE');
    expect(mockAdapters().message.sent).toEqual([]);
    expect((await messages()).filter((m) => m.target_ref === `APPROVAL#${id}`)).toEqual([]);
    expect((await notificationsOf(ctx, silent.userId)).map((n) => n.link_url)).toEqual([`/system/approvals?requestId=${id}`]);
  });
});

describe('bad requests', () => {
  it('unknown target type or line is E411, a line of another type E411, a missing target E411, a settled target B001, a second open request B009', async () => {
    const settleId = await settleRow(ctx);
    const post = (body: object) => call(ctx, 'POST', '/api/approvals/requests', requester.token, { targetType: 'SETTLE', targetId: settleId, approvalLineCode: 'ONE_STEP', ...body });

    const type = await post({ targetType: 'PAYMENT' });
    expect(type.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'targetType' }] } });
    expect((await post({ approvalLineCode: 'NOPE' })).body).toMatchObject({ code: 'E411', message: 'unknown approval line NOPE', data: { errors: [{ field: 'approvalLineCode' }] } });
    expect((await post({ approvalLineCode: 'WITHDRAW_ONE' })).body).toMatchObject({ code: 'E411', message: 'approval line WITHDRAW_ONE approves WITHDRAW requests, not SETTLE' });
    expect((await post({ targetId: 999_999 })).body).toMatchObject({ code: 'E411', message: 'SETTLE 999999 does not exist' });
    expect((await post({ targetType: 'DISPUTE', targetId: 1 })).body).toMatchObject({ code: 'E411', message: 'approval line ONE_STEP approves SETTLE requests, not DISPUTE' });

    const confirmed = await settleRow(ctx, 'CONFIRMED');
    const wrongState = await post({ targetId: confirmed });
    expect(wrongState.status).toBe(400);
    expect(wrongState.body).toMatchObject({ code: 'B001', message: `SETTLE ${confirmed} is CONFIRMED; only CALCULATED can be put up for approval` });

    const { id } = await newRequest('ONE_STEP', settleId);
    const second = await post({});
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'B009', message: `SETTLE ${settleId} already has a pending approval request (${id})` });

    expect((await call(ctx, 'GET', '/api/approvals/requests/999999', requester.token)).body.code).toBe('E404');
    expect((await approve(first, 999_999)).body.code).toBe('E404');
  });
});
