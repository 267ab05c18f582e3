import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { EventQueues, silentLog, startEventRuntime, type EventRuntime, type EventSettings } from '@csp/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// ledger-settlement's consumer, loaded by path: a package dependency would make a cycle (it depends on us for tests)
import { settleEventConsumer } from '../../ledger-settlement/src/settle/settle-events.js';
import { addUser, approvalRole, call, settleRow, setupApprovals, type Ctx, type TestUser } from './approvals-helpers.js';

/** A SETTLE approval decided in auth-platform reaches ledger-settlement through the outbox, relay and its consumer. */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `appr-settle-${randomBytes(4).toString('hex')}`;
const settings: EventSettings = { enabled: true, relay: true, prefix, pollMs: 20, attempts: 3, backoffMs: 20, concurrency: 2, lockMs: undefined, stalledMs: undefined };

let ctx: Ctx;
let runtime: EventRuntime;
let requester: TestUser;
let admin: TestUser;

beforeAll(async () => {
  ctx = await setupApprovals();
  await approvalRole(ctx, 'SETTLE_CLERK', ['READ', 'CREATE', 'UPDATE']);
  requester = await addUser(ctx, 'settle_clerk', ['SETTLE_CLERK']);
  admin = await addUser(ctx, 'settle_admin', ['ADMIN'], '010-7777-8888');
  runtime = startEventRuntime({ db: ctx.db, connection: REDIS_URL, settings, consumer: settleEventConsumer, logger: silentLog });
});

afterAll(async () => {
  await runtime?.close();
  await ctx?.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function requestFor(settleId: number): Promise<number> {
  const res = await call(ctx, 'POST', '/api/approvals/requests', requester.token, { targetType: 'SETTLE', targetId: settleId, approvalLineCode: 'SETTLE_DEFAULT' });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

const settle = (settleId: number) =>
  ctx.db.selectFrom('settle_master').select(['status', 'confirmed_by', 'hold_reason']).where('settle_id', '=', settleId).executeTakeFirstOrThrow();
const decisionsOf = (settleId: number) =>
  ctx.db.selectFrom('settle_approval').select(['request_id', 'decision', 'reason', 'decided_by']).where('settle_id', '=', settleId).orderBy('settle_approval_id').execute();

describe('a SETTLE approval', () => {
  it('confirms the settle row when finally approved (confirmed_by = the approver) and records the decision', async () => {
    const settleId = await settleRow(ctx);
    const requestId = await requestFor(settleId);
    expect((await call(ctx, 'POST', `/api/approvals/requests/${requestId}/approve`, admin.token)).status).toBe(200);
    await waitFor(async () => (await settle(settleId)).status === 'CONFIRMED', 'the settle row to be confirmed');
    expect(await settle(settleId)).toEqual({ status: 'CONFIRMED', confirmed_by: admin.userId, hold_reason: null });
    expect(await decisionsOf(settleId)).toEqual([{ request_id: requestId, decision: 'APPROVED', reason: null, decided_by: admin.userId }]);
  });

  it('rejected: the row stays CALCULATED with the reason', async () => {
    const settleId = await settleRow(ctx);
    const requestId = await requestFor(settleId);
    expect((await call(ctx, 'POST', `/api/approvals/requests/${requestId}/reject`, admin.token, { reason: 'chargebacks missing' })).status).toBe(200);
    const rows = await waitFor(async () => {
      const d = await decisionsOf(settleId);
      return d.length > 0 && d;
    }, 'the rejection');
    expect(rows).toEqual([{ request_id: requestId, decision: 'REJECTED', reason: 'chargebacks missing', decided_by: admin.userId }]);
    expect((await settle(settleId)).status).toBe('CALCULATED');
  });

  it('a row put on HOLD meanwhile cannot be confirmed: the event is parked with the reason, and a duplicate changes nothing', async () => {
    const settleId = await settleRow(ctx);
    const requestId = await requestFor(settleId);
    await ctx.db.updateTable('settle_master').set({ status: 'HOLD', hold_reason: 'license expired' }).where('settle_id', '=', settleId).execute();
    expect((await call(ctx, 'POST', `/api/approvals/requests/${requestId}/approve`, admin.token)).status).toBe(200);
    const parked = await waitFor(
      () => ctx.db.selectFrom('parked_event').select(['consumer', 'subject', 'attempts', 'error_message', 'status']).where('subject', '=', `SETTLE#${settleId}`).executeTakeFirst(),
      'the parked event',
    );
    expect(parked).toEqual({
      consumer: 'ledger-settlement',
      subject: `SETTLE#${settleId}`,
      attempts: 1,
      error_message: `approval request ${requestId} approved settlement ${settleId}, but Settlement ${settleId} is HOLD; confirm needs CALCULATED`,
      status: 'PARKED',
    });
    expect(await settle(settleId)).toMatchObject({ status: 'HOLD', hold_reason: 'license expired' });
    expect(await decisionsOf(settleId)).toEqual([]);

    // an applied SETTLE event delivered again is ignored
    const confirmedId = await settleRow(ctx);
    const second = await requestFor(confirmedId);
    expect((await call(ctx, 'POST', `/api/approvals/requests/${second}/approve`, admin.token)).status).toBe(200);
    await waitFor(async () => (await settle(confirmedId)).status === 'CONFIRMED', 'the confirmation');
    const event = await ctx.db.selectFrom('event_outbox').select(['event_id', 'event_key', 'event_type']).where('subject', '=', `SETTLE#${confirmedId}`).executeTakeFirstOrThrow();
    const outcome = new Promise((resolve) => runtime.consumer!.worker.on('completed', (job, result) => job.data.eventId === event.event_id && resolve(result)));
    const queues = new EventQueues(REDIS_URL, { prefix, attempts: 1, backoffMs: 10 });
    await queues.publish([{ eventId: event.event_id, eventKey: event.event_key, type: event.event_type, target: 'ledger-settlement' }], '-again');
    await queues.close();
    expect(await outcome).toBe('duplicate');
    expect(await decisionsOf(confirmedId)).toHaveLength(1);
  });
});
