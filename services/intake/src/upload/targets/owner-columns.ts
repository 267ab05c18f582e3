import type { FieldCipher } from '@csp/service-kit';
import type { OwnerResource } from './owner-body.js';

/** The column the kit derives for a field key (camelCase -> snake_case), as a type. */
type Snake<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}`
  : S;

/** A save body's values as columns: an absent optional value is NULL. */
type Columns<B> = {
  -readonly [K in keyof B & string as Snake<K>]-?:
    Exclude<B[K], undefined> | (undefined extends B[K] ? null : never);
};

/**
 * `unknown` when every body key's column is a column of V taking its value, else `never` (so a
 * body that does not fit the table fails ownerColumns' argument: "not assignable to never").
 */
type Fits<B, V> = {
  [C in keyof Columns<B>]: C extends keyof V ? (Columns<B>[C] extends V[C] ? true : false) : false;
}[keyof Columns<B>] extends true
  ? unknown
  : never;

interface OwnerColumnsSpec {
  owner: OwnerResource;
  /** Save keys the target fills itself (from lookups): not mapped. */
  resolved?: Readonly<Record<string, string>>;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The owner's save body as the owner's table stores it, compiled once from its field table: every
 * saved field (but the resolved ones) to its column, blank optional values as NULL, the fields the
 * table marks encrypted through the cipher (an empty value stays NULL). The target passes the
 * columns it fills itself (lookups, audit, constants) as `rest`; the body's columns are added to it.
 */
export function ownerColumns<B extends object, V extends object>(
  spec: OwnerColumnsSpec & Fits<B, V>,
): (body: B, cipher: FieldCipher, rest: Omit<V, keyof Columns<B>> & Record<string, unknown>) => V {
  const resolved = new Set(Object.keys(spec.resolved ?? {}));
  const plan: Array<{ key: string; column: string; encrypted: boolean }> = [];
  for (const [key, field] of Object.entries(spec.owner.fields)) {
    const s = field.spec;
    if (!s.save || s.audit || s.source.type !== 'column' || resolved.has(key)) continue;
    // the body's type names the columns snake_case; a renamed or JSON column is mapped by hand
    if ((s.source.column ?? snake(key)) !== snake(key) || s.kind === 'json')
      throw new Error(`${spec.owner.table}.${key}: not a 1:1 column, map it in the target`);
    plan.push({ key, column: snake(key), encrypted: s.encrypted === true });
  }
  return (body, cipher, rest) => {
    const values = body as Record<string, unknown>;
    const row: Record<string, unknown> = rest;
    for (const { key, column, encrypted } of plan) {
      const v = values[key];
      if (!encrypted) row[column] = v ?? null;
      else row[column] = v === null || v === undefined || v === '' ? null : cipher.encrypt(String(v));
    }
    return row as V;
  };
}
