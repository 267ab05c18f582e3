import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import type { LogLike } from '@csp/events';
import { readSystemConfig } from '@csp/service-kit';
import type { PaymentTaxDb } from '../db.js';

/** Spec 8 `app.bank-retry.limit` and the retry schedule of spec 6 (a cron, off by default). */
const schema = z.object({
  APP_BANK_RETRY_LIMIT: z.coerce.number().int().min(1).max(10_000).optional(),
  APP_BANK_RETRY_CRON: z.string().trim().min(1).optional(),
});

export interface BankRetrySettings {
  /** from the environment; when unset, system_config BANK_RETRY_LIMIT (default 100) */
  limit: number | undefined;
  cron: string | undefined;
}

export function loadBankRetrySettings(env: Record<string, string | undefined> = process.env): BankRetrySettings {
  const parsed = schema.parse(env);
  return { limit: parsed.APP_BANK_RETRY_LIMIT, cron: parsed.APP_BANK_RETRY_CRON };
}

const DEFAULT_LIMIT = 100;

export async function bankRetryLimit(db: PaymentTaxDb, settings: BankRetrySettings): Promise<number> {
  if (settings.limit !== undefined) return settings.limit;
  const value = Number((await readSystemConfig(db, ['BANK_RETRY_LIMIT'])).get('BANK_RETRY_LIMIT')?.trim());
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_LIMIT;
}

export const BANK_RETRY_QUEUE = 'payment-tax.bank-retry';

/**
 * The scheduled bank retry: a BullMQ job scheduler with the cron pattern (one schedule however many
 * instances run, BullMQ de-duplicates it) and a worker running `retry`. Returns close().
 */
export async function startBankRetrySchedule(options: {
  redisUrl: string;
  prefix: string | undefined;
  cron: string;
  retry: () => Promise<unknown>;
  logger: LogLike;
}): Promise<() => Promise<void>> {
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', () => {});
  const common = { connection, ...(options.prefix !== undefined ? { prefix: options.prefix } : {}) };
  const queue = new Queue(BANK_RETRY_QUEUE, common);
  await queue.upsertJobScheduler('bank-retry', { pattern: options.cron }, { name: 'bank-retry', opts: { removeOnComplete: 100, removeOnFail: 100 } });
  const worker = new Worker(BANK_RETRY_QUEUE, async () => options.retry(), { ...common, concurrency: 1 });
  worker.on('failed', (_job, err) => options.logger.warn({ err }, 'scheduled bank retry failed'));
  options.logger.info({ cron: options.cron }, 'bank retry scheduled');
  return async () => {
    await worker.close();
    await queue.close();
    await connection.quit().catch(() => connection.disconnect());
  };
}
