import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '@csp/db';
import {
  action,
  authenticated,
  createLogger,
  createServiceApp,
  envelope,
  listQuery,
  ok,
  perm,
  publicRoute,
  sendSpreadsheet,
  streamRows,
  zId,
  type ServiceApp,
} from '../src/index.js';
import { createTestContext, type TestContext } from '../src/testing.js';

/** Collects pino output (JSON lines). */
export class LogSink extends Writable {
  readonly lines: Array<Record<string, unknown>> = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) this.lines.push(JSON.parse(line));
    done();
  }
}

export const HARD_MENU = 'KIT_HARDENING';
export const HARD_ROLE = 'KIT_HARDENING_USER';

/** A menu with every permission, granted to HARD_ROLE. */
async function grantAll(db: Db): Promise<void> {
  const perms = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT', 'APPROVE'];
  await sql`
    INSERT INTO menu (menu_code, menu_name, menu_type, menu_path) VALUES (${HARD_MENU}, 'Kit hardening', 'PAGE', 'kit/hardening')
    ON CONFLICT (menu_code) DO NOTHING`.execute(db);
  await sql`
    INSERT INTO menu_permission (menu_id, perm_code, perm_name)
    SELECT m.menu_id, p.code, p.code FROM menu m, unnest(${perms}::text[]) AS p(code) WHERE m.menu_code = ${HARD_MENU}
    ON CONFLICT (menu_id, perm_code) DO NOTHING`.execute(db);
  await sql`INSERT INTO role (role_code, role_name) VALUES (${HARD_ROLE}, ${HARD_ROLE}) ON CONFLICT (role_code) DO NOTHING`.execute(db);
  await sql`
    INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
    SELECT r.role_id, m.menu_id, p.code, 'Y' FROM role r, menu m, unnest(${perms}::text[]) AS p(code)
     WHERE r.role_code = ${HARD_ROLE} AND m.menu_code = ${HARD_MENU}
    ON CONFLICT (role_id, menu_id, perm_code) DO UPDATE SET is_granted = 'Y'`.execute(db);
}

export interface HardeningOptions {
  logSink?: LogSink;
  /** Adds `GET /api/kit/buggy`, which answers 500 for `?n=` 10 and above (for the fuzzer to find). */
  withBug?: boolean;
}

/** Routes exercising input hardening, OpenAPI derivation, POST+PUT actions and export failures. */
export async function buildHardeningApp(
  deps: Parameters<Parameters<typeof createTestContext>[0]['buildApp']>[0],
  options: HardeningOptions = {},
): Promise<ServiceApp> {
  await grantAll(deps.db);
  const app = await createServiceApp({
    name: 'kit-hardening',
    ...deps,
    logger: options.logSink ? createLogger({ name: 'kit-hardening', level: 'info', destination: options.logSink }) : undefined,
  });
  const params = z.object({ id: zId });
  const thing = z.object({ name: z.string().min(1).max(50), tags: z.array(z.string()).max(5).optional(), meta: z.record(z.string(), z.unknown()).optional() });

  app.get(
    '/api/kit/things',
    { config: perm(HARD_MENU, 'READ'), schema: { tags: ['kit'], querystring: listQuery(['name'], { q: z.string().optional() }) } },
    async (request) => ok({ q: request.query.q ?? null }),
  );
  app.post(
    '/api/kit/things',
    { config: perm(HARD_MENU, 'CREATE'), schema: { tags: ['kit'], body: thing, response: { 200: envelope(z.object({ id: z.number() })) } } },
    async () => ok({ id: 1 }),
  );
  app.get(
    '/api/kit/things/:id',
    { config: perm(HARD_MENU, 'READ'), schema: { tags: ['kit'], params } },
    async (request) => ok({ id: request.params.id }),
  );
  app.get('/api/kit/codes/:code', { config: perm(HARD_MENU, 'READ') }, async (request) => ok({ code: (request.params as { code: string }).code }));
  app.put(
    '/api/kit/things/:id',
    { config: perm(HARD_MENU, 'UPDATE'), schema: { tags: ['kit'], params, body: thing } },
    async () => ok(),
  );
  action(
    app,
    '/api/kit/things/:id/approve',
    {
      config: perm(HARD_MENU, 'APPROVE'),
      schema: { tags: ['kit'], summary: 'Approve a thing', params, body: z.object({ note: z.string().max(100).optional() }), response: { 200: envelope(z.object({ id: z.number(), note: z.string().nullable(), method: z.string() })) } },
    },
    async (request) => ok({ id: request.params.id, note: request.body.note ?? null, method: request.method }),
  );
  action(
    app,
    '/api/kit/things/:id/hold',
    { config: perm(HARD_MENU, 'APPROVE'), schema: { tags: ['kit'], operationId: 'holdKitThing', params } },
    async () => ok(),
  );
  app.get('/api/kit/me', { config: authenticated(), schema: { tags: ['kit'] } }, async (request) => ok({ userId: request.user?.userId }));
  app.get('/api/kit/public', { config: publicRoute(), schema: { tags: ['kit'] } }, async () => ok());
  app.get(
    '/api/kit/things/excel',
    { config: perm(HARD_MENU, 'EXPORT'), schema: { tags: ['kit'], querystring: z.object({ q: z.string().optional(), failAfter: z.coerce.number().int().min(0).optional(), rows: z.coerce.number().int().min(0).max(100_000).default(10), level: z.string().max(20).optional() }) } },
    async (request, reply) => {
      const { failAfter, rows, level } = request.query;
      if (level !== undefined) {
        // The database refuses the filter only when the cursor first reads (22003 for '99999').
        const query = sql<{ id: number; name: string }>`SELECT ${level}::smallint AS id, 'x' AS name`.compile(app.db);
        return sendSpreadsheet(reply, { fileName: 'levels.xlsx', columns: [{ header: 'ID', key: 'id' }], rows: streamRows(app.pool, query) });
      }
      async function* generate() {
        for (let i = 1; i <= rows; i++) {
          if (failAfter !== undefined && i > failAfter) throw new Error('database went away');
          yield { id: i, name: `row ${i} ${'x'.repeat(200)}` };
        }
      }
      return sendSpreadsheet(reply, { fileName: 'things.xlsx', columns: [{ header: 'ID', key: 'id' }, { header: 'Name', key: 'name' }], rows: generate() });
    },
  );
  if (options.withBug) {
    app.get(
      '/api/kit/buggy',
      { config: perm(HARD_MENU, 'READ'), schema: { tags: ['kit'], querystring: z.object({ n: z.coerce.number().int().min(1).max(20).optional() }) } },
      async (request) => {
        if ((request.query.n ?? 0) >= 10) throw new Error('unlucky');
        return ok();
      },
    );
  }
  return app;
}

export async function createHardeningContext(options: HardeningOptions = {}): Promise<TestContext<ServiceApp>> {
  return createTestContext({ buildApp: (deps) => buildHardeningApp(deps, options), serviceName: 'kit-hardening' });
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
