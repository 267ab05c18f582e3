import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import type { Database } from '@csp/db';
import { silentLog, type DeliverySettings } from '../src/index.js';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const log = silentLog;

export function randomPrefix(name: string): string {
  return `evt-test-${name}-${randomBytes(4).toString('hex')}`;
}

export function fastDelivery(prefix: string, attempts = 3): DeliverySettings {
  return { prefix, attempts, backoffMs: 20 };
}

/** Deletes every key under a BullMQ prefix. */
export async function removePrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false>,
  { timeoutMs = 20_000, intervalMs = 25, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** A toy target: counters an event increments, without any unique key that would hide a double effect. */
export async function createToyTables(db: Kysely<Database>): Promise<void> {
  await sql`CREATE TABLE toy_counter (counter_id int PRIMARY KEY, n int NOT NULL DEFAULT 0)`.execute(db);
  await sql`CREATE TABLE toy_effect (effect_id bigserial PRIMARY KEY, counter_id int NOT NULL, event_id bigint NOT NULL, worker text NOT NULL)`.execute(db);
}

export async function counter(db: Kysely<Database>, counterId: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT n FROM toy_counter WHERE counter_id = ${counterId}`.execute(db);
  return rows[0]?.n ?? -1;
}

export async function effects(db: Kysely<Database>, counterId: number): Promise<string[]> {
  const { rows } = await sql<{ worker: string }>`SELECT worker FROM toy_effect WHERE counter_id = ${counterId} ORDER BY effect_id`.execute(db);
  return rows.map((r) => r.worker);
}

export type { TestDatabase };
export { createTestDatabase };
