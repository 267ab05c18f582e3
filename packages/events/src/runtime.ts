import type { Database } from '@csp/db';
import type { Kysely } from 'kysely';
import { startEventWorker, type ApplyHooks, type EventConsumer, type EventWorker } from './consumer.js';
import type { LogLike } from './log.js';
import type { DeliverySettings, RedisConnection } from './queues.js';
import { startOutboxRelay, type OutboxRelay } from './relay.js';
import { loadEventSettings, type EventSettings } from './settings.js';
import { observeEvents } from './telemetry.js';

export interface EventRuntimeOptions {
  db: Kysely<Database>;
  connection: RedisConnection;
  settings: EventSettings;
  /** This process's consumer (its service's queue), if any. */
  consumer?: EventConsumer | undefined;
  logger: LogLike;
  hooks?: ApplyHooks;
}

export interface EventRuntime {
  readonly relay: OutboxRelay | undefined;
  readonly consumer: EventWorker | undefined;
  close(): Promise<void>;
}

export function deliveryOf(settings: EventSettings): DeliverySettings {
  return { prefix: settings.prefix, attempts: settings.attempts, backoffMs: settings.backoffMs };
}

/** Starts the relay (when settings.relay) and the consumer's worker; close() stops both. */
export function startEventRuntime(options: EventRuntimeOptions): EventRuntime {
  const { settings } = options;
  const relay = settings.relay
    ? startOutboxRelay({
        db: options.db,
        connection: options.connection,
        delivery: deliveryOf(settings),
        intervalMs: settings.pollMs,
        logger: options.logger,
      })
    : undefined;
  const consumer = options.consumer
    ? startEventWorker({
        db: options.db,
        consumer: options.consumer,
        logger: options.logger,
        connection: options.connection,
        prefix: settings.prefix,
        concurrency: settings.concurrency,
        ...(settings.lockMs !== undefined ? { lockDuration: settings.lockMs } : {}),
        ...(settings.stalledMs !== undefined ? { stalledInterval: settings.stalledMs } : {}),
        ...(options.hooks ? { hooks: options.hooks } : {}),
      })
    : undefined;
  // The process relaying the outbox also reports its lag and the parked events (metrics).
  const unobserve = settings.relay ? observeEvents(options.db) : undefined;
  return {
    relay,
    consumer,
    async close() {
      unobserve?.();
      await Promise.all([relay?.close(), consumer?.close()]);
    },
  };
}

/** What hostEvents needs from a service app (a kit ServiceApp fits). */
export interface EventHost {
  db: Kysely<Database>;
  config: { REDIS_URL: string };
  log: LogLike;
  addHook(name: 'onClose', hook: () => Promise<void>): unknown;
}

/**
 * Runs the event runtime inside a service process: started when the area registers, stopped when the app
 * closes. Off unless EVENTS_ENABLED says so (default on outside NODE_ENV=test), so test apps stay quiet.
 */
export function hostEvents(
  app: EventHost,
  options: { consumer?: EventConsumer; settings?: EventSettings } = {},
): EventRuntime | undefined {
  const settings = options.settings ?? loadEventSettings();
  if (!settings.enabled) return undefined;
  const runtime = startEventRuntime({
    db: app.db,
    connection: app.config.REDIS_URL,
    settings,
    consumer: options.consumer,
    logger: app.log,
  });
  app.addHook('onClose', () => runtime.close());
  app.log.info(
    { consumer: options.consumer?.name ?? null, relay: settings.relay, prefix: settings.prefix ?? null },
    'event runtime started',
  );
  return runtime;
}
