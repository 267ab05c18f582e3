import { z } from 'zod';

const onOff = z.enum(['on', 'off']);

/** Environment of the event runtime (read once at start-up; invalid values refuse to start). */
const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  /** Run the relay and this service's consumer in the service process (default on; off under NODE_ENV=test). */
  EVENTS_ENABLED: onOff.optional(),
  /** Also run an outbox relay here (default on; any number of relays may run). */
  EVENTS_RELAY: onOff.default('on'),
  /** BullMQ key prefix of the event queues (producers and consumers must agree). */
  EVENTS_PREFIX: z.string().min(1).max(50).optional(),
  EVENTS_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  /** Attempts of a consumer before an event is parked; retry delays double from EVENTS_BACKOFF_MS. */
  EVENTS_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  EVENTS_BACKOFF_MS: z.coerce.number().int().min(10).max(3_600_000).default(1_000),
  EVENTS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  EVENTS_LOCK_MS: z.coerce.number().int().min(500).optional(),
  EVENTS_STALLED_MS: z.coerce.number().int().min(500).optional(),
});

export interface EventSettings {
  enabled: boolean;
  relay: boolean;
  prefix: string | undefined;
  pollMs: number;
  attempts: number;
  backoffMs: number;
  concurrency: number;
  lockMs: number | undefined;
  stalledMs: number | undefined;
}

export class EventSettingsError extends Error {
  override name = 'EventSettingsError';
}

export function loadEventSettings(env: Record<string, string | undefined> = process.env): EventSettings {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new EventSettingsError(
      `Invalid event settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const e = parsed.data;
  return {
    enabled: (e.EVENTS_ENABLED ?? (e.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    relay: e.EVENTS_RELAY === 'on',
    prefix: e.EVENTS_PREFIX,
    pollMs: e.EVENTS_POLL_MS,
    attempts: e.EVENTS_ATTEMPTS,
    backoffMs: e.EVENTS_BACKOFF_MS,
    concurrency: e.EVENTS_CONCURRENCY,
    lockMs: e.EVENTS_LOCK_MS,
    stalledMs: e.EVENTS_STALLED_MS,
  };
}
