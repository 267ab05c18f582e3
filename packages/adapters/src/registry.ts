import { MockBankAdapter, withBankCallLog, type BankAdapter } from './bank.js';
import type { CallLogDeps } from './call-log.js';
import { MockMessageAdapter, withMessageCallLog, type MessageAdapter, type MessageChannel } from './message.js';
import { loadAdapterSettings, type AdapterSettings } from './settings.js';

export interface Adapters {
  bank: BankAdapter;
  message: MessageAdapter;
  messageChannel: MessageChannel;
}

interface Raw {
  settings: AdapterSettings;
  bank: MockBankAdapter;
  message: MockMessageAdapter;
}

let raw: Raw | undefined;

/** The process's adapters, chosen once from the settings (a non-mock selection throws AdapterConfigError). */
function processRaw(env: Record<string, string | undefined> = process.env): Raw {
  if (!raw) {
    const settings = loadAdapterSettings(env);
    raw = {
      settings,
      bank: new MockBankAdapter(settings.mockBankAccounts, settings.mockBankTimeoutMs),
      message: new MockMessageAdapter(settings.mockMessage),
    };
  }
  return raw;
}

/**
 * The adapters a service uses, each call logged to external_call_log through `deps.db`. Call it when the
 * service starts so a bad selection refuses to start.
 */
export function createAdapters(deps: CallLogDeps, env?: Record<string, string | undefined>): Adapters {
  const r = processRaw(env);
  return {
    bank: withBankCallLog(r.bank, deps),
    message: withMessageCallLog(r.message, deps),
    messageChannel: r.settings.messageChannel,
  };
}

/** The mock adapters behind createAdapters, to script them in tests (succeed, fail, time out). */
export function mockAdapters(): { bank: MockBankAdapter; message: MockMessageAdapter } {
  const r = processRaw();
  return { bank: r.bank, message: r.message };
}
