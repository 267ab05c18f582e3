export {
  BankTransferError,
  BankTimeoutError,
  MockBankAdapter,
  withBankCallLog,
  type BankAdapter,
  type MockBankBehaviour,
  type TransferRequest,
  type TransferResult,
} from './bank.js';
export {
  MESSAGE_CHANNELS,
  MessageSendError,
  MockMessageAdapter,
  withMessageCallLog,
  type MessageAdapter,
  type MessageChannel,
  type MockMessageBehaviour,
  type TextMessage,
} from './message.js';
export { loggedCall, type CallDescription, type CallLogDeps } from './call-log.js';
export { maskKeepLast4Digits, maskNameFirstChar, summary } from './masking.js';
export { loadAdapterSettings, AdapterConfigError, type AdapterSettings } from './settings.js';
export { createAdapters, mockAdapters, type Adapters } from './registry.js';
