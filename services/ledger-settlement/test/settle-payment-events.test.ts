import { randomBytes } from 'node:crypto';
import {
  applyEvent,
  silentLog,
  writeContractEvent,
  type PaymentSucceeded,
} from '@csp/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleEventConsumer } from '../src/settle/settle-events.js';
import {
  deliverTwice,
  insertLedger,
  insertSettle,
  removeRedisPrefix,
  seedMiniBook,
  startContext,
  statusesOf,
  type Ctx,
  type MiniBook,
} from './api-helpers.js';

/**
 * PAYMENT_SUCCEEDED (written by payment-tax with the SUCCESS status) applied by ledger-settlement's consumer:
 * the settle row and its recruit, maintain and received override rows become PAID once, however often the
 * event is delivered.
 */
const M = '202503';
const prefix = `ls-pay-evt-${randomBytes(4).toString('hex')}`;
let ctx: Ctx;
let book: MiniBook;
let contractSeq = 7000;

beforeAll(async () => {
  ctx = await startContext();
  book = await seedMiniBook(ctx);
});

afterAll(async () => {
  await ctx?.close();
  await removeRedisPrefix(prefix);
});

/** A CONFIRMED month of the agent: settle row, a recruit and a maintain row, a received override, a chargeback. */
async function confirmedMonth(agentId: number, month: string): Promise<number> {
  const settleId = await insertSettle(ctx, { agentId, settleMonth: month, recruit: '100.00', gross: '100.00', net: '100.00', status: 'CONFIRMED' });
  for (const table of ['recruit_ledger', 'maintain_ledger'] as const) {
    contractSeq += 1;
    await insertLedger(ctx, table, { agentId, contractId: contractSeq, settleMonth: month, companyAmount: '200.00', agentAmount: '100.00', status: 'CONFIRMED' });
  }
  const { rows } = await ctx.pool.query<{ override_id: number }>(
    `INSERT INTO override_rule (from_grade, to_grade, override_pct, effective_from) VALUES (1, 3, 5, '2000-01-01') RETURNING override_id`,
  );
  await ctx.pool.query(
    `INSERT INTO override_settle (settle_month, from_agent_id, to_agent_id, override_rule_id, base_amount, override_pct, override_amount, status)
     VALUES ($1, $2, $3, $4, '100.00', '5', '5.00', 'CONFIRMED')`,
    [month, book.other, agentId, rows[0]!.override_id],
  );
  contractSeq += 1;
  await ctx.pool.query(
    `INSERT INTO chargeback (contract_id, agent_id, settle_month, lapse_month, lapse_month_diff, base_amount, cb_rate, cb_amount,
       installment_seq, installment_total, calc_basis, status)
     VALUES ($1, $2, $3, $3, 2, '40.00', '100', '40.00', $4, 99, '{}', 'CONFIRMED')`,
    [book.contracts[0], agentId, month, contractSeq - 7000],
  );
  return settleId;
}

function paid(settleId: number, agentId: number, month: string, paymentId: number): PaymentSucceeded {
  return { paymentId, settleId, agentId, settleMonth: month, amount: '100.00', resultCode: '0000', paidBy: 1, paidAt: new Date().toISOString() };
}

async function outboxRow(payload: PaymentSucceeded) {
  const eventId = await ctx.db.transaction().execute((trx) => writeContractEvent(trx, 'PAYMENT_SUCCEEDED', payload));
  return ctx.db.selectFrom('event_outbox').select(['event_id', 'event_key', 'event_type', 'target', 'subject']).where('event_id', '=', eventId).executeTakeFirstOrThrow();
}

const settleRow = (settleId: number) =>
  ctx.db.selectFrom('settle_master').select(['status', 'version', 'updated_by']).where('settle_id', '=', settleId).executeTakeFirstOrThrow();
const changeLogRows = (settleId: number) =>
  ctx.db.selectFrom('data_change_log').select(['request_id', 'record_id', 'action']).where('table_name', '=', 'settle_master').where('record_id', '=', String(settleId)).execute();

describe('PAYMENT_SUCCEEDED', () => {
  it('is addressed to ledger-settlement with the payment as subject', async () => {
    const settleId = await insertSettle(ctx, { agentId: book.leader, settleMonth: '202501', status: 'CONFIRMED' });
    const row = await outboxRow(paid(settleId, book.leader, '202501', 41));
    expect(row).toMatchObject({ event_type: 'PAYMENT_SUCCEEDED', target: 'ledger-settlement', subject: 'PAYMENT#41' });
  });

  it('marks the settle row and its ledger rows PAID once; a duplicate delivery changes nothing', async () => {
    const settleId = await confirmedMonth(book.fc, M);
    const event = await outboxRow(paid(settleId, book.fc, M, 7));
    const job = { data: { eventId: event.event_id, eventKey: event.event_key, type: event.event_type }, attempt: 1, maxAttempts: 3 };
    const options = { db: ctx.db, consumer: settleEventConsumer, logger: silentLog };

    expect(await applyEvent(options, job)).toBe('applied');
    expect(await settleRow(settleId)).toEqual({ status: 'PAID', version: 1, updated_by: 1 });
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1 AND settle_month = $2', [book.fc, M])).toEqual(['PAID']);
    expect(await statusesOf(ctx, 'maintain_ledger', 'agent_id = $1 AND settle_month = $2', [book.fc, M])).toEqual(['PAID']);
    expect(await statusesOf(ctx, 'override_settle', 'to_agent_id = $1 AND settle_month = $2', [book.fc, M])).toEqual(['PAID']);
    // chargeback installments have no PAID state
    expect(await statusesOf(ctx, 'chargeback', 'agent_id = $1 AND settle_month = $2', [book.fc, M])).toEqual(['CONFIRMED']);
    expect(await changeLogRows(settleId)).toEqual([{ request_id: `event-${event.event_id}`, record_id: String(settleId), action: 'UPDATE' }]);

    // the same event again (a relay re-publish, a redelivered job): the processed_event claim refuses it
    expect(await applyEvent(options, job)).toBe('duplicate');
    expect(await applyEvent(options, { ...job, attempt: 2 })).toBe('duplicate');
    expect(await settleRow(settleId)).toEqual({ status: 'PAID', version: 1, updated_by: 1 });
    expect(await changeLogRows(settleId)).toHaveLength(1);
    const processed = await ctx.db.selectFrom('processed_event').select(['consumer', 'event_type']).where('event_id', '=', event.event_id).execute();
    expect(processed).toEqual([{ consumer: 'ledger-settlement', event_type: 'PAYMENT_SUCCEEDED' }]);
  });

  it('arrives through the outbox relay and the queue, applied once although its job is delivered twice', async () => {
    const month = '202504';
    const settleId = await confirmedMonth(book.fc, month);
    const event = await outboxRow(paid(settleId, book.fc, month, 8));
    // a second job of the same event under another job id: BullMQ cannot de-duplicate it, the consumer must
    const outcomes = await deliverTwice(ctx, prefix, event, settleEventConsumer);
    expect(outcomes).toEqual(['applied', 'duplicate']);
    expect(await settleRow(settleId)).toEqual({ status: 'PAID', version: 1, updated_by: 1 });
    expect(await statusesOf(ctx, 'recruit_ledger', 'agent_id = $1 AND settle_month = $2', [book.fc, month])).toEqual(['PAID']);
    expect(await changeLogRows(settleId)).toHaveLength(1);
    const outbox = await ctx.db.selectFrom('event_outbox').select('status').where('event_id', '=', event.event_id).executeTakeFirstOrThrow();
    expect(outbox.status).toBe('PUBLISHED');
  });

  it('leaves a row already PAID as it is and parks an event whose settlement does not match the payment', async () => {
    const settleId = await insertSettle(ctx, { agentId: book.other, settleMonth: M, status: 'PAID' });
    const options = { db: ctx.db, consumer: settleEventConsumer, logger: silentLog };
    const ok = await outboxRow(paid(settleId, book.other, M, 9));
    expect(await applyEvent(options, { data: { eventId: ok.event_id, eventKey: ok.event_key, type: ok.event_type }, attempt: 1, maxAttempts: 3 })).toBe('applied');
    expect(await settleRow(settleId)).toMatchObject({ status: 'PAID', version: 0 });

    const wrong = await outboxRow(paid(settleId, book.fc, M, 10));
    expect(await applyEvent(options, { data: { eventId: wrong.event_id, eventKey: wrong.event_key, type: wrong.event_type }, attempt: 1, maxAttempts: 3 })).toBe('parked');
    const parked = await ctx.db.selectFrom('parked_event').select(['consumer', 'error_message']).where('event_id', '=', wrong.event_id).executeTakeFirstOrThrow();
    expect(parked).toEqual({
      consumer: 'ledger-settlement',
      error_message: `Payment 10 names agent ${book.fc} and ${M}, but settlement ${settleId} is agent ${book.other}, ${M}`,
    });
  });
});
