import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, defineResource, f, registerResource, signAccessToken, type ServiceApp } from '../src/index.js';
import { createTestContext, type TestContext } from '../src/testing.js';
import { bearer, createDemoSchema, DEMO_MENU, grant } from './demo-app.js';

const OTHER_MENU = 'DEMO_OTHER';

const rows = defineResource({
  name: 'ScopedRow',
  path: '/api/scoped-rows',
  table: 'demo_scoped',
  alias: 's',
  menu: DEMO_MENU,
  fields: {
    rowId: f.id().label('행 번호', 'Row no'),
    agentId: f.ref().save(),
    settleMonth: f.month().save(),
    amount: f.money().save(),
  },
  agentScope: 'agentId',
});

const secrets = defineResource({
  name: 'OtherRow',
  path: '/api/other-rows',
  table: 'demo_scoped',
  alias: 'o',
  menu: OTHER_MENU,
  fields: { rowId: f.id().label('행 번호', 'Row no'), amount: f.money() },
  create: false,
  update: false,
  delete: false,
});

let ctx: TestContext<ServiceApp>;
let agentUserId: number;
let agentToken: string;

const get = (url: string, token: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers: { ...bearer(token), ...headers } });

beforeAll(async () => {
  ctx = await createTestContext({
    serviceName: 'meta-access-test',
    buildApp: async (deps) => {
      await createDemoSchema(deps.db);
      await sql`CREATE TABLE IF NOT EXISTS demo_scoped (
        row_id bigserial PRIMARY KEY, agent_id bigint, settle_month char(6), amount numeric(15,2))`.execute(deps.db);
      await sql`INSERT INTO menu (menu_code, menu_name, menu_type, menu_path) VALUES (${OTHER_MENU}, 'Other', 'PAGE', 'demo/other')
        ON CONFLICT (menu_code) DO NOTHING`.execute(deps.db);
      await sql`INSERT INTO menu_permission (menu_id, perm_code, perm_name) SELECT m.menu_id, 'READ', 'READ' FROM menu m
        WHERE m.menu_code = ${OTHER_MENU} ON CONFLICT (menu_id, perm_code) DO NOTHING`.execute(deps.db);
      await sql`INSERT INTO demo_scoped (agent_id, settle_month, amount) VALUES (7, '202510', 100.50), (8, '202510', 200.00)`.execute(deps.db);
      const app = await createServiceApp({ name: 'meta-access-test', ...deps });
      registerResource(app, rows);
      registerResource(app, secrets);
      return app;
    },
  });
  await grant(ctx.db, 'AGENT', DEMO_MENU, ['READ', 'EXPORT']);
  await grant(ctx.db, 'OTHER_READER', OTHER_MENU, ['READ']);
  await ctx.tokenFor('AGENT');
  await sql`UPDATE users SET agent_id = 7 WHERE login_id = 'test_agent'`.execute(ctx.db);
  const user = { ...(await ctx.userFor('AGENT')), agentId: 7 };
  agentUserId = user.userId;
  agentToken = signAccessToken(ctx.app, user);
});

afterAll(async () => {
  await ctx?.close();
});

describe('GET /api/meta/resources lists what the caller may read', () => {
  it('an AGENT sees only the resources of menus it may READ; an administrator sees both', async () => {
    const agent = (await get('/api/meta/resources', agentToken)).json().data.resources.map((r: { name: string }) => r.name);
    expect(agent).toEqual(['ScopedRow']);
    await grant(ctx.db, 'SUPER_ADMIN', DEMO_MENU, ['READ']);
    await grant(ctx.db, 'SUPER_ADMIN', OTHER_MENU, ['READ']);
    await ctx.app.permissions.invalidate();
    const admin = (await get('/api/meta/resources', ctx.adminToken)).json().data.resources.map((r: { name: string }) => r.name);
    expect(admin).toEqual(expect.arrayContaining(['ScopedRow', 'OtherRow']));
  });

  it('carries labels in both languages and the reference target per field', async () => {
    const meta = (await get('/api/meta/resources', agentToken)).json().data.resources[0];
    const byKey = Object.fromEntries(meta.fields.map((x: { key: string }) => [x.key, x]));
    expect(byKey.rowId.label).toEqual({ ko: '행 번호', en: 'Row no' });
    expect(byKey.settleMonth).toMatchObject({ label: { ko: '정산월', en: 'Settle month' }, display: 'month' });
    expect(byKey.agentId).toMatchObject({ display: 'ref', ref: { resource: 'Agent', valueField: 'agentId', labelField: 'agentName', picker: 'search' } });
  });
});

describe('spreadsheet headers in the caller\'s language', () => {
  const headerOf = async (url: string, headers: Record<string, string> = {}) => {
    const res = await get(url, agentToken, headers);
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    return workbook.worksheets[0]!.getRow(1).values as unknown[];
  };

  it('Korean by default, English with ?lang=en or Accept-Language: en', async () => {
    expect(await headerOf('/api/scoped-rows/excel')).toEqual([undefined, '행 번호', '설계사', '정산월', '금액']);
    expect(await headerOf('/api/scoped-rows/excel?lang=en')).toEqual([undefined, 'Row no', 'Agent', 'Settle month', 'Amount']);
    expect(await headerOf('/api/scoped-rows/excel', { 'accept-language': 'en-US,en;q=0.9' })).toEqual([undefined, 'Row no', 'Agent', 'Settle month', 'Amount']);
    expect(await headerOf('/api/scoped-rows/excel?lang=ko', { 'accept-language': 'en-US' })).toEqual([undefined, '행 번호', '설계사', '정산월', '금액']);
  });
});

describe('the agent link and roles are read per request, not from the token', () => {
  const listed = async (token: string) => {
    const res = await get('/api/scoped-rows?sortField=rowId&sortOrder=ASC', token);
    return { status: res.statusCode, amounts: res.statusCode === 200 ? res.json().data.list.map((r: { amount: string }) => r.amount) : [] };
  };

  it('an unlink applies on the very next request of the same token, a re-link too', async () => {
    expect(await listed(agentToken)).toEqual({ status: 200, amounts: ['100.50'] });
    // As auth-platform does it: write, then invalidate through the bus.
    await sql`UPDATE users SET agent_id = NULL WHERE user_id = ${agentUserId}`.execute(ctx.db);
    await ctx.app.permissions.invalidate();
    expect(await listed(agentToken)).toEqual({ status: 200, amounts: [] });
    await sql`UPDATE users SET agent_id = 8 WHERE user_id = ${agentUserId}`.execute(ctx.db);
    await ctx.app.permissions.invalidate();
    expect(await listed(agentToken)).toEqual({ status: 200, amounts: ['200.00'] });
  });

  it('a role change applies on the very next request: a removed role refuses, an added one widens the rows', async () => {
    await sql`UPDATE users SET agent_id = 7 WHERE user_id = ${agentUserId}`.execute(ctx.db);
    await ctx.app.permissions.invalidate();
    expect(await listed(agentToken)).toEqual({ status: 200, amounts: ['100.50'] });
    // A second role besides AGENT lifts the own-agent scope (row-scope rule) on the next call.
    await grant(ctx.db, 'OTHER_READER', DEMO_MENU, ['READ']);
    await sql`INSERT INTO user_role (user_id, role_id) SELECT ${agentUserId}, role_id FROM role WHERE role_code = 'OTHER_READER'`.execute(ctx.db);
    await ctx.app.permissions.invalidate();
    expect(await listed(agentToken)).toEqual({ status: 200, amounts: ['100.50', '200.00'] });
    // Both roles removed: the token still says AGENT, the next call is refused.
    await sql`DELETE FROM user_role WHERE user_id = ${agentUserId}`.execute(ctx.db);
    await ctx.app.permissions.invalidate();
    expect((await listed(agentToken)).status).toBe(403);
  });

  it('without an invalidation the read is cached only briefly (one query per user, not per request)', async () => {
    const first = await ctx.app.permissions.currentUser(agentUserId);
    expect(first).toEqual({ agentId: 7, roleCodes: [] });
    await sql`UPDATE users SET agent_id = 9 WHERE user_id = ${agentUserId}`.execute(ctx.db);
    expect(await ctx.app.permissions.currentUser(agentUserId)).toBe(first);
    ctx.app.permissions.clearLocal();
    expect((await ctx.app.permissions.currentUser(agentUserId)).agentId).toBe(9);
  });
});
