import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { multipartArbitrary, type MultipartOperation } from './fuzz-multipart.js';

export { MULTIPART_FILE_KINDS, type MultipartForm, type MultipartOperation } from './fuzz-multipart.js';

/**
 * Property-based fuzzing of a service from its own OpenAPI document: for every operation, fast-check
 * (fixed seed, bounded runs) builds requests whose path params, query values and JSON bodies are
 * mostly shaped like the schema with malformed leaves mixed in (NUL, lone surrogates, huge and
 * negative numbers, wrong types, very long strings, SQL-ish text, broken JSON), sends them with
 * `app.inject` and checks the property: no 5xx, and every JSON answer is the envelope
 * `{ success, code, message, timestamp }` (a 200 with a binary body, e.g. a download, is fine).
 */

type Json = Record<string, unknown>;

export interface FuzzTarget {
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

export interface FuzzOptions {
  app: FuzzTarget;
  /** Bearer token sent with every request (the admin's, so the guard lets requests through). */
  token: string;
  /** The OpenAPI document; by default `GET /v3/api-docs` of the app. */
  document?: unknown;
  /** Requests per operation (default 15). */
  runsPerOperation?: number;
  /** Base seed (default 20_251_125); each operation derives its own from it and its key. */
  seed?: number;
  /** `'POST /api/batch/settlement/run'` -> why it is not fuzzed. */
  skip?: Record<string, string>;
  /**
   * Upload operations (`'POST /api/receive/upload'` -> the form fields they read): the document
   * does not describe multipart bodies, so these get extra runs with hostile files (fuzz-multipart.ts),
   * reported as `<operation> [multipart]`.
   */
  multipart?: Record<string, MultipartOperation>;
  /** Multipart requests per upload operation (default `runsPerOperation`). */
  multipartRuns?: number;
  /** Called after every operation's runs, e.g. to restore state the fuzzing must not lose. */
  afterOperation?(operation: string): Promise<void>;
  /** Sees every request and answer (debugging, extra assertions). */
  onResponse?(operation: string, request: FuzzRequest, response: LightMyRequestResponse): void;
}

export interface FuzzRequest {
  method: string;
  url: string;
  /** JSON text, or broken JSON on purpose (for multipart: what the form held). */
  payload?: string;
}

export interface FuzzFailure {
  operation: string;
  request: FuzzRequest;
  status: number;
  /** `aborted`: the connection was destroyed before the answer was complete. */
  reason: 'server-error' | 'no-envelope' | 'aborted';
  /** The first 500 characters of the answer. */
  body: string;
}

export interface FuzzOperationReport {
  operation: string;
  runs: number;
  /** Status code (or `aborted`) -> count. */
  statuses: Record<string, number>;
}

export interface FuzzReport {
  operations: FuzzOperationReport[];
  skipped: Array<{ operation: string; reason: string }>;
  failures: FuzzFailure[];
  runs: number;
  serverErrors: number;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;
const DEFAULT_SEED = 20_251_125;

/** Raw text inserted into a URL without encoding (malformed escapes on purpose). */
class RawUrlText {
  constructor(readonly text: string) {}
}

const LONG = 'x'.repeat(10_000);
const NASTY_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '',
  ' ',
  LONG,
  "' OR '1'='1",
  '1; DROP TABLE users;--',
  '%',
  '_',
  '\\',
  '../../etc/passwd',
  '😀',
  'null',
  '-1',
  '0',
  '1e309',
  '99999999999999999999999',
  '-9223372036854775809',
  'NaN',
  'Infinity',
  '1.5',
  '0x10',
  'true',
  '2024-02-30',
  '9999-99-99',
  '202413',
  '2024-Q5',
  '<script>alert(1)</script>',
  '{"a":1}',
  // Object.prototype keys: a lookup table indexed by user input must not find them.
  'toString',
  '__proto__',
  'constructor',
] as const;
const NASTY_NUMBERS = [1e308, -1e308, 2 ** 53 + 1, -1, 0, 1.5, 2 ** 31, -(2 ** 63)] as const;
const RAW_URL_PIECES = ['%', '%zz', '%00', '%ED%A0%80', '%C0%AE', '%FF'].map((t) => new RawUrlText(t));

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deref(doc: Json, value: unknown): Json {
  let current = value;
  for (let hops = 0; hops < 16 && isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    const path = current.$ref.replace(/^#\//, '').split('/');
    current = path.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), doc);
  }
  return isObject(current) ? current : {};
}

const nastyString = fc.constantFrom(...NASTY_STRINGS);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: nastyString, weight: 4 },
  { arbitrary: fc.constantFrom(...NASTY_NUMBERS), weight: 2 },
  { arbitrary: fc.constantFrom(true, false, null, [], {}, [1, 'a'], { nested: '\u0000' }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 30, unit: 'binary' }), weight: 1 },
);

const decimalText = fc.integer({ min: 0, max: 100_000_000 }).map((cents) => (cents / 100).toFixed(2));

/** Values by field name where the schema does not say (zod refinements and transforms leave no pattern). */
function stringByName(name: string): fc.Arbitrary<string> | undefined {
  if (/date$/i.test(name) || /(^from|^to|From|To)$/.test(name)) {
    return fc.date({ min: new Date('2000-01-01'), max: new Date('2035-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  }
  if (/month$/i.test(name)) return fc.tuple(fc.integer({ min: 2020, max: 2030 }), fc.integer({ min: 1, max: 12 })).map(([y, m]) => `${y}${String(m).padStart(2, '0')}`);
  if (/quarter$/i.test(name)) return fc.tuple(fc.integer({ min: 2020, max: 2030 }), fc.integer({ min: 1, max: 4 })).map(([y, q]) => `${y}-Q${q}`);
  if (/year$/i.test(name)) return fc.integer({ min: 2000, max: 2035 }).map(String);
  if (/sortOrder$/i.test(name)) return fc.constantFrom('ASC', 'DESC', 'asc', 'desc');
  if (/e-?mail$/i.test(name)) return fc.tuple(fc.stringMatching(/^[a-z0-9]{1,8}$/), fc.constantFrom('example.com', 'test.co.kr')).map(([user, host]) => `${user}@${host}`);
  if (/(phone|tel|mobile)$/i.test(name)) return fc.tuple(fc.integer({ min: 100, max: 9999 }), fc.integer({ min: 1000, max: 9999 })).map(([a, b]) => `010-${a}-${b}`);
  if (/(amount|amt|premium|rate|percent|pct|ratio)$/i.test(name)) return decimalText;
  return undefined;
}

function safeRegex(pattern: unknown): RegExp | undefined {
  if (typeof pattern !== 'string') return undefined;
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
}

/** fast-check does not support every regex feature (lookarounds): such patterns get plain strings. */
function stringMatching(regex: RegExp): fc.Arbitrary<string> | undefined {
  try {
    return fc.stringMatching(regex, { size: 'xsmall' });
  } catch {
    return undefined;
  }
}

/** A value the schema describes (roughly: enough to get past validation into the handler). */
function validValue(doc: Json, raw: unknown, name: string, depth: number): fc.Arbitrary<unknown> {
  const schema = deref(doc, raw);
  const options: Array<fc.Arbitrary<unknown>> = [];
  const members = [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])];
  if (members.length > 0 && depth < 8) {
    // string | number is how zMoney/zRate look: decimals, as text or number.
    const types = members.map((m) => deref(doc, m).type);
    if (types.includes('number') && types.includes('string')) return fc.oneof(decimalText, decimalText.map(Number));
    return fc.oneof(...members.map((m) => validValue(doc, m, name, depth + 1)));
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) options.push(fc.constantFrom(...schema.enum));
  else {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'integer':
      case 'number': {
        const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
        const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
        const low = Math.max(Math.ceil(min) + (schema.exclusiveMinimum === true ? 1 : 0), -1_000_000_000);
        const high = Math.min(Math.floor(max), 1_000_000_000);
        const small = fc.integer({ min: Math.max(low, 1), max: Math.max(Math.min(high, 5), Math.max(low, 1)) });
        // Small ids hit the rows the fuzzing itself created; the full range finds overflows.
        options.push(low <= high ? fc.oneof({ arbitrary: small, weight: 3 }, { arbitrary: fc.integer({ min: low, max: high }), weight: 1 }) : fc.constant(low));
        break;
      }
      case 'boolean':
        options.push(fc.boolean());
        break;
      case 'array': {
        const item = depth < 6 ? validValue(doc, schema.items, name, depth + 1) : fc.constant(null);
        options.push(fc.array(item, { maxLength: 3 }));
        break;
      }
      case 'object':
        options.push(depth < 6 ? objectValue(doc, schema, depth + 1) : fc.constant({}));
        break;
      case 'string': {
        const regex = safeRegex(schema.pattern);
        const byName = stringByName(name);
        const matching = regex ? stringMatching(regex) : undefined;
        if (matching) options.push(matching);
        else if (schema.format === 'date') options.push(stringByName('date')!);
        else if (schema.format === 'email') options.push(stringByName('email')!);
        else if (schema.format === 'date-time') options.push(fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2035-12-31') }).map((d) => d.toISOString()));
        else if (byName) options.push(byName);
        else {
          const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
          const maxLength = typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, Math.max(minLength, 24)) : 24;
          options.push(fc.string({ minLength: Math.min(minLength, maxLength), maxLength }));
        }
        break;
      }
      default:
        options.push(fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean()));
    }
  }
  const value = options.length === 1 ? options[0]! : fc.oneof(...options);
  return schema.nullable === true ? fc.oneof({ arbitrary: value, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }) : value;
}

/**
 * How often a leaf is malformed: `weight` malformed against 12 valid. A run is clean (0: reaches the
 * handler with odd but valid values), lightly or heavily malformed, so validation and handlers both get hit.
 */
interface Mix {
  nasty: number;
}
const MIXES: ReadonlyArray<{ mix: Mix; weight: number }> = [
  { mix: { nasty: 0 }, weight: 2 },
  { mix: { nasty: 1 }, weight: 2 },
  { mix: { nasty: 6 }, weight: 1 },
];

function withNasty<T>(valid: fc.Arbitrary<T>, mix: Mix, nasty: fc.Arbitrary<unknown> = nastyValue): fc.Arbitrary<T | unknown> {
  return mix.nasty === 0 ? valid : fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: nasty, weight: mix.nasty });
}

/** A schema-shaped value whose leaves are malformed now and then (per `mix`). */
function fuzzValue(doc: Json, raw: unknown, name: string, depth: number, mix: Mix): fc.Arbitrary<unknown> {
  const schema = deref(doc, raw);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  // Containers recurse so the malformed leaves sit inside an otherwise valid shape.
  if (type === 'object' && depth < 6) return withNasty(objectValue(doc, schema, depth + 1, mix), mix);
  if (type === 'array' && depth < 6) return withNasty(fc.array(fuzzValue(doc, schema.items, name, depth + 1, mix), { maxLength: 3 }), mix);
  return withNasty(validValue(doc, schema, name, depth), mix);
}

function objectValue(doc: Json, schema: Json, depth: number, mix?: Mix): fc.Arbitrary<Json> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, prop] of Object.entries(properties)) {
    model[key] = mix ? fuzzValue(doc, prop, key, depth, mix) : validValue(doc, prop, key, depth);
  }
  const base = fc.record(model, { requiredKeys: Object.keys(model).filter((key) => required.has(key)) });
  if (!mix || mix.nasty === 0) return base;
  // Now and then a required key goes missing or an unknown one (with a bad name) comes along.
  const oddKey = fc.option(fc.constantFrom(...Object.keys(model), 'unknown\u0000key', '__proto__', 'extra'), { nil: undefined, freq: 12 / mix.nasty });
  return fc.tuple(base, oddKey, nastyValue).map(([value, key, extra]) => {
    if (key === undefined) return value;
    const copy: Json = { ...value };
    if (key in model && required.has(key)) delete copy[key];
    else Object.defineProperty(copy, key, { value: extra, enumerable: true, writable: true, configurable: true });
    return copy;
  });
}

/** A whole body that is not what the schema wants at all. */
const brokenBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('[]', '"text"', '42', 'null', 'true', '{', '{"a":', '\u0000', '{"x":"\\u0000"}', '{"x":"\\ud800"}', '[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]'),
  nastyValue.map((v) => JSON.stringify(v) ?? 'null'),
);

/** encodeURIComponent that also takes lone surrogates (as the WTF-8 bytes a sloppy client would send). */
function encode(value: unknown): string {
  if (value instanceof RawUrlText) return value.text;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}

interface Operation {
  key: string;
  method: string;
  path: string;
  params: Parameter[];
  bodySchema?: unknown;
  hasBody: boolean;
}

function operationsOf(doc: Json): Operation[] {
  const ops: Operation[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const params = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
        .map((p) => deref(doc, p) as unknown as Parameter)
        .filter((p) => typeof p.name === 'string');
      const body = deref(doc, operation.requestBody);
      const content = isObject(body.content) ? body.content : {};
      const json = Object.entries(content).find(([type]) => type.includes('json'));
      ops.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        params,
        bodySchema: json && isObject(json[1]) ? json[1].schema : undefined,
        hasBody: Object.keys(content).length > 0,
      });
    }
  }
  return ops;
}

const nastyUrlValue: fc.Arbitrary<unknown> = fc.oneof({ arbitrary: nastyValue, weight: 3 }, { arbitrary: fc.constantFrom(...RAW_URL_PIECES), weight: 1 });

function requestArbitrary(doc: Json, op: Operation, mix: Mix, seen: Harvest): fc.Arbitrary<FuzzRequest> {
  const pathNames = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const pathArbs = pathNames.map((name) => {
    const schema = op.params.find((p) => p.in === 'path' && p.name === name)?.schema;
    const known = seen.candidates(op.path, name);
    const valid = validValue(doc, schema, name, 0);
    const value = known.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, { arbitrary: valid, weight: 1 }) : valid;
    return withNasty(value, mix, nastyUrlValue);
  });
  const queryParams = op.params.filter((p) => p.in === 'query');
  // The same name twice arrives as an array.
  const twice = (name: string) => fc.constant(new RawUrlText(`1&${encodeURIComponent(name)}=2`));
  const queryArbs = queryParams.map((p) =>
    fc.option(withNasty(validValue(doc, p.schema, p.name, 0), mix, fc.oneof(nastyUrlValue, twice(p.name))), {
      nil: undefined,
      freq: p.required === true ? 1000 : 2,
    }),
  );
  const extraQuery =
    mix.nasty === 0
      ? fc.constant(undefined)
      : fc.option(fc.constantFrom('unknown=%00', 'pageNum=-1', 'sortField=1%3BDROP', 'pageSize=1e999'), { nil: undefined, freq: 4 });
  let bodyArb: fc.Arbitrary<string | undefined> = fc.constant(undefined);
  const json = (v: unknown) => JSON.stringify(v) ?? 'null';
  if (op.bodySchema !== undefined) {
    bodyArb =
      mix.nasty === 0
        ? fuzzValue(doc, op.bodySchema, 'body', 0, mix).map(json)
        : fc.oneof({ arbitrary: fuzzValue(doc, op.bodySchema, 'body', 0, mix).map(json), weight: 12 }, { arbitrary: brokenBody, weight: mix.nasty }, { arbitrary: fc.constant(undefined), weight: 1 });
  } else if (mix.nasty > 0 && (op.hasBody || op.method === 'POST' || op.method === 'PUT')) {
    bodyArb = fc.option(brokenBody, { nil: undefined, freq: 2 });
  }
  return fc.tuple(fc.tuple(...pathArbs), fc.tuple(...queryArbs), extraQuery, bodyArb).map(([pathValues, queryValues, extra, payload]) => {
    let i = 0;
    const path = op.path.replace(/\{[^}]+\}/g, () => encode(pathValues[i++]));
    const query = queryParams
      .map((p, index) => (queryValues[index] === undefined ? undefined : `${encodeURIComponent(p.name)}=${encode(queryValues[index])}`))
      .filter((part): part is string => part !== undefined);
    if (extra) query.push(extra);
    return { method: op.method, url: query.length > 0 ? `${path}?${query.join('&')}` : path, ...(payload === undefined ? {} : { payload }) };
  });
}

function operationArbitrary(doc: Json, op: Operation, seen: Harvest): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...MIXES.map(({ mix, weight }) => ({ arbitrary: requestArbitrary(doc, op, mix, seen), weight })));
}

const HARVEST_LIMIT = 12;

/**
 * Keys and ids the service itself answered with (new ids of creates, ids and codes in lists), so
 * later operations address rows that exist and reach their handlers' logic instead of E404.
 */
class Harvest {
  private readonly idsByPath = new Map<string, Set<string | number>>();
  private readonly valuesByName = new Map<string, Set<string | number>>();

  private add(map: Map<string, Set<string | number>>, key: string, value: unknown): void {
    if (typeof value !== 'string' && typeof value !== 'number') return;
    if (typeof value === 'string' && (value.length === 0 || value.length > 60)) return;
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    if (set.size < HARVEST_LIMIT) set.add(value);
  }

  record(op: Operation, body: unknown): void {
    if (!isObject(body) || body.success !== true || op.path.includes('{')) return;
    const data = body.data;
    if (op.method === 'POST' && isObject(data)) this.add(this.idsByPath, op.path, data.id);
    if (op.method !== 'GET') return;
    const items = Array.isArray(data) ? data : isObject(data) && Array.isArray(data.list) ? data.list : [];
    for (const item of items.slice(0, HARVEST_LIMIT)) {
      if (!isObject(item)) continue;
      const primary = Object.keys(item).find((key) => /Id$/.test(key));
      if (primary) this.add(this.idsByPath, op.path.replace(/\/list$/, ''), item[primary]);
      for (const [key, value] of Object.entries(item)) this.add(this.valuesByName, key, value);
    }
  }

  /** For `{name}` in `path`: ids seen under the path before it, and values of fields called `name`. */
  candidates(path: string, name: string): Array<string | number> {
    const prefix = path.slice(0, path.indexOf(`{${name}}`)).replace(/\/$/, '');
    return [...(this.idsByPath.get(prefix) ?? []), ...(this.valuesByName.get(name) ?? [])];
  }
}

/**
 * Creates first (POST on a path without params, in document order: parents tend to come first), so
 * reads, updates and actions find rows; deletes last.
 */
function inRunOrder(ops: Operation[]): Operation[] {
  const rank = (op: Operation) => (op.method === 'POST' && !op.path.includes('{') ? 0 : op.method === 'DELETE' ? 2 : 1);
  return [...ops].sort((a, b) => rank(a) - rank(b));
}

function seedOf(base: number, key: string): number {
  let hash = base | 0;
  for (let i = 0; i < key.length; i += 1) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0;
  return hash;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isEnvelope(body: unknown): boolean {
  return (
    isObject(body) &&
    typeof body.success === 'boolean' &&
    typeof body.code === 'string' &&
    typeof body.message === 'string' &&
    typeof body.timestamp === 'string'
  );
}

function check(res: LightMyRequestResponse): FuzzFailure['reason'] | undefined {
  if (res.statusCode >= 500) return 'server-error';
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('json')) {
    try {
      return isEnvelope(JSON.parse(res.payload)) ? undefined : 'no-envelope';
    } catch {
      return 'no-envelope';
    }
  }
  return res.statusCode === 200 ? undefined : 'no-envelope';
}

/** Fuzzes every operation of the document (see the module comment); never throws on findings. */
export async function fuzzOpenApi(options: FuzzOptions): Promise<FuzzReport> {
  const { app, token } = options;
  const runs = options.runsPerOperation ?? 15;
  const seed = options.seed ?? DEFAULT_SEED;
  const doc = (options.document ?? (await app.inject({ method: 'GET', url: '/v3/api-docs' })).json()) as Json;
  const report: FuzzReport = { operations: [], skipped: [], failures: [], runs: 0, serverErrors: 0 };
  const seen = new Harvest();

  for (const op of inRunOrder(operationsOf(doc))) {
    const skipReason = options.skip?.[op.key];
    if (skipReason !== undefined) {
      report.skipped.push({ operation: op.key, reason: skipReason });
      continue;
    }
    const statuses: Record<string, number> = {};
    const requests = fc.sample(operationArbitrary(doc, op, seen), { seed: seedOf(seed, op.key), numRuns: runs });
    for (const request of requests) {
      let res: LightMyRequestResponse;
      try {
        res = await app.inject({
        method: request.method as InjectOptions['method'],
        url: request.url,
        headers: {
          authorization: `Bearer ${token}`,
          ...(request.payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
      } catch (err) {
        // The connection was destroyed mid-answer (a download that failed after its first byte).
        statuses.aborted = (statuses.aborted ?? 0) + 1;
        report.failures.push({ operation: op.key, request, status: 0, reason: 'aborted', body: String(err) });
        continue;
      }
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      options.onResponse?.(op.key, request, res);
      const reason = check(res);
      if (res.statusCode < 300 && String(res.headers['content-type'] ?? '').includes('json')) seen.record(op, safeJson(res.payload));
      if (res.statusCode >= 500) report.serverErrors += 1;
      if (reason) report.failures.push({ operation: op.key, request, status: res.statusCode, reason, body: res.payload.slice(0, 500) });
    }
    report.runs += requests.length;
    report.operations.push({ operation: op.key, runs: requests.length, statuses });
    if (options.afterOperation) await options.afterOperation(op.key);
  }
  await fuzzMultipart(options, report);
  return report;
}

const MULTIPART_TIMEOUT_MS = 30_000;

async function fuzzMultipart(options: FuzzOptions, report: FuzzReport): Promise<void> {
  const runs = options.multipartRuns ?? options.runsPerOperation ?? 15;
  const seed = options.seed ?? DEFAULT_SEED;
  for (const [key, spec] of Object.entries(options.multipart ?? {})) {
    const [method, path] = key.split(' ') as [string, string];
    const operation = `${key} [multipart]`;
    const statuses: Record<string, number> = {};
    const requests = fc.sample(multipartArbitrary(method, path, spec), { seed: seedOf(seed, operation), numRuns: runs });
    for (const request of requests) {
      const described: FuzzRequest = { method, url: request.url, payload: request.description };
      let res: LightMyRequestResponse;
      try {
        let timer: NodeJS.Timeout | undefined;
        res = await Promise.race([
          options.app.inject({
            method: method as InjectOptions['method'],
            url: request.url,
            headers: { authorization: `Bearer ${options.token}`, 'content-type': request.contentType },
            payload: request.payload,
          }),
          // a form the server never answers (a cut body left waiting) is a finding, not a stuck test
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${MULTIPART_TIMEOUT_MS} ms`)), MULTIPART_TIMEOUT_MS);
          }),
        ]).finally(() => clearTimeout(timer));
      } catch (err) {
        statuses.aborted = (statuses.aborted ?? 0) + 1;
        report.failures.push({ operation, request: described, status: 0, reason: 'aborted', body: String(err) });
        continue;
      }
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      options.onResponse?.(operation, described, res);
      const reason = check(res);
      if (res.statusCode >= 500) report.serverErrors += 1;
      if (reason) report.failures.push({ operation, request: described, status: res.statusCode, reason, body: res.payload.slice(0, 500) });
    }
    report.runs += requests.length;
    report.operations.push({ operation, runs: requests.length, statuses });
    if (options.afterOperation) await options.afterOperation(operation);
  }
}

/** One line per operation (`GET /api/x  15 runs  200:3 400:12`) for test output. */
export function formatFuzzReport(report: FuzzReport): string {
  const lines = report.operations.map(
    (o) =>
      `${o.operation.padEnd(60)} ${String(o.runs).padStart(3)} runs  ${Object.entries(o.statuses)
        .map(([status, count]) => `${status}:${count}`)
        .join(' ')}`,
  );
  for (const s of report.skipped) lines.push(`${s.operation.padEnd(60)} skipped: ${s.reason}`);
  lines.push(`${report.operations.length} operations, ${report.runs} requests, ${report.serverErrors} x 5xx, ${report.failures.length} failures`);
  return lines.join('\n');
}
