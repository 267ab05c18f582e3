import { z } from 'zod';
import type { MockBankBehaviour } from './bank.js';
import { MESSAGE_CHANNELS, type MessageChannel } from './message.js';

/** Settings of spec 6 (`app.adapter.bank`, `app.adapter.message`) as environment variables. */
const schema = z.object({
  APP_ADAPTER_BANK: z.string().default('mock'),
  APP_ADAPTER_MESSAGE: z.string().default('mock'),
  /** channel of approval messages */
  APP_MESSAGE_CHANNEL: z.enum(MESSAGE_CHANNELS).default('SMS'),
  /** mock bank: `account:behaviour` pairs, comma separated (behaviour succeed|fail|timeout) */
  APP_MOCK_BANK_ACCOUNTS: z.string().default(''),
  APP_MOCK_BANK_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(100),
  /** mock message service: succeed | fail */
  APP_MOCK_MESSAGE: z.enum(['succeed', 'fail']).default('succeed'),
});

export interface AdapterSettings {
  bank: 'mock';
  message: 'mock';
  messageChannel: MessageChannel;
  mockBankAccounts: Map<string, MockBankBehaviour>;
  mockBankTimeoutMs: number;
  mockMessage: 'succeed' | 'fail';
}

/** A selection this build cannot honour: the process refuses to start. */
export class AdapterConfigError extends Error {
  override name = 'AdapterConfigError';
}

function parseAccounts(text: string): Map<string, MockBankBehaviour> {
  const map = new Map<string, MockBankBehaviour>();
  for (const pair of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [account, behaviour] = pair.split(':').map((s) => s.trim());
    if (!account || !/\d/.test(account) || (behaviour !== 'succeed' && behaviour !== 'fail' && behaviour !== 'timeout')) {
      throw new AdapterConfigError(`APP_MOCK_BANK_ACCOUNTS: "${pair}" is not <account>:succeed|fail|timeout`);
    }
    map.set(account.replace(/\D/g, ''), behaviour);
  }
  return map;
}

export function loadAdapterSettings(env: Record<string, string | undefined> = process.env): AdapterSettings {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new AdapterConfigError(`Invalid adapter settings: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  for (const [key, setting, value] of [
    ['APP_ADAPTER_BANK', 'app.adapter.bank', e.APP_ADAPTER_BANK],
    ['APP_ADAPTER_MESSAGE', 'app.adapter.message', e.APP_ADAPTER_MESSAGE],
  ] as const) {
    if (value !== 'mock') {
      throw new AdapterConfigError(
        `${setting} (${key}) = "${value}" is not supported: only "mock" is available in this build; ` +
          'a real adapter has to be implemented before it can be selected',
      );
    }
  }
  return {
    bank: 'mock',
    message: 'mock',
    messageChannel: e.APP_MESSAGE_CHANNEL,
    mockBankAccounts: parseAccounts(e.APP_MOCK_BANK_ACCOUNTS),
    mockBankTimeoutMs: e.APP_MOCK_BANK_TIMEOUT_MS,
    mockMessage: e.APP_MOCK_MESSAGE,
  };
}
