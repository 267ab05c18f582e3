import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '@csp/db';
import {
  authenticated,
  createLogger,
  createServiceApp,
  defineResource,
  f,
  listQuery,
  money,
  ok,
  perm,
  publicRoute,
  rate,
  sendSpreadsheet,
  zMoney,
  zRate,
  type ServiceApp,
} from '../src/index.js';
import { createTestContext, type TestDeps } from '../src/testing.js';
import { registerResource } from '../src/resource.js';

export const DEMO_MENU = 'DEMO_ITEM';
export const DEMO_ROLE = 'DEMO_USER';

/** Collects pino output so tests can assert on what was logged. */
export class LogSink extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line));
    done();
  }
  text(): string {
    return this.lines.map((l) => JSON.stringify(l)).join('\n');
  }
}

export async function createDemoSchema(db: Db): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS demo_item (
      item_id     bigserial PRIMARY KEY,
      item_code   varchar(20)   NOT NULL UNIQUE,
      item_name   varchar(100)  NOT NULL,
      amount      numeric(15,2) NOT NULL,
      rate        numeric(7,4),
      status      varchar(20)   NOT NULL DEFAULT 'ACTIVE',
      valid_from  date,
      version     integer       NOT NULL DEFAULT 0,
      is_deleted  boolean       NOT NULL DEFAULT false,
      created_by  bigint,
      updated_by  bigint,
      created_at  timestamptz   NOT NULL DEFAULT now(),
      updated_at  timestamptz   NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE IF NOT EXISTS demo_tag (
      tag_id   bigserial PRIMARY KEY,
      item_id  bigint REFERENCES demo_item (item_id),
      tag_name varchar(50) NOT NULL
    )`.execute(db);
  await sql`
    INSERT INTO menu (menu_code, menu_name, menu_type, menu_path)
    VALUES (${DEMO_MENU}, 'Demo items', 'PAGE', 'demo/items')
    ON CONFLICT (menu_code) DO NOTHING`.execute(db);
  await sql`
    INSERT INTO menu_permission (menu_id, perm_code, perm_name)
    SELECT m.menu_id, p.code, p.code FROM menu m, unnest(ARRAY['READ','CREATE','UPDATE','DELETE','EXPORT']) AS p(code)
     WHERE m.menu_code = ${DEMO_MENU}
    ON CONFLICT (menu_id, perm_code) DO NOTHING`.execute(db);
}

/** Grants (menu, perm) pairs to a role (role created when missing). */
export async function grant(db: Db, roleCode: string, menu: string, perms: string[]): Promise<void> {
  await sql`INSERT INTO role (role_code, role_name) VALUES (${roleCode}, ${roleCode}) ON CONFLICT (role_code) DO NOTHING`.execute(db);
  await sql`
    INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
    SELECT r.role_id, m.menu_id, p.code, 'Y' FROM role r, menu m, unnest(${perms}::text[]) AS p(code)
     WHERE r.role_code = ${roleCode} AND m.menu_code = ${menu}
    ON CONFLICT (role_id, menu_id, perm_code) DO UPDATE SET is_granted = 'Y'`.execute(db);
}

export const demoItems = defineResource({
  name: 'DemoItem',
  path: '/api/demo-items',
  table: 'demo_item',
  menu: DEMO_MENU,
  tags: ['demo'],
  fields: {
    itemId: f.id(),
    itemCode: f.text({ max: 20 }).required().sort().search(),
    itemName: f.text({ max: 100 }).required().search(),
    amount: f.money().required().sort(),
    rate: f.rate().save(),
    status: f.enum(['ACTIVE', 'INACTIVE']).save({ default: 'ACTIVE' }).nullable(false),
    validFrom: f.date().save(),
    version: f.version(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
    updatedAt: f.updatedAt().hidden(),
  },
  filters: {
    shape: { minAmount: zMoney.optional() },
    apply: (qb, q) => (q.minAmount ? qb.where('amount', '>=', q.minAmount) : qb),
  },
  defaultSort: 'itemId',
  dateFilter: 'validFrom',
  statusField: 'status',
  delete: { soft: 'is_deleted' },
  export: 'EXPORT',
});

/** Hard delete, no version, a join in baseQuery, a custom id parameter, no export. */
export const demoTags = defineResource({
  name: 'DemoTag',
  path: '/api/demo-tags',
  table: 'demo_tag',
  alias: 't',
  idParam: 'tagId',
  menu: DEMO_MENU,
  baseQuery: (db) => db.selectFrom('demo_tag as t').leftJoin('demo_item as i', 'i.item_id', 't.item_id'),
  fields: {
    tagId: f.id(),
    tagName: f.text().required().sort().search(),
    itemId: f.ref().save(),
    itemCode: f.joined('i.item_code', 'text').sort().search(),
  },
  defaultSort: '-tagId',
  export: false,
});

export interface DemoOptions {
  logSink?: LogSink;
  /** Adds a route without an access declaration. */
  withUndeclared?: boolean;
}

export async function buildDemoApp(deps: TestDeps, options: DemoOptions = {}): Promise<ServiceApp> {
  await createDemoSchema(deps.db);
  const app = await createServiceApp({
    name: 'demo-service',
    ...deps,
    logger: options.logSink ? createLogger({ name: 'demo-service', level: 'info', destination: options.logSink }) : undefined,
    logFlushIntervalMs: 100,
  });

  app.post(
    '/api/demo/validate',
    {
      config: perm(DEMO_MENU, 'CREATE'),
      schema: {
        body: z.object({
          name: z.string().min(1),
          items: z.array(z.object({ amount: zMoney, rate: zRate.optional() })),
        }),
      },
    },
    async (request) => ok(request.body),
  );

  app.get(
    '/api/demo/search',
    { config: perm(DEMO_MENU, 'READ'), schema: { querystring: listQuery(['itemCode', 'amount'], { minAmount: zMoney.optional() }) } },
    async (request) => ok(request.query),
  );

  app.post('/api/demo/boom', { config: perm(DEMO_MENU, 'CREATE') }, async () => {
    throw new Error('secret internals: password=hunter2');
  });

  app.get('/api/demo/me', { config: authenticated() }, async (request) => ok(request.user));

  app.post('/api/demo/approve', { config: perm(DEMO_MENU, 'APPROVE') }, async () => ok());

  app.get('/api/demo/public', { config: publicRoute() }, async () => ok({ hello: 'world' }));

  app.post('/api/demo/change', { config: perm(DEMO_MENU, 'UPDATE') }, async (request) => {
    request.changeLog({ menuCode: DEMO_MENU, tableName: 'demo_item', recordId: 42, action: 'UPDATE', before: { a: 1 }, after: { a: 2 } });
    return ok();
  });

  app.get(
    '/api/demo/sheet',
    { config: perm(DEMO_MENU, 'EXPORT'), schema: { querystring: z.object({ n: z.coerce.number().int().min(0) }) } },
    async (request, reply) => {
      const n = request.query.n;
      function* rows() {
        for (let i = 1; i <= n; i++) yield { id: i, name: `이름 ${i}`, amount: money(i * 10 + 0.5) };
      }
      return sendSpreadsheet(reply, {
        fileName: '정산 목록.xlsx',
        sheetName: 'Items',
        columns: [
          { header: 'ID', key: 'id' },
          { header: 'Name', key: 'name' },
          { header: 'Amount', key: 'amount' },
        ],
        rows: rows(),
      });
    },
  );

  if (options.withUndeclared) {
    app.get('/api/demo/undeclared', async () => ok('should never be reached'));
  }

  registerResource(app, demoItems);
  registerResource(app, demoTags);
  return app;
}

export function createDemoContext(options: DemoOptions = {}) {
  return createTestContext({ serviceName: 'demo-service', buildApp: (deps) => buildDemoApp(deps, options) });
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/** Polls until `check` returns a value other than undefined (async log writes). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
