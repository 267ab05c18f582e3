// Event delivery throughput: N outbox events -> relay -> BullMQ -> consumer -> effect, on a fresh test database.
// node --conditions=source --import tsx bench/delivery-bench.ts [N]
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createTestDatabase } from '@csp/db/testing';
import { silentLog, startEventWorker, startOutboxRelay, writeEvent } from '../src/index.js';
import { TOY_EVENT, TOY_TARGET, toyConsumer } from '../test/fixtures/toy-consumer.js';
import { createToyTables, removePrefix, REDIS_URL } from '../test/helpers.js';

const n = Number(process.argv[2] ?? 2000);
const t = await createTestDatabase();
const prefix = `evt-bench-${randomBytes(4).toString('hex')}`;
try {
  await createToyTables(t.db);
  await sql`INSERT INTO toy_counter (counter_id) SELECT generate_series(1, ${n}::int)`.execute(t.db);
  const writeStart = performance.now();
  for (let i = 1; i <= n; i += 1) await writeEvent(t.db, { type: TOY_EVENT, target: TOY_TARGET, payload: { counterId: i } });
  const writeMs = performance.now() - writeStart;
  const start = performance.now();
  const relay = startOutboxRelay({ db: t.db, connection: REDIS_URL, delivery: { prefix, attempts: 3, backoffMs: 100 }, intervalMs: 20, logger: silentLog });
  const worker = startEventWorker({ db: t.db, consumer: toyConsumer('bench'), logger: silentLog, connection: REDIS_URL, prefix, concurrency: 8 });
  for (;;) {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM processed_event`.execute(t.db);
    if (rows[0]!.n >= n) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - start;
  const { rows } = await sql<{ twice: number }>`SELECT count(*)::int AS twice FROM toy_counter WHERE n <> 1`.execute(t.db);
  console.log(JSON.stringify({ events: n, writeMs: Math.round(writeMs), deliverMs: Math.round(ms), perSecond: Math.round((n / ms) * 1000), countersNotOnce: rows[0]!.twice }));
  await relay.close();
  await worker.close();
} finally {
  await removePrefix(prefix);
  await t.drop();
}
