import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEventWorker, startOutboxRelay, writeEvent, type EventWorker } from '../src/index.js';
import { TOY_EVENT, TOY_TARGET, toyConsumer } from './fixtures/toy-consumer.js';
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

/**
 * Exactly-once in effect: a relay or consumer process is SIGKILLed at the worst moments, another one takes
 * over, and the target changes once.
 */

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const CHILD = fileURLToPath(new URL('./fixtures/event-child.ts', import.meta.url));

let t: TestDatabase;
const prefix = randomPrefix('kill');
const children: ChildProcess[] = [];
const running: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  t = await createTestDatabase();
  await createToyTables(t.db);
});

afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await Promise.all(running.splice(0).map((r) => r.close()));
});

afterAll(async () => {
  await removePrefix(prefix);
  await t?.drop();
});

interface Child {
  proc: ChildProcess;
  /** resolves with the line `paused <what> <ids>` */
  paused: Promise<string>;
}

function startChild(role: 'relay' | 'consumer', pause: string): Promise<Child> {
  const proc = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, DATABASE_URL: t.url, REDIS_URL, EVENTS_PREFIX: prefix, ROLE: role, PAUSE: pause },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  let stdout = '';
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const paused = new Promise<string>((resolve) => {
    proc.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const line = stdout.split('\n').find((l) => l.startsWith('paused '));
      if (line) resolve(line);
    });
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', () => {
      if (stdout.includes('ready')) resolve({ proc, paused });
    });
    proc.once('exit', (code) => reject(new Error(`child ${role} exited early (${code}): ${stderr}`)));
  });
}

async function kill(child: Child): Promise<void> {
  const exited = new Promise((resolve) => child.proc.once('exit', resolve));
  child.proc.kill('SIGKILL');
  await exited;
}

let nextCounter = 1;
async function newCounterEvent(): Promise<{ counterId: number; eventId: number }> {
  const counterId = nextCounter++;
  await sql`INSERT INTO toy_counter (counter_id) VALUES (${counterId})`.execute(t.db);
  const eventId = await writeEvent(t.db, { type: TOY_EVENT, target: TOY_TARGET, payload: { counterId } });
  return { counterId, eventId };
}

function parentRelay() {
  const r = startOutboxRelay({ db: t.db, connection: REDIS_URL, delivery: fastDelivery(prefix), intervalMs: 20, logger: log });
  running.push(r);
}

function parentConsumer(): EventWorker {
  const w = startEventWorker({
    db: t.db,
    consumer: toyConsumer('parent'),
    logger: log,
    connection: REDIS_URL,
    prefix,
    lockDuration: 1000,
    stalledInterval: 1000,
  });
  running.push(w);
  return w;
}

const processedCount = async (eventId: number) =>
  (await t.db.selectFrom('processed_event').select('event_id').where('event_id', '=', eventId).execute()).length;

describe('a consumer process killed while applying an event', () => {
  it('before COMMIT: nothing of the attempt remains, the restarted consumer applies it once', async () => {
    const { counterId, eventId } = await newCounterEvent();
    parentRelay();
    const child = await startChild('consumer', 'before-commit');
    expect(await child.paused).toBe(`paused before-commit ${eventId}`);
    await kill(child);
    expect(await counter(t.db, counterId)).toBe(0);

    const started = Date.now();
    parentConsumer();
    await waitFor(async () => (await counter(t.db, counterId)) === 1, { what: 'the stalled job to be applied again' });
    console.log(`stalled event applied again ${Date.now() - started} ms after the consumer restarted`);
    expect(await effects(t.db, counterId)).toEqual(['parent']);
    expect(await processedCount(eventId)).toBe(1);
  });

  it('after COMMIT but before the job was acknowledged: the redelivery changes nothing', async () => {
    const { counterId, eventId } = await newCounterEvent();
    parentRelay();
    const child = await startChild('consumer', 'after-commit');
    expect(await child.paused).toBe(`paused after-commit ${eventId}`);
    await kill(child);
    expect(await counter(t.db, counterId)).toBe(1);

    const w = parentConsumer();
    const outcome = new Promise((resolve) => w.worker.on('completed', (job, result) => job.data.eventId === eventId && resolve(result)));
    expect(await outcome).toBe('duplicate');
    expect(await counter(t.db, counterId)).toBe(1);
    expect(await effects(t.db, counterId)).toEqual(['child']);
  });
});

describe('a relay process killed between publishing and marking the event PUBLISHED', () => {
  it('leaves the event PENDING; the next relay publishes it again and the target still changes once', async () => {
    const { counterId, eventId } = await newCounterEvent();
    const w = parentConsumer();
    const child = await startChild('relay', 'after-publish');
    expect(await child.paused).toBe(`paused after-publish ${eventId}`);
    // the job is in the queue and may already be applied; the relay's transaction is still open
    await waitFor(async () => (await counter(t.db, counterId)) === 1, { what: 'the first delivery' });
    await kill(child);
    const row = () => t.db.selectFrom('event_outbox').select(['status', 'publish_count']).where('event_id', '=', eventId).executeTakeFirstOrThrow();
    expect(await row()).toEqual({ status: 'PENDING', publish_count: 0 });

    const outcomes: unknown[] = [];
    w.worker.on('completed', (job, result) => job.data.eventId === eventId && outcomes.push(result));
    parentRelay();
    await waitFor(async () => (await row()).status === 'PUBLISHED', { what: 'the second relay' });
    expect(await row()).toEqual({ status: 'PUBLISHED', publish_count: 1 });
    // same job id: BullMQ keeps the completed job and ignores the second add; nothing is applied again
    expect(await counter(t.db, counterId)).toBe(1);
    expect(await effects(t.db, counterId)).toEqual(['parent']);
    expect(outcomes).toEqual([]);
  });
});
