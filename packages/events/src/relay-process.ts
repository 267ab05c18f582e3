// A stand-alone outbox relay: node dist/relay-process.js (DATABASE_URL, REDIS_URL, EVENTS_* settings).
// Service processes run one too (EVENTS_RELAY); any number of relays may run side by side.
import { createDb, createPool } from '@csp/db';
import { pino } from 'pino';
import { z } from 'zod';
import { deliveryOf, loadEventSettings, startOutboxRelay } from './index.js';

const env = z
  .object({
    DATABASE_URL: z.string().min(1).default('postgres://postgres@127.0.0.1:5432/commission'),
    REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
    LOG_LEVEL: z.string().default('info'),
  })
  .parse(process.env);
const settings = loadEventSettings();
const logger = pino({ name: 'outbox-relay', level: env.LOG_LEVEL });
const pool = createPool({ connectionString: env.DATABASE_URL, max: 2, applicationName: 'outbox-relay' });
const db = createDb(pool);
const relay = startOutboxRelay({ db, connection: env.REDIS_URL, delivery: deliveryOf(settings), intervalMs: settings.pollMs, logger });
logger.info({ prefix: settings.prefix ?? null }, 'outbox relay ready');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void relay.close().then(() => db.destroy()).then(() => process.exit(0));
  });
}
