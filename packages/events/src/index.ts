export * from './contract.js';
export { writeEvent, writeContractEvent, EventContractError, type NewEvent } from './outbox.js';
export {
  EventQueues,
  eventQueueName,
  eventJobId,
  type EventJobData,
  type DeliverySettings,
  type RedisConnection,
} from './queues.js';
export { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './relay.js';
export {
  applyEvent,
  defineConsumer,
  parkEvent,
  startEventWorker,
  EventRefusal,
  type AfterCommit,
  type ApplyHooks,
  type ApplyOptions,
  type ApplyOutcome,
  type ConsumedEvent,
  type ContractHandlers,
  type EventConsumer,
  type EventHandler,
  type EventWorker,
  type EventWorkerOptions,
} from './consumer.js';
export { replayParkedEvent, ParkedEventStateError } from './parked.js';
export { loadEventSettings, EventSettingsError, type EventSettings } from './settings.js';
export { startEventRuntime, hostEvents, deliveryOf, type EventHost, type EventRuntime, type EventRuntimeOptions } from './runtime.js';
export { joinTransaction } from './transaction.js';
export { silentLog, type LogLike } from './log.js';
export { observeEvents, consumeInSpan } from './telemetry.js';
