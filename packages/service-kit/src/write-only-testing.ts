import type { FastifyInstance } from 'fastify';
import './app.js';
import { isStored, columnOf } from './fields.js';
import type { Resource } from './resource-types.js';
import { MASK_CHAR, readOnlyMaskedFieldsOf, registeredResources, writeOnlyFieldsOf } from './write-only.js';

/**
 * The generated write-only test (issue 22), driven by the field tables of the resources an app
 * registered: every saved masked/encrypted field must be covered by a case, else it fails.
 */

/** A service app (`app.pool`, `app.cipher` are the kit's decorations). */
type App = FastifyInstance<any, any, any, any, any>;

export interface WriteOnlyCase {
  /** `Resource.name` of a registered resource. */
  resource: string;
  /** Creates a row through the API with every write-only field full; returns its id. */
  create(): Promise<number>;
  /** The full values the create sent, by field key (every write-only field of the resource). */
  full: Record<string, string>;
  /** Detail (GET) and update (PUT) path of a row; default `${resource.path}/${id}`. */
  itemPath?(id: number): string;
}

export interface WriteOnlyReport {
  /** `Resource.field` pairs the round trip covered. */
  covered: string[];
  /** Registered write-only fields without a case (the test fails on any). */
  uncovered: string[];
  /** Masked/encrypted fields no body can write (read-only copies): `Resource.field`. */
  readOnly: string[];
  /** One line per failed check. */
  failures: string[];
}

interface Answer {
  status: number;
  body: any;
}

async function call(app: App, token: string, method: 'GET' | 'PUT', url: string, payload?: unknown): Promise<Answer> {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.headers['content-type']?.toString().includes('json') ? JSON.parse(res.payload) : undefined };
}

/** The stored plain value of a column (decrypted where encrypted). */
async function storedPlain(app: App, resource: Resource, column: string, encrypted: boolean | undefined, id: number) {
  const { rows } = await app.pool.query(`select ${column} as v from ${resource.table} where ${resource.idColumn} = $1`, [id]);
  const v = rows[0]?.v as string | null | undefined;
  if (v === null || v === undefined) return null;
  return encrypted ? app.cipher.decrypt(v) : v;
}

/** A value that looks masked and is not what the server shows for the stored value. */
const FOREIGN_MASKED = '999-****-0000';

/**
 * For each case: create a full row, GET it, PUT the GET body back unchanged and check in the database
 * (decrypted) that every write-only column still holds the full value; PUT a masked-looking value
 * (E411 on that field); PUT '' on each optional one (cleared). Never throws on findings.
 */
export async function runWriteOnlyRoundTrip(options: { app: App; token: string; cases: WriteOnlyCase[] }): Promise<WriteOnlyReport> {
  const { app, token, cases } = options;
  const report: WriteOnlyReport = { covered: [], uncovered: [], readOnly: [], failures: [] };
  const resources = registeredResources(app);
  for (const resource of resources) {
    const fields = resource.declaration.fields;
    report.readOnly.push(...readOnlyMaskedFieldsOf(fields).map((k) => `${resource.name}.${k}`));
    const writeOnly = writeOnlyFieldsOf(fields);
    if (!writeOnly.length) continue;
    const c = cases.find((x) => x.resource === resource.name);
    const fail = (text: string) => report.failures.push(`${resource.name}: ${text}`);
    if (!c) {
      report.uncovered.push(...writeOnly.map((w) => `${resource.name}.${w.key}`));
      continue;
    }
    const path = c.itemPath ?? ((id: number) => `${resource.path}/${id}`);
    for (const w of writeOnly) {
      if (c.full[w.key] === undefined) report.uncovered.push(`${resource.name}.${w.key}`);
    }
    const checkStored = async (id: number, step: string, expected: (key: string) => string | null) => {
      for (const w of writeOnly) {
        const stored = await storedPlain(app, resource, w.column, w.spec.encrypted, id);
        if (stored !== expected(w.key)) fail(`${step}: ${w.key} stored ${JSON.stringify(stored)}, expected ${JSON.stringify(expected(w.key))}`);
      }
    };

    const id = await c.create();
    await checkStored(id, 'after create', (k) => c.full[k] ?? null);
    const got = await call(app, token, 'GET', path(id));
    if (got.status !== 200) {
      fail(`GET ${path(id)} answered ${got.status}`);
      continue;
    }
    const shown = got.body.data as Record<string, unknown>;
    const back = await call(app, token, 'PUT', path(id), shown);
    if (back.status !== 200) fail(`PUT of the GET body answered ${back.status} ${JSON.stringify(back.body)}`);
    await checkStored(id, 'PUT of the GET body', (k) => c.full[k] ?? null);

    const cleared = new Set<string>();
    for (const w of writeOnly) {
      // the current detail: a field cleared before shows null now, not its old masked text
      const current = (await call(app, token, 'GET', path(id))).body?.data as Record<string, unknown>;
      const masked = await call(app, token, 'PUT', path(id), { ...current, [w.key]: FOREIGN_MASKED });
      const errors = (masked.body?.data?.errors ?? []) as Array<{ field: string }>;
      if (masked.status !== 400 || masked.body?.code !== 'E411' || !errors.some((e) => e.field === w.key)) {
        fail(`PUT ${w.key}=${FOREIGN_MASKED} answered ${masked.status} ${JSON.stringify(masked.body)}, expected E411 on ${w.key}`);
      }
      if (w.spec.save !== 'required') {
        const blank = await call(app, token, 'PUT', path(id), { ...current, [w.key]: '' });
        if (blank.status !== 200) fail(`PUT ${w.key}='' answered ${blank.status} ${JSON.stringify(blank.body)}`);
        cleared.add(w.key);
        // the other fields are untouched by clearing this one (the body carries them as shown)
        await checkStored(id, `PUT ${w.key}=''`, (k) => (cleared.has(k) ? null : (c.full[k] ?? null)));
      }
      report.covered.push(`${resource.name}.${w.key}`);
    }
  }
  for (const c of cases) {
    if (!resources.some((r) => r.name === c.resource)) report.failures.push(`${c.resource}: no such registered resource`);
  }
  return report;
}

export interface MaskedScanFinding {
  table: string;
  column: string;
  id: unknown;
}

/**
 * Every stored masked or encrypted column of the app's registered resources (DECISIONS "Masked and
 * encrypted fields are write-only"): the rows whose value (decrypted where encrypted) contains the
 * mask character. `extra` adds columns written outside field tables.
 */
export async function scanMaskedColumns(
  app: App,
  extra: Array<{ table: string; idColumn: string; column: string; encrypted?: boolean }> = [],
): Promise<{ scanned: string[]; findings: MaskedScanFinding[] }> {
  const targets = new Map<string, { table: string; idColumn: string; column: string; encrypted: boolean }>();
  for (const resource of registeredResources(app)) {
    for (const [key, field] of Object.entries(resource.declaration.fields)) {
      const s = field.spec;
      if (!(s.masked || s.encrypted) || !isStored(s)) continue;
      const column = columnOf(key, s);
      targets.set(`${resource.table}.${column}`, { table: resource.table, idColumn: resource.idColumn, column, encrypted: Boolean(s.encrypted) });
    }
  }
  for (const e of extra) targets.set(`${e.table}.${e.column}`, { ...e, encrypted: Boolean(e.encrypted) });
  const findings: MaskedScanFinding[] = [];
  for (const t of targets.values()) {
    const { rows } = await app.pool.query(`select ${t.idColumn} as id, ${t.column} as v from ${t.table} where ${t.column} is not null`);
    for (const row of rows as Array<{ id: unknown; v: string }>) {
      let plain = row.v;
      if (t.encrypted) {
        try {
          plain = app.cipher.decrypt(row.v);
        } catch {
          // not a ciphertext: judged as stored
        }
      }
      if (plain.includes(MASK_CHAR)) findings.push({ table: t.table, column: t.column, id: row.id });
    }
  }
  return { scanned: [...targets.keys()].sort(), findings };
}
