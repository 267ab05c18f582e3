import { startWatchdog, type BatchQueues, type WatchdogSettings } from '@csp/batch';
import type { ServiceApp } from '@csp/service-kit';
import { z } from 'zod';

/**
 * Watchdog settings from the environment (defaults: a REQUESTED run 60 s without a started step, a
 * step 60 s without progress and without a live worker; checked every 15 s; BATCH_WATCHDOG_INTERVAL_MS=0
 * turns the background check off, the status endpoint still diagnoses on every call).
 */
const watchdogEnv = z.object({
  BATCH_WATCHDOG_REQUESTED_MS: z.coerce.number().int().min(100).default(60_000),
  BATCH_WATCHDOG_STALL_MS: z.coerce.number().int().min(100).default(60_000),
  BATCH_WATCHDOG_INTERVAL_MS: z.coerce.number().int().min(0).default(15_000),
});

export interface WatchdogConfig {
  settings: WatchdogSettings;
  intervalMs: number;
}

export function watchdogConfig(env: NodeJS.ProcessEnv = process.env): WatchdogConfig {
  const e = watchdogEnv.parse(env);
  return {
    settings: { requestedTimeoutMs: e.BATCH_WATCHDOG_REQUESTED_MS, stepStallMs: e.BATCH_WATCHDOG_STALL_MS },
    intervalMs: e.BATCH_WATCHDOG_INTERVAL_MS,
  };
}

/** Runs the watchdog in the run API's process (every replica may: the outcome is idempotent). */
export function startBatchWatchdog(app: ServiceApp, queues: BatchQueues, config: WatchdogConfig): void {
  if (config.intervalMs === 0) return;
  const watchdog = startWatchdog(app.db, queues, {
    ...config.settings,
    intervalMs: config.intervalMs,
    logger: app.log.child({ component: 'batch-watchdog' }),
  });
  app.addHook('onClose', async () => watchdog.stop());
}
