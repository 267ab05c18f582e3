import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  EventContractError,
  EventQueues,
  joinTransaction,
  replayParkedEvent,
  startEventWorker,
  startOutboxRelay,
  writeContractEvent,
  writeEvent,
  type EventWorker,
  type OutboxRelay,
} from '../src/index.js';
import { TOY_EVENT, TOY_TARGET, toyConsumer, type ToyPayload } from './fixtures/toy-consumer.js';
import {
  counter,
  createTestDatabase,
  createToyTables,
  effects,
  fastDelivery,
  log,
  randomPrefix,
  REDIS_URL,
  removePrefix,
  waitFor,
  type TestDatabase,
} from './helpers.js';

let t: TestDatabase;
const prefix = randomPrefix('delivery');
const running: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  t = await createTestDatabase();
  await createToyTables(t.db);
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

afterAll(async () => {
  await removePrefix(prefix);
  await t?.drop();
});

let nextCounter = 1;
async function newCounter(): Promise<number> {
  const id = nextCounter++;
  await sql`INSERT INTO toy_counter (counter_id) VALUES (${id})`.execute(t.db);
  return id;
}

function toyEvent(payload: ToyPayload) {
  return writeEvent(t.db, { type: TOY_EVENT, target: TOY_TARGET, subject: `COUNTER#${payload.counterId}`, payload });
}

function relay(): OutboxRelay {
  const r = startOutboxRelay({ db: t.db, connection: REDIS_URL, delivery: fastDelivery(prefix), intervalMs: 20, logger: log });
  running.push(r);
  return r;
}

/** Outcomes the worker reported for an event (BullMQ 'completed' events). */
function outcomes(w: EventWorker, eventId: number): string[] {
  const seen: string[] = [];
  w.worker.on('completed', (job, result) => {
    if (job.data.eventId === eventId) seen.push(result);
  });
  return seen;
}

function worker(name = 'main', calls: number[] = []): EventWorker {
  const w = startEventWorker({ db: t.db, consumer: toyConsumer(name, calls), logger: log, connection: REDIS_URL, prefix });
  running.push(w);
  return w;
}

const outboxRow = (eventId: number) =>
  t.db.selectFrom('event_outbox').select(['status', 'publish_count', 'published_at']).where('event_id', '=', eventId).executeTakeFirstOrThrow();
const processed = (eventId: number) =>
  t.db.selectFrom('processed_event').select(['consumer', 'event_type']).where('event_id', '=', eventId).execute();
const parked = (eventId: number) =>
  t.db.selectFrom('parked_event').select(['parked_id', 'consumer', 'status', 'attempts', 'error_message', 'subject']).where('event_id', '=', eventId).execute();

describe('the outbox', () => {
  it('commits an event only with the transaction that wrote it', async () => {
    const id = await newCounter();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await writeEvent(trx, { type: TOY_EVENT, target: TOY_TARGET, payload: { counterId: id } });
        throw new Error('the decision failed');
      }),
    ).rejects.toThrow('the decision failed');
    const rows = await t.db.selectFrom('event_outbox').select('event_id').where('subject', '=', `COUNTER#${id}`).execute();
    expect(rows).toEqual([]);
  });

  it('refuses a contract event whose payload or target breaks the contract', async () => {
    const decided = {
      requestId: 1,
      targetType: 'WITHDRAW' as const,
      targetId: 7,
      decision: 'APPROVED' as const,
      reason: null,
      decidedBy: 2,
      decidedAt: '2025-03-01T10:00:00.000Z',
      requestedBy: 3,
      approvalLineCode: 'L1',
    };
    await expect(writeEvent(t.db, { type: 'APPROVAL_DECIDED', target: 'ledger-settlement', payload: decided })).rejects.toThrow(
      new EventContractError('APPROVAL_DECIDED goes to payment-tax, not ledger-settlement'),
    );
    await expect(
      writeEvent(t.db, { type: 'APPROVAL_DECIDED', target: 'payment-tax', payload: { ...decided, decision: 'MAYBE' } }),
    ).rejects.toThrow(EventContractError);
    const eventId = await writeContractEvent(t.db, 'APPROVAL_DECIDED', { ...decided, targetType: 'SETTLE' });
    const row = await t.db.selectFrom('event_outbox').select(['target', 'subject', 'payload', 'status']).where('event_id', '=', eventId).executeTakeFirstOrThrow();
    expect(row).toEqual({ target: 'ledger-settlement', subject: 'SETTLE#7', payload: { ...decided, targetType: 'SETTLE' }, status: 'PENDING' });
    await t.db.deleteFrom('event_outbox').where('event_id', '=', eventId).execute();
  });
});

describe('relay and consumer', () => {
  it('publish every PENDING event once and the consumer applies each once', async () => {
    const ids = [await newCounter(), await newCounter(), await newCounter()];
    const events = [];
    for (const id of ids) events.push(await toyEvent({ counterId: id }));
    const r = startOutboxRelay({ db: t.db, connection: REDIS_URL, delivery: fastDelivery(prefix), logger: log, manual: true });
    running.push(r);
    expect(await r.relayOnce()).toBe(3);
    expect(await r.relayOnce()).toBe(0);
    for (const e of events) expect(await outboxRow(e)).toMatchObject({ status: 'PUBLISHED', publish_count: 1 });

    worker('main');
    await waitFor(async () => (await Promise.all(ids.map((id) => counter(t.db, id)))).every((n) => n === 1), { what: 'three effects' });
    for (const e of events) expect(await processed(e)).toEqual([{ consumer: TOY_TARGET, event_type: TOY_EVENT }]);
  });

  it('a duplicate publish of an applied event changes nothing', async () => {
    const id = await newCounter();
    const calls: number[] = [];
    const eventId = await toyEvent({ counterId: id });
    relay();
    const w = worker('main', calls);
    const seen = outcomes(w, eventId);
    await waitFor(async () => (await counter(t.db, id)) === 1, { what: 'the first effect' });

    // the same event delivered again under another job id (a lost ack, a replayed queue)
    const row = await t.db.selectFrom('event_outbox').select(['event_key']).where('event_id', '=', eventId).executeTakeFirstOrThrow();
    const queues = new EventQueues(REDIS_URL, fastDelivery(prefix));
    await queues.publish([{ eventId, eventKey: row.event_key, type: TOY_EVENT, target: TOY_TARGET }], '-again');
    await queues.publish([{ eventId, eventKey: row.event_key, type: TOY_EVENT, target: TOY_TARGET }], '-again');
    await queues.publish([{ eventId, eventKey: row.event_key, type: TOY_EVENT, target: TOY_TARGET }], '-third');
    await queues.close();
    await waitFor(async () => seen.length === 3, { what: 'the duplicates' });

    expect(seen).toEqual(['applied', 'duplicate', 'duplicate']);

    expect(await counter(t.db, id)).toBe(1);
    expect(await effects(t.db, id)).toEqual(['main']);
    // the handler never ran again: the processed_event claim came first
    expect(calls.filter((c) => c === eventId)).toEqual([eventId]);
  });

  it('retries a transient failure with backoff and applies the event once', async () => {
    const id = await newCounter();
    const calls: number[] = [];
    const eventId = await toyEvent({ counterId: id, failTimes: 2 });
    relay();
    worker('main', calls);
    await waitFor(async () => (await counter(t.db, id)) === 1, { what: 'the effect after two failures' });
    expect(calls.filter((c) => c === eventId)).toHaveLength(3);
    expect(await parked(eventId)).toEqual([]);
  });

  it('parks a poison event after its last attempt and a refused one at once; replay applies it after the fix', async () => {
    const poisonCounter = await newCounter();
    const refusedCounter = await newCounter();
    const poison = await toyEvent({ counterId: poisonCounter, failTimes: 99 });
    const refused = await toyEvent({ counterId: refusedCounter, refuse: true });
    relay();
    worker('main');
    await waitFor(async () => (await parked(poison)).length === 1 && (await parked(refused)).length === 1, { what: 'two parked events' });

    expect(await parked(poison)).toEqual([
      expect.objectContaining({ consumer: TOY_TARGET, status: 'PARKED', attempts: 3, error_message: `transient failure 3 of counter ${poisonCounter}`, subject: `COUNTER#${poisonCounter}` }),
    ]);
    expect(await parked(refused)).toEqual([
      expect.objectContaining({ status: 'PARKED', attempts: 1, error_message: `counter ${refusedCounter} refuses increments` }),
    ]);
    expect(await counter(t.db, poisonCounter)).toBe(0);
    expect(await processed(poison)).toEqual([]);

    // the operator fixes the cause and replays the event
    await sql`UPDATE event_outbox SET payload = jsonb_set(payload, '{failTimes}', '0') WHERE event_id = ${poison}`.execute(t.db);
    const [row] = await parked(poison);
    expect(await replayParkedEvent(t.db, REDIS_URL, fastDelivery(prefix), row!.parked_id, 1)).toBe(poison);
    await waitFor(async () => (await counter(t.db, poisonCounter)) === 1, { what: 'the replayed event' });
    expect((await parked(poison))[0]).toMatchObject({ status: 'REPLAYED' });
    await expect(replayParkedEvent(t.db, REDIS_URL, fastDelivery(prefix), row!.parked_id, 1)).rejects.toThrow(`Parked event ${row!.parked_id} is REPLAYED`);
  });

  it('ignores a job whose outbox row belongs to another database (same id, other key)', async () => {
    const id = await newCounter();
    const eventId = await toyEvent({ counterId: id });
    await sql`UPDATE event_outbox SET status = 'PUBLISHED' WHERE event_id = ${eventId}`.execute(t.db);
    const queues = new EventQueues(REDIS_URL, fastDelivery(prefix));
    await queues.publish([{ eventId, eventKey: '00000000-0000-0000-0000-000000000000', type: TOY_EVENT, target: TOY_TARGET }]);
    await queues.close();
    const seen = outcomes(worker('main'), eventId);
    await waitFor(async () => seen.length === 1, { what: 'the stale job' });
    expect(seen).toEqual(['stale']);
    expect(await counter(t.db, id)).toBe(0);
    expect(await processed(eventId)).toEqual([]);
  });
});

describe('joinTransaction', () => {
  it('runs a function that opens its own transaction inside the caller\'s, so both commit or roll back together', async () => {
    const id = await newCounter();
    const bump = (db: typeof t.db) =>
      db.transaction().execute(async (trx) => {
        await sql`UPDATE toy_counter SET n = n + 10 WHERE counter_id = ${id}`.execute(trx);
      });
    await expect(
      t.db.transaction().execute(async (trx) => {
        await bump(joinTransaction(trx));
        throw new Error('outer rollback');
      }),
    ).rejects.toThrow('outer rollback');
    expect(await counter(t.db, id)).toBe(0);
    await t.db.transaction().execute(async (trx) => bump(joinTransaction(trx)));
    expect(await counter(t.db, id)).toBe(10);
  });
});
