import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, flushLogs, login, setup, type Ctx } from './helpers.js';

let ctx: Ctx;
let headers: Record<string, string>;

beforeAll(async () => {
  ctx = await setup();
  headers = bearer(ctx.adminToken);
});
afterAll(async () => {
  await ctx?.close();
});

async function roleId(code: string): Promise<number> {
  return (await ctx.db.selectFrom('role').select('role_id').where('role_code', '=', code).executeTakeFirstOrThrow()).role_id;
}

function createViaApi(payload: object) {
  return ctx.app.inject({ method: 'POST', url: '/api/users', headers, payload });
}

describe('users', () => {
  it('creates a user with roles; the new user can log in and the password is stored as a BCrypt hash', async () => {
    const res = await createViaApi({
      loginId: 'kim.agent',
      password: 'Start1234',
      userName: 'Kim Agent',
      email: 'kim@example.com',
      phone: '010-1234-5678',
      roleIds: [await roleId('AGENT')],
    });
    expect(res.statusCode).toBe(200);
    const id = res.json().data.id as number;
    const row = await ctx.db.selectFrom('users').select(['password', 'status']).where('user_id', '=', id).executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$2[aby]\$10\$/);
    expect(row.status).toBe('ACTIVE');
    const logged = await login(ctx, 'kim.agent', 'Start1234');
    expect(logged.json().data.user.roleCodes).toEqual(['AGENT']);
  });

  it('masks phone and e-mail in the list, never returns a password, and filters by login id, status and role', async () => {
    await createUser(ctx, { loginId: 'masked.one', email: 'masked@example.com', phone: '01098765432', roleCodes: ['MANAGER'] });
    const res = await ctx.app.inject({ method: 'GET', url: '/api/users?loginId=masked&status=ACTIVE', headers });
    expect(res.statusCode).toBe(200);
    const page = res.json().data;
    expect(page).toMatchObject({ total: 1, pageNum: 1, pageSize: 20, pages: 1 });
    const item = page.list[0];
    expect(item.loginId).toBe('masked.one');
    expect(item.email).not.toBe('masked@example.com');
    expect(item.email).toMatch(/^m.*@example\.com$/);
    expect(item.phone).not.toContain('9876');
    expect(item.phone).toMatch(/5432$/);
    expect(item.roleCodes).toEqual(['MANAGER']);
    expect(JSON.stringify(page)).not.toMatch(/"password"|\$2[aby]\$/);

    const byRole = (await ctx.app.inject({ method: 'GET', url: '/api/users?roleCode=MANAGER', headers })).json().data;
    expect(byRole.list.map((u: any) => u.loginId)).toEqual(['masked.one']);
    const locked = (await ctx.app.inject({ method: 'GET', url: '/api/users?status=LOCKED', headers })).json().data;
    expect(locked.total).toBe(0);
  });

  it('shows the detail unmasked with roles', async () => {
    const id = await createUser(ctx, { loginId: 'detail.one', email: 'd@example.com', phone: '010-2222-3333', roleCodes: ['ADMIN'] });
    const res = await ctx.app.inject({ method: 'GET', url: `/api/users/${id}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      userId: id,
      loginId: 'detail.one',
      email: 'd@example.com',
      phone: '010-2222-3333',
      status: 'ACTIVE',
      roleCodes: ['ADMIN'],
      roles: [{ roleId: await roleId('ADMIN'), roleCode: 'ADMIN', roleName: '관리자' }],
    });
  });

  it('refuses a weak password (E411), a malformed e-mail (E411) and a duplicate login id (B009)', async () => {
    const weak = await createViaApi({ loginId: 'weak.pw', password: 'abc', userName: 'Weak' });
    expect(weak.json().code).toBe('E411');
    expect(weak.json().data.errors).toEqual([{ field: 'password', message: expect.any(String) }]);

    const email = await createViaApi({ loginId: 'bad.mail', password: 'Good12345', userName: 'Bad', email: 'nope' });
    expect(email.statusCode).toBe(400);
    expect(email.json().data.errors[0].field).toBe('email');

    await createUser(ctx, { loginId: 'dup.one' });
    const dup = await createViaApi({ loginId: 'dup.one', password: 'Good12345', userName: 'Dup' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('B009');
  });

  it('an unknown role id is E411 on create and nothing is written', async () => {
    const res = await createViaApi({ loginId: 'ghost.role', password: 'Good12345', userName: 'Ghost', roleIds: [999999] });
    expect(res.json().code).toBe('E411');
    expect(res.json().data.errors[0].field).toBe('roleIds.0');
    const row = await ctx.db.selectFrom('users').select('user_id').where('login_id', '=', 'ghost.role').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('retiring a user through update blocks login and refresh', async () => {
    const id = await createUser(ctx, { loginId: 'to.retire', password: 'Right1234' });
    const pair = (await login(ctx, 'to.retire', 'Right1234')).json().data;
    const me = () => ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(pair.accessToken) });
    expect((await me()).statusCode).toBe(200); // the guard now caches "user is active"
    const upd = await ctx.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers, payload: { status: 'RETIRED', userName: 'Gone' } });
    expect(upd.statusCode).toBe(200);
    expect((await login(ctx, 'to.retire', 'Right1234')).json().code).toBe('A003');
    expect((await me()).statusCode).toBe(401);
    const refresh = await ctx.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: pair.refreshToken } });
    expect(refresh.json().code).toBe('E401');
    await flushLogs(ctx);
    const log = await ctx.db
      .selectFrom('data_change_log')
      .selectAll()
      .where('table_name', '=', 'users')
      .where('record_id', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(log).toMatchObject({ menu_code: 'SYSTEM_USER', action: 'UPDATE' });
    expect(log.before_data).toMatchObject({ status: 'ACTIVE' });
    expect(log.after_data).toMatchObject({ status: 'RETIRED', userName: 'Gone' });
    expect(JSON.stringify(log)).not.toContain('$2b$');
  });

  it('an agent unlink and a role change apply to the same token on its very next request (issue 23 item 7)', async () => {
    const id = await createUser(ctx, { loginId: 'linked.agent', password: 'Right1234', roleCodes: ['AGENT'], agentId: 7 });
    const token = (await login(ctx, 'linked.agent', 'Right1234')).json().data.accessToken as string;
    const me = async () => (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).json().data;
    const users = async () => (await ctx.app.inject({ method: 'GET', url: '/api/users', headers: bearer(token) })).statusCode;
    expect(await me()).toMatchObject({ agentId: 7, roleCodes: ['AGENT'] });
    expect(await users()).toBe(403);

    const unlink = await ctx.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers, payload: { userName: 'Linked agent', agentId: null } });
    expect(unlink.statusCode).toBe(200);
    expect(await me()).toMatchObject({ agentId: null, roleCodes: ['AGENT'] });

    const admin = await ctx.db.selectFrom('role').select('role_id').where('role_code', '=', 'SUPER_ADMIN').executeTakeFirstOrThrow();
    const roles = await ctx.app.inject({ method: 'PUT', url: `/api/users/${id}/roles`, headers, payload: { roleIds: [admin.role_id] } });
    expect(roles.statusCode).toBe(200);
    expect(await me()).toMatchObject({ agentId: null, roleCodes: ['SUPER_ADMIN'] });
    expect(await users()).toBe(200);

    const none = await ctx.app.inject({ method: 'PUT', url: `/api/users/${id}/roles`, headers, payload: { roleIds: [] } });
    expect(none.statusCode).toBe(200);
    expect(await users()).toBe(403);
  });

  it('password reset without a body returns a temporary password once; with newPassword it sets that one', async () => {
    const id = await createUser(ctx, { loginId: 'forgetful', password: 'Old123456' });
    const generated = await ctx.app.inject({ method: 'PUT', url: `/api/users/${id}/password-reset`, headers });
    expect(generated.statusCode).toBe(200);
    const temporary = generated.json().data.temporaryPassword as string;
    expect(temporary).toMatch(/^(?=.*[A-Za-z])(?=.*\d).{12}$/);
    expect((await login(ctx, 'forgetful', temporary)).statusCode).toBe(200);
    expect((await login(ctx, 'forgetful', 'Old123456')).json().code).toBe('A003');

    const chosen = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${id}/password-reset`,
      headers,
      payload: { newPassword: 'Chosen123' },
    });
    expect(chosen.json().data).toEqual({});
    expect((await login(ctx, 'forgetful', 'Chosen123')).statusCode).toBe(200);
  });

  it('unlock makes a LOCKED account ACTIVE with the failure count cleared', async () => {
    const id = await createUser(ctx, { loginId: 'unlock.me', password: 'Right1234' });
    for (let i = 0; i < 5; i++) await login(ctx, 'unlock.me', 'Wrong1234');
    expect((await login(ctx, 'unlock.me', 'Right1234')).json().code).toBe('A004');
    const res = await ctx.app.inject({ method: 'PUT', url: `/api/users/${id}/unlock`, headers });
    expect(res.statusCode).toBe(200);
    const row = await ctx.db.selectFrom('users').select(['status', 'fail_count']).where('user_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'ACTIVE', fail_count: 0 });
    expect((await login(ctx, 'unlock.me', 'Right1234')).statusCode).toBe(200);
  });

  it('unlock does not revive a RETIRED account', async () => {
    const id = await createUser(ctx, { loginId: 'retired.unlock', status: 'RETIRED' });
    const res = await ctx.app.inject({ method: 'PUT', url: `/api/users/${id}/unlock`, headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('E400');
  });

  it('role assignment replaces the roles and takes effect at once', async () => {
    const id = await createUser(ctx, { loginId: 'promoted', password: 'Right1234', roleCodes: ['AGENT'] });
    const token = (await login(ctx, 'promoted', 'Right1234')).json().data.accessToken as string;
    expect((await ctx.app.inject({ method: 'GET', url: '/api/notices', headers: bearer(token) })).statusCode).toBe(403);
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/users/${id}/roles`,
      headers,
      payload: { roleIds: [await roleId('ADMIN')] },
    });
    expect(res.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/users/${id}`, headers })).json().data.roleCodes).toEqual(['ADMIN']);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/notices', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('an unknown user is E404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/users/987654', headers });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('E404');
  });

  it('sortField outside the documented fields is E411', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/users?sortField=password', headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('E411');
    expect(res.json().data.errors[0].field).toBe('sortField');
  });
});
