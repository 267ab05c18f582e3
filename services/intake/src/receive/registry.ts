import { manualReceiver } from './manual-receiver.js';
import type { Receiver, ReceiveMethod } from './receiver.js';
import { unsupportedReceiver } from './unsupported-receiver.js';

export type ReceiverRegistry = ReadonlyMap<ReceiveMethod, Receiver>;

/** MANUAL is implemented; EDI, FTP and API are extension points (pass an implementation to replace one). */
export function createReceiverRegistry(overrides: readonly Receiver[] = []): ReceiverRegistry {
  const registry = new Map<ReceiveMethod, Receiver>([
    ['MANUAL', manualReceiver],
    ['EDI', unsupportedReceiver('EDI')],
    ['FTP', unsupportedReceiver('FTP')],
    ['API', unsupportedReceiver('API')],
  ]);
  for (const receiver of overrides) registry.set(receiver.method, receiver);
  return registry;
}
