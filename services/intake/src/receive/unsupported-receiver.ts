import { UnsupportedReceiveMethodError, type Receiver, type ReceiveMethod } from './receiver.js';

/** Extension point: EDI, FTP and API receivers are not implemented yet. */
export function unsupportedReceiver(method: ReceiveMethod): Receiver {
  return {
    method,
    receive: async ({ target }) => {
      throw new UnsupportedReceiveMethodError(method, target.companyCode);
    },
  };
}
