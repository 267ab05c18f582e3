import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, setup, type Ctx } from './helpers.js';

let ctx: Ctx;
let headers: Record<string, string>;

beforeAll(async () => {
  ctx = await setup();
  headers = bearer(ctx.adminToken);
});
afterAll(async () => {
  await ctx?.close();
});

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return ctx.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
}

async function menuId(code: string): Promise<number> {
  return (await ctx.db.selectFrom('menu').select('menu_id').where('menu_code', '=', code).executeTakeFirstOrThrow()).menu_id;
}

function findNode(nodes: any[], code: string): any {
  for (const n of nodes) {
    if (n.menuCode === code) return n;
    const hit = findNode(n.children, code);
    if (hit) return hit;
  }
  return undefined;
}

describe('menu CRUD', () => {
  it('creates a page with permissions that SUPER_ADMIN holds at once', async () => {
    const res = await call('POST', '/api/menus', {
      parentMenuId: await menuId('SYSTEM'),
      menuCode: 'SYSTEM_AUDIT',
      menuName: 'Audit',
      menuType: 'PAGE',
      menuPath: 'system/audit',
      sortOrder: 900,
      permissions: ['EXPORT', 'READ', { permCode: 'UPDATE', permName: 'Edit' }],
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().data.id as number;

    const detail = (await call('GET', `/api/menus/${id}`)).json().data;
    expect(detail).toMatchObject({ menuCode: 'SYSTEM_AUDIT', menuLevel: 2, menuType: 'PAGE', permissions: ['READ', 'UPDATE', 'EXPORT'] });
    expect(detail.permissionDetails).toEqual([
      { permCode: 'READ', permName: 'Read', sortOrder: 1 },
      { permCode: 'UPDATE', permName: 'Edit', sortOrder: 3 },
      { permCode: 'EXPORT', permName: 'Export', sortOrder: 6 },
    ]);

    const my = (await call('GET', '/api/menus/my')).json().data;
    expect(findNode(my, 'SYSTEM_AUDIT').permissions).toEqual(['READ', 'UPDATE', 'EXPORT']);
    const agentMy = (await ctx.app.inject({ method: 'GET', url: '/api/menus/my', headers: bearer(await ctx.tokenFor('AGENT')) })).json().data;
    expect(findNode(agentMy, 'SYSTEM_AUDIT')).toBeUndefined();

    const list = (await call('GET', '/api/menus?menuCode=SYSTEM_AUDIT')).json().data;
    expect(list.list).toHaveLength(1);
  });

  it('replacing the permission set drops the grants of removed codes', async () => {
    const id = await menuId('SYSTEM_AUDIT');
    expect((await call('PUT', `/api/menus/${id}`, { permissions: ['READ'] })).statusCode).toBe(200);
    const grants = await ctx.db.selectFrom('role_menu_permission').select('perm_code').where('menu_id', '=', id).execute();
    expect(grants.map((g) => g.perm_code)).toEqual(['READ']);
    expect((await call('GET', `/api/menus/${id}`)).json().data.permissions).toEqual(['READ']);
  });

  it('moves a menu to another parent (levels follow) and refuses a move below itself', async () => {
    const dir = (await call('POST', '/api/menus', { menuCode: 'AUDIT_DIR', menuName: 'Audit dir', menuType: 'DIRECTORY' })).json().data.id;
    const page = await menuId('SYSTEM_AUDIT');
    expect((await call('PUT', `/api/menus/${page}`, { parentMenuId: dir })).statusCode).toBe(200);
    expect((await call('GET', `/api/menus/${page}`)).json().data).toMatchObject({ parentMenuId: dir, menuLevel: 2 });

    const sub = (await call('POST', '/api/menus', { parentMenuId: page, menuCode: 'AUDIT_SUB', menuName: 'Sub', menuType: 'LINK' })).json().data.id;
    expect((await call('GET', `/api/menus/${sub}`)).json().data.menuLevel).toBe(3);
    const nestDir = await call('PUT', `/api/menus/${dir}`, { parentMenuId: await menuId('SYSTEM') });
    expect(nestDir.statusCode).toBe(200);
    expect((await call('GET', `/api/menus/${sub}`)).json().data.menuLevel).toBe(4);

    const cycle = await call('PUT', `/api/menus/${dir}`, { parentMenuId: sub });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().data.errors[0].field).toBe('parentMenuId');

    const tree = (await call('GET', '/api/menus/tree')).json().data;
    expect(findNode(tree, 'AUDIT_DIR').children.map((c: any) => c.menuCode)).toEqual(['SYSTEM_AUDIT']);
  });

  it('deletes only leaves; a duplicate menu code is B009', async () => {
    const dup = await call('POST', '/api/menus', { menuCode: 'AUDIT_DIR', menuName: 'x', menuType: 'DIRECTORY' });
    expect(dup.json().code).toBe('B009');

    const withChildren = await call('DELETE', `/api/menus/${await menuId('SYSTEM_AUDIT')}`);
    expect(withChildren.statusCode).toBe(400);
    expect(withChildren.json().code).toBe('E400');

    const sub = await menuId('AUDIT_SUB');
    expect((await call('DELETE', `/api/menus/${sub}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/menus/${sub}`)).statusCode).toBe(404);
  });

  it('ADMIN has no SYSTEM_MENU grant', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/menus', headers: bearer(await ctx.tokenFor('ADMIN')) });
    expect(res.statusCode).toBe(403);
  });
});
