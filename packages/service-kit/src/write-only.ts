import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registryOf } from './meta.js';
import { invalid } from './errors.js';
import type { FieldCipher } from './crypto.js';
import { columnOf, isStored, type FieldSpec, type FieldTable, type MaskKind } from './fields.js';
import { maskAccountNo, maskEmail, maskName, maskPhone, maskResidentNo } from './masking.js';
import type { AnyRow, Resource } from './resource-types.js';

/**
 * DECISIONS "Masked and encrypted fields are write-only": a field that responses mask or that is
 * encrypted at rest is never stored in its masked form. One rule for every writer (field tables,
 * hand-written workflows, imports): see `writeOnlyValue`.
 */

/** The character every mask of @csp/domain writes. */
export const MASK_CHAR = '*';
export const MASKED_VALUE_MESSAGE = 'send the full value or leave it out';
/** What a masked field shows when its stored ciphertext does not decrypt (responses and exports). */
export const UNREADABLE_MASK = '********';

export const MASKS: Record<MaskKind, (v: string) => string> = {
  name: maskName,
  phone: maskPhone,
  residentNo: maskResidentNo,
  accountNo: maskAccountNo,
  email: maskEmail,
};

export function looksMasked(value: unknown): value is string {
  return typeof value === 'string' && value.includes(MASK_CHAR);
}

export interface WriteOnlyRule {
  /** The body field named in the E411. */
  field: string;
  /** '' clears it (an optional field); a required one answers E411 'is required'. */
  optional: boolean;
}

/**
 * The write-only rule for one value. Returns `undefined` = keep the stored value (nothing sent on
 * create), `null` = clear it, a string = store this (full) value.
 * - absent or `null`: unchanged (create: none);
 * - `''`: cleared when optional, else E411;
 * - exactly `shown` (the text the server answers for the stored value) on update: unchanged;
 * - any other value containing the mask character: E411 "send the full value or leave it out".
 */
export function writeOnlyValue(
  rule: WriteOnlyRule,
  input: unknown,
  mode: 'create' | 'update',
  shown?: string | null,
): string | null | undefined {
  if (input === undefined || input === null) return undefined;
  if (input === '') {
    if (!rule.optional) throw invalid(rule.field, 'is required');
    return null;
  }
  if (looksMasked(input)) {
    if (mode === 'update' && shown !== undefined && shown !== null && input === shown) return undefined;
    throw invalid(rule.field, MASKED_VALUE_MESSAGE);
  }
  return input as string;
}

/** The text a response shows for a stored value (decrypted where encrypted, then masked). */
export function shownValue(spec: Pick<FieldSpec, 'masked' | 'encrypted'>, stored: unknown, cipher: FieldCipher): string | null {
  if (stored === null || stored === undefined) return null;
  let plain = String(stored);
  if (spec.encrypted) {
    try {
      plain = cipher.decrypt(plain);
    } catch {
      return spec.masked ? UNREADABLE_MASK : null;
    }
  }
  return spec.masked ? MASKS[spec.masked](plain) : plain;
}

// ---- field tables -----------------------------------------------------------------------------

export interface WriteOnlyField {
  key: string;
  column: string;
  spec: FieldSpec;
}

/** The saved fields of a field table that are masked in responses or encrypted at rest. */
export function writeOnlyFieldsOf(fields: FieldTable): WriteOnlyField[] {
  return Object.entries(fields)
    .filter(([, f]) => (f.spec.masked || f.spec.encrypted) && f.spec.save && isStored(f.spec) && !f.spec.audit)
    .map(([key, f]) => ({ key, column: columnOf(key, f.spec), spec: f.spec }));
}

/** Masked/encrypted fields of a field table that no body can write (read-only copies, e.g. a payment's account). */
export function readOnlyMaskedFieldsOf(fields: FieldTable): string[] {
  return Object.entries(fields)
    .filter(([, f]) => (f.spec.masked || f.spec.encrypted) && !(f.spec.save && isStored(f.spec) && !f.spec.audit))
    .map(([key]) => key);
}

const pending = new WeakMap<FastifyRequest, AnyRow>();
const registered = new WeakMap<object, Resource[]>();

// Keyed by the app's resource registry (one array shared by the root and its plugin instances).
const registryKey = (app: FastifyInstance<any, any, any, any, any>): object => registryOf(app) ?? app;

// Every resource registered in this process with its app's cipher: the masked-column scan run
// before a test database is dropped (masked-scan.ts).
const inProcess: Array<{ resource: Resource; cipher: () => FieldCipher | undefined }> = [];

/** Called by `registerResource`: the resources of an app, for the write-only round-trip test. */
export function trackResource(app: FastifyInstance<any, any, any, any, any>, resource: Resource): void {
  const list = registered.get(registryKey(app)) ?? [];
  list.push(resource);
  registered.set(registryKey(app), list);
  inProcess.push({ resource, cipher: () => (app as FastifyInstance & { cipher?: FieldCipher }).cipher });
}

/** Every field-table resource registered by any app of this process, with that app's cipher. */
export function resourcesOfProcess(): ReadonlyArray<{ resource: Resource; cipher: () => FieldCipher | undefined }> {
  return inProcess;
}

/** The field-table resources registered on an app or any of its plugins (`registerResource`). */
export function registeredResources(app: FastifyInstance<any, any, any, any, any>): readonly Resource[] {
  return registered.get(registryKey(app)) ?? [];
}

/**
 * The `preValidation` hook of a write route whose body is a field table's save/update body: takes
 * the write-only fields' "not a new value" inputs (null, '', masked text) out of the body before the
 * field's format check (a masked phone is not a phone number) and keeps them for `writeOnlyColumns`.
 * On create only '' is taken out (none); a masked-looking value is E411 from the save schema.
 */
export function writeOnlyGuard(fields: FieldTable, mode: 'create' | 'update') {
  const writeOnly = writeOnlyFieldsOf(fields);
  return async (request: FastifyRequest): Promise<void> => {
    const body = request.body;
    if (!writeOnly.length || !body || typeof body !== 'object' || Array.isArray(body)) return;
    const values = body as AnyRow;
    const kept: AnyRow = {};
    for (const { key, spec } of writeOnly) {
      const v = values[key];
      if (v !== null && v !== '' && !looksMasked(v)) continue;
      if (mode === 'create') {
        // '' of an optional field = none; a masked-looking value is refused by the save schema
        // (fields.ts), together with the body's other field errors
        if (v === '' && spec.save !== 'required') delete values[key];
      } else {
        if (looksMasked(v) || v === '') kept[key] = v;
        delete values[key];
      }
    }
    pending.set(request, kept);
  };
}

/**
 * The columns an update writes for the write-only fields: a new (validated) value from `body`, a
 * clear or nothing from what `writeOnlyGuard` kept. `existing` is the stored row (raw columns).
 */
export function writeOnlyColumns(
  fields: FieldTable,
  request: FastifyRequest | undefined,
  body: AnyRow,
  existing: AnyRow | undefined,
  cipher: FieldCipher,
): AnyRow {
  const kept = (request && pending.get(request)) ?? {};
  const out: AnyRow = {};
  for (const { key, column, spec } of writeOnlyFieldsOf(fields)) {
    let value: string | null | undefined;
    if (key in kept) {
      const shown = existing ? shownValue(spec, existing[column] ?? existing[key], cipher) : undefined;
      value = writeOnlyValue({ field: key, optional: spec.save !== 'required' }, kept[key], existing ? 'update' : 'create', shown);
    } else {
      const v = body[key];
      // null without the guard (a direct caller) still means unchanged; a masked text never gets stored.
      const shown = existing && looksMasked(v) ? shownValue(spec, existing[column] ?? existing[key], cipher) : undefined;
      value = writeOnlyValue({ field: key, optional: spec.save !== 'required' }, v, existing ? 'update' : 'create', shown);
    }
    if (value === undefined) continue;
    out[column] = value === null || !spec.encrypted ? value : cipher.encrypt(value);
  }
  return out;
}
