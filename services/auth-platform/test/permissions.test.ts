import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAllRoutesGuarded } from '@csp/service-kit';
import { buildApp } from '../src/app.js';
import { bearer, setup, type Ctx } from './helpers.js';

let ctx: Ctx;

beforeAll(async () => {
  ctx = await setup();
});
afterAll(async () => {
  await ctx?.close();
});

function get(url: string, token: string) {
  return ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
}

async function menuId(code: string): Promise<number> {
  const row = await ctx.db.selectFrom('menu').select('menu_id').where('menu_code', '=', code).executeTakeFirstOrThrow();
  return row.menu_id;
}

async function roleId(code: string): Promise<number> {
  const row = await ctx.db.selectFrom('role').select('role_id').where('role_code', '=', code).executeTakeFirstOrThrow();
  return row.role_id;
}

describe('route guard', () => {
  it('every route declares perm(), authenticated() or publicRoute()', () => {
    expect(() => assertAllRoutesGuarded(ctx.app)).not.toThrow();
  });

  it('the meta-check names an undeclared route, and such a route is refused at run time', async () => {
    const app = await buildApp({ config: ctx.config, db: ctx.db, pool: ctx.pool, redis: ctx.redis });
    try {
      app.get('/api/users/undeclared', async () => ({ leaked: true }));
      await app.ready();
      expect(() => assertAllRoutesGuarded(app)).toThrow(/GET \/api\/users\/undeclared/);
      const res = await app.inject({ method: 'GET', url: '/api/users/undeclared', headers: bearer(ctx.adminToken) });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('E403');
    } finally {
      await app.close();
    }
  });

  it('only the public paths of spec 5.2 answer without a token', async () => {
    const publicOk = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(publicOk.statusCode).toBe(200);
    for (const url of ['/api/users', '/api/menus/my', '/api/common/codes/AGENT_STATUS', '/api/notifications/unread-count', '/api/system/config']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code, url).toBe('E401');
    }
  });
});

describe('permissions by role', () => {
  it('AGENT gets E403 on the users menu while SUPER_ADMIN passes', async () => {
    const agent = await get('/api/users', await ctx.tokenFor('AGENT'));
    expect(agent.statusCode).toBe(403);
    expect(agent.json()).toMatchObject({ success: false, code: 'E403' });
    const superAdmin = await get('/api/users', await ctx.tokenFor('SUPER_ADMIN'));
    expect(superAdmin.statusCode).toBe(200);
  });

  it('ADMIN is refused the users and roles menus but may use the notices and data-domain menus', async () => {
    const token = await ctx.tokenFor('ADMIN');
    for (const url of ['/api/users', '/api/roles', '/api/roles/1/permissions']) {
      const res = await get(url, token);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code, url).toBe('E403');
    }
    for (const url of ['/api/notices', '/api/data-domains', '/api/external-call-logs']) {
      expect((await get(url, token)).statusCode, url).toBe(200);
    }
  });

  it('/api/menus/my for AGENT holds only the ledger pages, the settlement list and its disputes, its payments, withdraw requests and statements, under their directories', async () => {
    const res = await get('/api/menus/my', await ctx.tokenFor('AGENT'));
    expect(res.statusCode).toBe(200);
    const tree = res.json().data as Array<{ menuCode: string; menuType: string; permissions: string[]; children: any[] }>;
    expect(tree.map((n) => n.menuCode)).toEqual(['LEDGER', 'SETTLE', 'PAYMENT_GRP']);
    const ledger = tree[0]!;
    expect(ledger).toMatchObject({ menuType: 'DIRECTORY', permissions: [] });
    expect(ledger.children.map((c) => [c.menuCode, c.permissions])).toEqual([
      ['LEDGER_RECRUIT', ['READ']],
      ['LEDGER_MAINTAIN', ['READ']],
      ['LEDGER_EXCEPTION', ['READ']],
    ]);
    // V087 (DECISIONS "Settlement lifecycle"): an agent raises and reads disputes on its own rows.
    expect(tree[1]!.children.map((c) => [c.menuCode, c.permissions, c.menuPath])).toEqual([
      ['SETTLE_LIST', ['READ'], 'settle'],
      ['DISPUTE', ['READ', 'CREATE'], 'settle/disputes'],
    ]);
    // V088 (the agent portal): its own payments and statements, and withdraw requests within its balance.
    expect(tree[2]!.children.map((c) => [c.menuCode, c.permissions, c.menuPath])).toEqual([
      ['PAYMENT', ['READ'], 'payments'],
      ['WITHDRAW', ['READ', 'CREATE'], 'payments/withdraw'],
      ['STATEMENT', ['READ'], 'payments/statements'],
    ]);
    expect(ledger.children[0]).toEqual({
      menuId: await menuId('LEDGER_RECRUIT'),
      parentMenuId: await menuId('LEDGER'),
      menuCode: 'LEDGER_RECRUIT',
      menuName: expect.any(String),
      menuType: 'PAGE',
      menuPath: 'ledger/recruit',
      menuIcon: null,
      sortOrder: expect.any(Number),
      isVisible: true,
      permissions: ['READ'],
      children: [],
    });
  });

  it('/api/menus/my for SUPER_ADMIN lists every directory with every permission of a page', async () => {
    const tree = (await get('/api/menus/my', await ctx.tokenFor('SUPER_ADMIN'))).json().data as any[];
    expect(tree.map((n) => n.menuCode)).toEqual([
      'ORG',
      'PRODUCT_CONTRACT',
      'RULES',
      'RECEIVE',
      'LEDGER',
      'SETTLE',
      'PAYMENT_GRP',
      'REPORT',
      'KPI',
      'COMMISSION',
      'AGENT_MGMT',
      'SYSTEM',
    ]);
    const system = tree.find((n) => n.menuCode === 'SYSTEM');
    expect(system.children.find((c: any) => c.menuCode === 'SYSTEM_USER').permissions).toEqual(['READ', 'CREATE', 'UPDATE']);
  });

  it('/api/menus/tree needs SYSTEM_MENU READ and shows every menu with its permission codes', async () => {
    expect((await get('/api/menus/tree', await ctx.tokenFor('ADMIN'))).statusCode).toBe(403);
    const tree = (await get('/api/menus/tree', ctx.adminToken)).json().data as any[];
    const count = (nodes: any[]): number => nodes.reduce((n, node) => n + 1 + count(node.children), 0);
    const total = await ctx.db.selectFrom('menu').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(count(tree)).toBe(Number(total.n));
    const ledger = tree.find((n) => n.menuCode === 'LEDGER');
    expect(ledger.children.find((c: any) => c.menuCode === 'LEDGER_EXCEPTION').permissions).toEqual(['READ', 'CREATE', 'APPROVE']);
  });
});

describe('role permission matrix', () => {
  it('lists every menu with its permission codes and the granted flags of the role', async () => {
    const agentRole = await roleId('AGENT');
    const res = await get(`/api/roles/${agentRole}/permissions`, ctx.adminToken);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ roleId: agentRole, roleCode: 'AGENT' });
    const total = await ctx.db.selectFrom('menu').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(data.menus).toHaveLength(Number(total.n));
    const recruit = data.menus.find((m: any) => m.menuCode === 'LEDGER_RECRUIT');
    expect(recruit.permissions).toEqual([
      { permCode: 'READ', permName: expect.any(String), granted: true },
      { permCode: 'EXPORT', permName: expect.any(String), granted: false },
    ]);
    // Parents come before their children.
    const index = (code: string) => data.menus.findIndex((m: any) => m.menuCode === code);
    expect(index('LEDGER')).toBeLessThan(index('LEDGER_RECRUIT'));
  });

  it('a new grant takes effect at once, and so does its removal (permission cache invalidated)', async () => {
    const agentRole = await roleId('AGENT');
    const agentToken = await ctx.tokenFor('AGENT');
    expect((await get('/api/notices', agentToken)).statusCode).toBe(403);

    const current = (await get(`/api/roles/${agentRole}/permissions`, ctx.adminToken)).json().data.menus as any[];
    const grants = current.flatMap((m) => m.permissions.map((p: any) => ({ menuId: m.menuId, permCode: p.permCode, granted: p.granted })));
    const notice = await menuId('NOTICE');
    const withNotice = grants.map((g) => (g.menuId === notice && g.permCode === 'READ' ? { ...g, granted: true } : g));

    const put = (body: object) =>
      ctx.app.inject({ method: 'PUT', url: `/api/roles/${agentRole}/permissions`, headers: bearer(ctx.adminToken), payload: body });
    expect((await put({ grants: withNotice })).statusCode).toBe(200);
    expect((await get('/api/notices', agentToken)).statusCode).toBe(200);
    expect((await get('/api/notices', agentToken)).statusCode).toBe(200); // now answered from the positive cache

    expect((await put({ grants })).statusCode).toBe(200);
    expect((await get('/api/notices', agentToken)).statusCode).toBe(403);
    // The ledger grants survived the round trip.
    const after = await ctx.db.selectFrom('role_menu_permission').select(['menu_id', 'perm_code']).where('role_id', '=', agentRole).execute();
    expect(after).toHaveLength(10); // 3 ledgers + settle list READ, DISPUTE READ + CREATE (V087), PAYMENT and STATEMENT READ, WITHDRAW READ + CREATE (V088)
  });

  it('a grant for a permission the menu does not offer is E411', async () => {
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/roles/${await roleId('AGENT')}/permissions`,
      headers: bearer(ctx.adminToken),
      payload: { grants: [{ menuId: await menuId('KPI_MONTHLY'), permCode: 'DELETE', granted: true }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('E411');
    expect(res.json().data.errors[0].field).toBe('grants.0');
  });

  it('SUPER_ADMIN grants are fixed (B008) and system roles cannot be deleted (B008)', async () => {
    const superAdmin = await roleId('SUPER_ADMIN');
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/api/roles/${superAdmin}/permissions`,
      headers: bearer(ctx.adminToken),
      payload: { grants: [] },
    });
    expect(put.json().code).toBe('B008');
    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/roles/${await roleId('MANAGER')}`, headers: bearer(ctx.adminToken) });
    expect(del.statusCode).toBe(400);
    expect(del.json().code).toBe('B008');
  });

  it('creates, updates and deletes a custom role; a duplicate role code is B009', async () => {
    const headers = bearer(ctx.adminToken);
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers,
      payload: { roleCode: 'AUDITOR', roleName: 'Auditor', roleDesc: 'Reads logs', roleLevel: 20 },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().data.id as number;
    const dup = await ctx.app.inject({ method: 'POST', url: '/api/roles', headers, payload: { roleCode: 'AUDITOR', roleName: 'Again' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('B009');

    const upd = await ctx.app.inject({ method: 'PUT', url: `/api/roles/${id}`, headers, payload: { roleName: 'Log auditor' } });
    expect(upd.statusCode).toBe(200);
    const detail = (await get(`/api/roles/${id}`, ctx.adminToken)).json().data;
    expect(detail).toMatchObject({ roleCode: 'AUDITOR', roleName: 'Log auditor', roleDesc: 'Reads logs', roleLevel: 20, isSystem: 'N', isActive: true, userCount: 0 });

    const del = await ctx.app.inject({ method: 'DELETE', url: `/api/roles/${id}`, headers });
    expect(del.statusCode).toBe(200);
    expect((await get(`/api/roles/${id}`, ctx.adminToken)).statusCode).toBe(404);
  });
});
