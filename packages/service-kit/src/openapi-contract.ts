/**
 * Wire-contract check between two OpenAPI 3 documents of one service: what a client written against
 * `before` would trip over in `after`. Additions (operations, optional parameters, response properties,
 * operationId/security/x-permission/summary changes, a POST alias of a PUT) are not breaking.
 * Not checked: headers, content types other than JSON, string constraints (length, pattern).
 */

export type BreakingKind =
  | 'operation-removed'
  | 'parameter-removed'
  | 'parameter-type-changed'
  | 'parameter-now-required'
  | 'body-now-required'
  | 'body-property-removed'
  | 'body-property-type-changed'
  | 'body-property-now-required'
  | 'response-removed'
  | 'response-property-removed'
  | 'response-property-type-changed';

export interface BreakingChange {
  /** `PUT /api/agents/{id}` as written in `before`. */
  operation: string;
  kind: BreakingKind;
  /** `query.orgId`, `path.1`, `body.items[].amount`, `response.data.list[].agentName`. */
  location: string;
  message: string;
}

type Json = Record<string, unknown>;
interface Doc {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; parameters?: Record<string, unknown> };
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
const MAX_DEPTH = 24;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows local `#/components/...` references (a few hops at most). */
function deref(doc: Doc, value: unknown): Json {
  let current = value;
  for (let hops = 0; hops < 16 && isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) return {};
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), doc);
  }
  return isObject(current) ? current : {};
}

function members(doc: Doc, schema: Json): Json[] {
  const list = [...asArray(schema.anyOf), ...asArray(schema.oneOf), ...asArray(schema.allOf)];
  return list.map((m) => deref(doc, m));
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The JSON types a schema accepts (`any` when it does not say); `nullable` adds `null`. */
function typesOf(doc: Doc, raw: unknown, depth = 0): Set<string> {
  const schema = deref(doc, raw);
  const types = new Set<string>();
  if (Array.isArray(schema.type)) for (const t of schema.type) types.add(String(t));
  else if (typeof schema.type === 'string') types.add(schema.type);
  const parts = depth < MAX_DEPTH ? members(doc, schema) : [];
  if (types.size === 0 && Array.isArray(schema.enum) && schema.enum.every((v) => v === null)) types.add('null');
  if (types.size === 0 && parts.length > 0) {
    for (const part of parts) for (const t of typesOf(doc, part, depth + 1)) types.add(t);
  }
  if (types.size === 0) types.add('any');
  if (schema.nullable === true) types.add('null');
  return types;
}

/** Does a value of any type in `inner` fit `outer`? (`integer` fits `number`.) */
function covers(outer: Set<string>, inner: Set<string>): boolean {
  if (outer.has('any')) return true;
  for (const t of inner) {
    if (outer.has(t)) continue;
    if (t === 'integer' && outer.has('number')) continue;
    return false;
  }
  return true;
}

/** The values an enum-like schema allows, or undefined when it allows any value of its type. */
function enumOf(doc: Doc, raw: unknown, depth = 0): unknown[] | undefined {
  const schema = deref(doc, raw);
  if (Array.isArray(schema.enum)) return schema.enum;
  const parts = depth < MAX_DEPTH ? members(doc, schema).filter((m) => !isNullOnly(doc, m)) : [];
  if (parts.length === 0) return undefined;
  const values: unknown[] = [];
  for (const part of parts) {
    const allowed = enumOf(doc, part, depth + 1);
    if (allowed === undefined) return undefined;
    values.push(...allowed);
  }
  return values;
}

function isNullOnly(doc: Doc, schema: unknown): boolean {
  const types = typesOf(doc, schema);
  return types.size === 1 && types.has('null');
}

function describeTypes(types: Set<string>): string {
  return [...types].sort().join('|');
}

/** Properties and required names of an object schema, including those of anyOf/oneOf/allOf members. */
function objectShape(doc: Doc, raw: unknown, depth = 0): { properties: Map<string, unknown>; required: Set<string> } {
  const schema = deref(doc, raw);
  const properties = new Map<string, unknown>();
  const required = new Set<string>();
  if (isObject(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) properties.set(k, v);
  for (const name of asArray(schema.required)) required.add(String(name));
  if (depth < MAX_DEPTH) {
    for (const part of members(doc, schema)) {
      const shape = objectShape(doc, part, depth + 1);
      for (const [k, v] of shape.properties) if (!properties.has(k)) properties.set(k, v);
      if (Array.isArray(schema.allOf)) for (const r of shape.required) required.add(r);
    }
  }
  return { properties, required };
}

function itemsOf(doc: Doc, raw: unknown, depth = 0): unknown {
  const schema = deref(doc, raw);
  if (schema.items !== undefined) return schema.items;
  if (depth >= MAX_DEPTH) return undefined;
  for (const part of members(doc, schema)) {
    const items = itemsOf(doc, part, depth + 1);
    if (items !== undefined) return items;
  }
  return undefined;
}

class Collector {
  readonly changes: BreakingChange[] = [];
  constructor(
    readonly before: Doc,
    readonly after: Doc,
  ) {}

  add(operation: string, kind: BreakingKind, location: string, detail: string): void {
    this.changes.push({ operation, kind, location, message: `${operation}: ${location} ${detail}` });
  }

  /** Request side: every value the old schema accepted must still be accepted. */
  request(op: string, location: string, oldRaw: unknown, newRaw: unknown, depth: number): void {
    if (depth > MAX_DEPTH) return;
    const oldTypes = typesOf(this.before, oldRaw);
    const newTypes = typesOf(this.after, newRaw);
    if (!covers(newTypes, oldTypes)) {
      this.add(op, 'body-property-type-changed', location, `type changed from ${describeTypes(oldTypes)} to ${describeTypes(newTypes)}`);
      return;
    }
    this.enumNarrowed(op, 'body-property-type-changed', location, oldRaw, newRaw);
    const oldShape = objectShape(this.before, oldRaw);
    const newShape = objectShape(this.after, newRaw);
    for (const [name, oldProp] of oldShape.properties) {
      const newProp = newShape.properties.get(name);
      const at = `${location}.${name}`;
      if (newProp === undefined) {
        // A new schema that declares no properties at all and allows extra ones still takes it.
        const open = newShape.properties.size === 0 && deref(this.after, newRaw).additionalProperties !== false;
        if (!open) this.add(op, 'body-property-removed', at, 'was removed');
        continue;
      }
      this.request(op, at, oldProp, newProp, depth + 1);
    }
    for (const name of newShape.required) {
      if (!oldShape.required.has(name)) this.add(op, 'body-property-now-required', `${location}.${name}`, 'is now required');
    }
    const oldItems = itemsOf(this.before, oldRaw);
    const newItems = itemsOf(this.after, newRaw);
    if (oldItems !== undefined && newItems !== undefined) this.request(op, `${location}[]`, oldItems, newItems, depth + 1);
  }

  /** Response side: every value the new schema may produce must have been possible before. */
  response(op: string, location: string, oldRaw: unknown, newRaw: unknown, depth: number): void {
    if (depth > MAX_DEPTH) return;
    const oldTypes = typesOf(this.before, oldRaw);
    const newTypes = typesOf(this.after, newRaw);
    if (!covers(oldTypes, newTypes)) {
      this.add(op, 'response-property-type-changed', location, `type changed from ${describeTypes(oldTypes)} to ${describeTypes(newTypes)}`);
      return;
    }
    const oldShape = objectShape(this.before, oldRaw);
    const newShape = objectShape(this.after, newRaw);
    for (const [name, oldProp] of oldShape.properties) {
      const newProp = newShape.properties.get(name);
      const at = `${location}.${name}`;
      if (newProp === undefined) this.add(op, 'response-property-removed', at, 'was removed');
      else this.response(op, at, oldProp, newProp, depth + 1);
    }
    const oldItems = itemsOf(this.before, oldRaw);
    const newItems = itemsOf(this.after, newRaw);
    if (oldItems !== undefined && newItems !== undefined) this.response(op, `${location}[]`, oldItems, newItems, depth + 1);
  }

  enumNarrowed(op: string, kind: BreakingKind, location: string, oldRaw: unknown, newRaw: unknown): void {
    const oldEnum = enumOf(this.before, oldRaw);
    const newEnum = enumOf(this.after, newRaw);
    if (!oldEnum || !newEnum) {
      if (!oldEnum && newEnum && newEnum.length > 0) this.add(op, kind, location, `now only accepts ${newEnum.map(String).join(', ')}`);
      return;
    }
    const dropped = oldEnum.filter((v) => !newEnum.includes(v));
    if (dropped.length > 0) this.add(op, kind, location, `no longer accepts ${dropped.map(String).join(', ')}`);
  }
}

/** `/api/agents/{agentId}` and `/api/agents/{id}` are the same wire path. */
function wirePath(path: string): string {
  return path.replace(/\{[^}]+\}/g, '{}');
}

function parametersOf(doc: Doc, pathItem: Json, operation: Json): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const raw of [...asArray(pathItem.parameters), ...asArray(operation.parameters)]) {
    const p = deref(doc, raw) as unknown as Parameter;
    if (typeof p.name === 'string' && typeof p.in === 'string') byKey.set(`${p.in}:${p.name}`, p);
  }
  return [...byKey.values()];
}

function pathParamsInOrder(path: string, params: Parameter[]): Array<Parameter | undefined> {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  return names.map((name) => params.find((p) => p.in === 'path' && p.name === name));
}

function jsonSchemaOf(content: unknown): unknown {
  if (!isObject(content)) return undefined;
  const json = Object.entries(content).find(([type]) => type.includes('json'));
  return json && isObject(json[1]) ? (json[1].schema ?? {}) : undefined;
}

function operationsOf(doc: Doc): Map<string, { path: string; method: string; item: Json; operation: Json }> {
  const ops = new Map<string, { path: string; method: string; item: Json; operation: Json }>();
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    for (const method of METHODS) {
      const operation = item[method];
      if (isObject(operation)) ops.set(`${method.toUpperCase()} ${wirePath(path)}`, { path, method, item, operation });
    }
  }
  return ops;
}

/** The breaking differences from `before` to `after` (empty when a client of `before` keeps working). */
export function compareOpenApi(before: unknown, after: unknown): BreakingChange[] {
  const oldDoc = (isObject(before) ? before : {}) as Doc;
  const newDoc = (isObject(after) ? after : {}) as Doc;
  const c = new Collector(oldDoc, newDoc);
  const newOps = operationsOf(newDoc);

  for (const [key, old] of operationsOf(oldDoc)) {
    const op = `${old.method.toUpperCase()} ${old.path}`;
    const current = newOps.get(key);
    if (!current) {
      c.add(op, 'operation-removed', 'operation', 'was removed');
      continue;
    }
    const oldParams = parametersOf(oldDoc, old.item, old.operation);
    const newParams = parametersOf(newDoc, current.item, current.operation);

    for (const p of oldParams.filter((p) => p.in === 'query')) {
      const location = `query.${p.name}`;
      const q = newParams.find((n) => n.in === 'query' && n.name === p.name);
      if (!q) {
        c.add(op, 'parameter-removed', location, 'was removed');
        continue;
      }
      if (q.required === true && p.required !== true) c.add(op, 'parameter-now-required', location, 'is now required');
      const oldTypes = typesOf(oldDoc, p.schema);
      const newTypes = typesOf(newDoc, q.schema);
      if (!covers(newTypes, oldTypes)) {
        c.add(op, 'parameter-type-changed', location, `type changed from ${describeTypes(oldTypes)} to ${describeTypes(newTypes)}`);
      } else {
        c.enumNarrowed(op, 'parameter-type-changed', location, p.schema, q.schema);
      }
    }
    for (const q of newParams.filter((n) => n.in === 'query' && n.required === true)) {
      if (!oldParams.some((p) => p.in === 'query' && p.name === q.name)) {
        c.add(op, 'parameter-now-required', `query.${q.name}`, 'is a new required parameter');
      }
    }

    const oldPath = pathParamsInOrder(old.path, oldParams);
    const newPath = pathParamsInOrder(current.path, newParams);
    oldPath.forEach((p, i) => {
      const q = newPath[i];
      if (!p || !q) return;
      const oldTypes = typesOf(oldDoc, p.schema);
      const newTypes = typesOf(newDoc, q.schema);
      if (!covers(newTypes, oldTypes)) {
        c.add(op, 'parameter-type-changed', `path.${p.name}`, `type changed from ${describeTypes(oldTypes)} to ${describeTypes(newTypes)}`);
      }
    });

    const oldBody = isObject(old.operation.requestBody) ? deref(oldDoc, old.operation.requestBody) : undefined;
    const newBody = isObject(current.operation.requestBody) ? deref(newDoc, current.operation.requestBody) : undefined;
    const oldBodySchema = jsonSchemaOf(oldBody?.content);
    const newBodySchema = jsonSchemaOf(newBody?.content);
    if (newBody?.required === true && oldBody?.required !== true) {
      c.add(op, 'body-now-required', 'body', 'is now required');
    } else if (oldBodySchema !== undefined && newBodySchema !== undefined) {
      c.request(op, 'body', oldBodySchema, newBodySchema, 0);
    }

    const oldResponse = deref(oldDoc, (old.operation.responses as Json | undefined)?.['200']);
    const newResponse = deref(newDoc, (current.operation.responses as Json | undefined)?.['200']);
    const oldResponseSchema = jsonSchemaOf(oldResponse.content);
    const newResponseSchema = jsonSchemaOf(newResponse.content);
    if (oldResponseSchema !== undefined) {
      if (newResponseSchema === undefined) c.add(op, 'response-removed', 'response', 'is no longer JSON');
      else c.response(op, 'response', oldResponseSchema, newResponseSchema, 0);
    }
  }
  return c.changes;
}
