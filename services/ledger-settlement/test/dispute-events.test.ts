import { randomBytes } from 'node:crypto';
import {
  applyEvent,
  silentLog,
  writeContractEvent,
  type ApprovalDecided,
} from '@csp/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEventConsumer } from '../src/event-consumer.js';
import { api, deliverTwice, insertLedger, insertSettle, removeRedisPrefix, seedMiniBook, startContext, type Api, type Ctx, type MiniBook } from './api-helpers.js';

/**
 * DISPUTE decisions of the approval workflow (APPROVAL_DECIDED written by auth-platform when a request ends)
 * applied by ledger-settlement's consumer with the dispute service's own decideDispute: APPROVED books the
 * claimed amount as the dispute's correction in the same transaction, once, however often it is delivered.
 * TAX_RATE 3.3; pct(x, r) = x * r / 100 HALF_UP.
 */
const M = '202502';
const prefix = `ls-dispute-evt-${randomBytes(4).toString('hex')}`;
let ctx: Ctx;
let a: Api;
let book: MiniBook;
let approverId: number;
let raiserId: number;
let settleId: number;
let ledgerId: number;
let requestSeq = 900;

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  book = await seedMiniBook(ctx);
  // fc 202502: recruit 2000.00 -> gross 2000.00, tax 66.00, net 1934.00
  ledgerId = await insertLedger(ctx, 'recruit_ledger', { agentId: book.fc, contractId: book.contracts[0]!, settleMonth: M, companyAmount: '4000.00', agentAmount: '2000.00' });
  settleId = await insertSettle(ctx, { agentId: book.fc, settleMonth: M, recruit: '2000.00', gross: '2000.00', tax: '66.00', net: '1934.00' });
  // the seeded admin (the default token) raises the disputes; another administrator decides them
  const admin = await ctx.db.selectFrom('users').select('user_id').where('login_id', '=', 'admin').executeTakeFirstOrThrow();
  raiserId = Number(admin.user_id);
  approverId = (await ctx.userFor('ADMIN')).userId;
});

afterAll(async () => {
  await ctx?.close();
  await removeRedisPrefix(prefix);
});

async function disputeInReview(claimedAmount: string | null): Promise<number> {
  const raised = await a.post('/api/disputes', {
    targetTable: 'recruit_ledger',
    targetId: ledgerId,
    reasonCode: 'WRONG_AMOUNT',
    reasonText: 'rate of the carrier file',
    ...(claimedAmount === null ? {} : { claimedAmount }),
  });
  expect(raised.status, JSON.stringify(raised.body)).toBe(200);
  const id = raised.body.data.id as number;
  expect((await a.put(`/api/disputes/${id}/review`, { note: 'sent for approval' })).status).toBe(200);
  return id;
}

/** The event auth-platform writes when the request ends (APPROVAL_DECIDED to the target's owner). */
async function decided(disputeId: number, decision: ApprovalDecided['decision'], decidedBy: number, reason: string | null = null) {
  requestSeq += 1;
  const payload: ApprovalDecided = {
    requestId: requestSeq,
    targetType: 'DISPUTE',
    targetId: disputeId,
    decision,
    reason,
    decidedBy,
    decidedAt: new Date().toISOString(),
    requestedBy: raiserId,
    approvalLineCode: 'DISPUTE_DEFAULT',
  };
  const eventId = await ctx.db.transaction().execute((trx) => writeContractEvent(trx, 'APPROVAL_DECIDED', payload));
  const row = await ctx.db.selectFrom('event_outbox').select(['event_id', 'event_key', 'event_type', 'target']).where('event_id', '=', eventId).executeTakeFirstOrThrow();
  return { row, requestId: requestSeq, job: { data: { eventId: row.event_id, eventKey: row.event_key, type: row.event_type }, attempt: 1, maxAttempts: 3 } };
}

const options = () => ({ db: ctx.db, consumer: ledgerEventConsumer, logger: silentLog });
const dispute = (id: number) =>
  ctx.db
    .selectFrom('commission_dispute')
    .select(['status', 'approved_amount', 'correction_id', 'decided_by', 'decision_note'])
    .where('dispute_id', '=', id)
    .executeTakeFirstOrThrow();
const correctionsOf = (disputeId: number) =>
  ctx.db
    .selectFrom('settle_correction')
    .select(['correction_id', 'correction_type', 'amount', 'status', 'target_month', 'decided_by', 'source_table', 'source_id'])
    .where('dispute_id', '=', disputeId)
    .execute();
const settle = () =>
  ctx.db.selectFrom('settle_master').select(['correction_total', 'gross_amount', 'tax_amount', 'net_amount']).where('settle_id', '=', settleId).executeTakeFirstOrThrow();

describe('DISPUTE decisions of the approval workflow', () => {
  it('APPROVED through the relay and queue: the claimed amount becomes its correction once, although the job is delivered twice', async () => {
    const id = await disputeInReview('80.00');
    const { row, requestId } = await decided(id, 'APPROVED', approverId);
    expect(row).toMatchObject({ event_type: 'APPROVAL_DECIDED', target: 'ledger-settlement' });
    // a second job of the same event under another job id: only processed_event can refuse it
    const outcomes = await deliverTwice(ctx, prefix, row, ledgerEventConsumer);
    expect(outcomes).toEqual(['applied', 'duplicate']);
    const corrections = await correctionsOf(id);
    expect(corrections).toEqual([
      {
        correction_id: expect.any(Number),
        correction_type: 'DISPUTE',
        amount: '80.00',
        status: 'APPROVED',
        target_month: M,
        decided_by: approverId,
        source_table: 'recruit_ledger',
        source_id: ledgerId,
      },
    ]);
    expect(await dispute(id)).toEqual({
      status: 'APPROVED',
      approved_amount: '80.00',
      correction_id: corrections[0]!.correction_id,
      decided_by: approverId,
      decision_note: `Approved through approval request ${requestId}`,
    });
    // the CALCULATED row of the month counts it at once: 2000.00 + 80.00 = 2080.00; tax = pct(2080.00, 3.3) = 68.64; net 2011.36
    expect(await settle()).toEqual({ correction_total: '80.00', gross_amount: '2080.00', tax_amount: '68.64', net_amount: '2011.36' });
    const logged = await ctx.db
      .selectFrom('data_change_log')
      .select(['table_name', 'action', 'user_id'])
      .where('request_id', '=', `event-${row.event_id}`)
      .orderBy('change_id')
      .execute();
    expect(logged).toEqual([
      { table_name: 'commission_dispute', action: 'APPROVE', user_id: approverId },
      { table_name: 'settle_correction', action: 'CREATE', user_id: approverId },
      { table_name: 'settle_correction', action: 'APPROVE', user_id: approverId },
      { table_name: 'settle_master', action: 'UPDATE', user_id: approverId },
    ]);
    // delivered once more later (a replay): still one correction, the figures unchanged
    expect(await applyEvent(options(), { data: { eventId: row.event_id, eventKey: row.event_key, type: row.event_type }, attempt: 1, maxAttempts: 3 })).toBe('duplicate');
    expect(await correctionsOf(id)).toHaveLength(1);
    expect((await settle()).gross_amount).toBe('2080.00');
  });

  it('REJECTED keeps the reason and books nothing; CANCELLED and a request that could not start leave the dispute IN_REVIEW', async () => {
    const rejected = await disputeInReview('50.00');
    expect(await applyEvent(options(), (await decided(rejected, 'REJECTED', approverId, 'amount is right')).job)).toBe('applied');
    expect(await dispute(rejected)).toMatchObject({ status: 'REJECTED', approved_amount: null, correction_id: null, decision_note: 'amount is right' });
    expect(await correctionsOf(rejected)).toEqual([]);

    const waiting = await disputeInReview('30.00');
    expect(await applyEvent(options(), (await decided(waiting, 'CANCELLED', raiserId, 'asked too early')).job)).toBe('applied');
    expect((await dispute(waiting)).status).toBe('IN_REVIEW');
    // an approved dispute without a claimed amount is approved without a correction
    const noAmount = await disputeInReview(null);
    expect(await applyEvent(options(), (await decided(noAmount, 'APPROVED', approverId)).job)).toBe('applied');
    expect(await dispute(noAmount)).toMatchObject({ status: 'APPROVED', approved_amount: null, correction_id: null });
    expect((await settle()).gross_amount).toBe('2080.00');
  });

  it('parks what cannot apply: a decision by the user who raised the dispute, a dispute decided the other way, an unknown dispute', async () => {
    const own = await disputeInReview('10.00');
    const ownEvent = await decided(own, 'APPROVED', raiserId);
    expect(await applyEvent(options(), ownEvent.job)).toBe('parked');
    expect((await dispute(own)).status).toBe('IN_REVIEW');
    expect(await correctionsOf(own)).toEqual([]);

    expect((await a.put(`/api/disputes/${own}/reject`, { note: 'decided directly' }, await ctx.tokenFor('ADMIN'))).status).toBe(200);
    // the workflow's approval arriving after a direct rejection
    const late = await decided(own, 'APPROVED', approverId);
    expect(await applyEvent(options(), late.job)).toBe('parked');
    // the same decision already taken directly: nothing to do
    expect(await applyEvent(options(), (await decided(own, 'REJECTED', approverId)).job)).toBe('applied');

    const unknown = await decided(999_999, 'APPROVED', approverId);
    expect(await applyEvent(options(), unknown.job)).toBe('parked');
    const parked = await ctx.db
      .selectFrom('parked_event')
      .select(['event_id', 'error_message'])
      .where('event_id', 'in', [ownEvent.row.event_id, late.row.event_id, unknown.row.event_id])
      .orderBy('event_id')
      .execute();
    expect(parked.map((p) => p.error_message)).toEqual([
      `approval request ${ownEvent.requestId} APPROVED dispute ${own}, but Dispute ${own} was raised by you; another user decides it`,
      `approval request ${late.requestId} APPROVED dispute ${own}, but it is REJECTED; the decision needs IN_REVIEW`,
      'Dispute 999999 does not exist',
    ]);
    expect((await dispute(own)).status).toBe('REJECTED');
  });
});
