import type { Kysely, Transaction } from 'kysely';

/**
 * `trx` as a Kysely instance whose `transaction().execute(fn)` runs `fn` inside `trx` instead of opening a
 * new transaction (which Kysely refuses on a transaction). Lets an event handler call an owner's service
 * function that manages its own transaction (settle.service moveSettlement) so the effect commits together
 * with the processed_event row.
 */
export function joinTransaction<DB>(trx: Transaction<DB>): Kysely<DB> {
  const joined = {
    execute: <T>(fn: (t: Transaction<DB>) => Promise<T>) => fn(trx),
    setIsolationLevel: () => joined,
    setAccessMode: () => joined,
  };
  return new Proxy(trx, {
    get(target, prop) {
      if (prop === 'transaction') return () => joined;
      const value: unknown = Reflect.get(target, prop, target);
      // Kysely keeps its state in private fields: methods must run on the real object, not the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
