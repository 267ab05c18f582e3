import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAccessTokenPayload } from '@csp/service-kit';
import { ADMIN_PASSWORD, bearer, createUser, login, loginToken, setup, type Ctx } from './helpers.js';

let ctx: Ctx;

beforeAll(async () => {
  ctx = await setup();
});
afterAll(async () => {
  await ctx?.close();
});

async function userRow(loginId: string) {
  return ctx.db.selectFrom('users').selectAll().where('login_id', '=', loginId).executeTakeFirstOrThrow();
}

async function loginLogs(loginId: string) {
  return ctx.db.selectFrom('login_log').selectAll().where('login_id', '=', loginId).orderBy('log_id').execute();
}

describe('POST /api/auth/login', () => {
  it('returns a Bearer token pair and the user for the seeded admin', async () => {
    const res = await login(ctx, 'admin', ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, code: '0000' });
    expect(body.data.tokenType).toBe('Bearer');
    expect(body.data.expiresIn).toBe(7200);
    expect(typeof body.data.accessToken).toBe('string');
    expect(body.data.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.data.user).toEqual({
      userId: (await userRow('admin')).user_id,
      loginId: 'admin',
      userName: 'Administrator',
      roleCodes: ['SUPER_ADMIN'],
      agentId: null,
    });
    const logs = await loginLogs('admin');
    expect(logs.at(-1)).toMatchObject({ result: 'SUCCESS', fail_reason: null, login_type: 'PWD' });
    expect((await userRow('admin')).last_login_at).toBeInstanceOf(Date);
  });

  it('stores only a sha256 hash of the refresh token', async () => {
    const res = await login(ctx, 'admin', ADMIN_PASSWORD);
    const token = res.json().data.refreshToken as string;
    const rows = await ctx.db.selectFrom('refresh_token').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('answers a wrong password with A003 and counts the failure', async () => {
    await createUser(ctx, { loginId: 'wrongpw', password: 'Right1234' });
    const res = await login(ctx, 'wrongpw', 'Wrong1234');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: 'A003' });
    expect((await userRow('wrongpw')).fail_count).toBe(1);
    const logs = await loginLogs('wrongpw');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ result: 'FAIL', fail_reason: 'BAD_PASSWORD (1)' });
  });

  it('locks the account on the 5th consecutive failure (A004) and then refuses the right password with A004', async () => {
    await createUser(ctx, { loginId: 'locker', password: 'Right1234' });
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push((await login(ctx, 'locker', 'Wrong1234')).json().code);
    expect(codes).toEqual(['A003', 'A003', 'A003', 'A003', 'A004']);
    const row = await userRow('locker');
    expect(row.status).toBe('LOCKED');
    expect(row.fail_count).toBe(5);
    const res = await login(ctx, 'locker', 'Right1234');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('A004');
  });

  it('takes the failure threshold from system_config LOGIN_FAIL_LIMIT', async () => {
    await ctx.db.updateTable('system_config').set({ config_value: '2' }).where('config_key', '=', 'LOGIN_FAIL_LIMIT').execute();
    try {
      await createUser(ctx, { loginId: 'limit2', password: 'Right1234' });
      expect((await login(ctx, 'limit2', 'x')).json().code).toBe('A003');
      expect((await login(ctx, 'limit2', 'x')).json().code).toBe('A004');
      expect((await userRow('limit2')).status).toBe('LOCKED');
    } finally {
      await ctx.db.updateTable('system_config').set({ config_value: '5' }).where('config_key', '=', 'LOGIN_FAIL_LIMIT').execute();
    }
  });

  it('resets the failure count on a successful login', async () => {
    await createUser(ctx, { loginId: 'resetter', password: 'Right1234' });
    await login(ctx, 'resetter', 'Wrong1234');
    await login(ctx, 'resetter', 'Wrong1234');
    expect((await userRow('resetter')).fail_count).toBe(2);
    expect((await login(ctx, 'resetter', 'Right1234')).statusCode).toBe(200);
    expect((await userRow('resetter')).fail_count).toBe(0);
  });

  it('refuses a LOCKED user with A004 even with the right password', async () => {
    await createUser(ctx, { loginId: 'locked1', password: 'Right1234', status: 'LOCKED' });
    const res = await login(ctx, 'locked1', 'Right1234');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('A004');
  });

  it('refuses a RETIRED user with A003 even with the right password, without counting a failure', async () => {
    await createUser(ctx, { loginId: 'retired1', password: 'Right1234', status: 'RETIRED' });
    const res = await login(ctx, 'retired1', 'Right1234');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('A003');
    expect((await userRow('retired1')).fail_count).toBe(0);
    expect((await loginLogs('retired1'))[0]).toMatchObject({ result: 'FAIL', fail_reason: 'STATUS_RETIRED' });
  });

  it('answers an unknown login id with A003 and logs the attempt', async () => {
    const res = await login(ctx, 'nobody', 'Whatever1');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('A003');
    expect(await loginLogs('nobody')).toMatchObject([{ user_id: null, result: 'FAIL', fail_reason: 'UNKNOWN_LOGIN_ID' }]);
  });

  it('records ip address and user agent of the attempt', async () => {
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': 'vitest-agent/1.0' },
      payload: { loginId: 'admin', password: ADMIN_PASSWORD },
    });
    const last = (await loginLogs('admin')).at(-1)!;
    expect(last.user_agent).toBe('vitest-agent/1.0');
    expect(last.ip_address).toBe('127.0.0.1');
  });

  it('rejects a body without password with E411 and the field error list', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { loginId: 'admin' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ success: false, code: 'E411' });
    expect(body.data.errors).toEqual([{ field: 'password', message: expect.any(String) }]);
  });
});

describe('access tokens', () => {
  it('GET /api/auth/me without a token is E401', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: 'E401' });
  });

  it('GET /api/auth/me returns the logged-in user from the token', async () => {
    const token = await loginToken(ctx, 'admin', ADMIN_PASSWORD);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      userId: (await userRow('admin')).user_id,
      loginId: 'admin',
      userName: 'Administrator',
      roleCodes: ['SUPER_ADMIN'],
      agentId: null,
    });
  });

  it('an expired token is A001', async () => {
    const user = await ctx.userFor('SUPER_ADMIN');
    const past = Math.floor(Date.now() / 1000) - 60;
    const token = ctx.app.jwt.sign({ ...toAccessTokenPayload(user), iat: past - 7200, exp: past });
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('A001');
  });

  it('a tampered token is E401', async () => {
    const token = await loginToken(ctx, 'admin', ADMIN_PASSWORD);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, roleCodes: ['SUPER_ADMIN', 'X'] })).toString('base64url');
    for (const bad of [`${header}.${forged}.${signature}`, `${header}.${payload}.${signature!.slice(0, -4)}AAAA`]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(bad) });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('E401');
    }
  });

  it('a token of a user that was retired meanwhile is E401', async () => {
    await createUser(ctx, { loginId: 'soonretired', password: 'Right1234' });
    const token = await loginToken(ctx, 'soonretired', 'Right1234');
    await ctx.db.updateTable('users').set({ status: 'RETIRED' }).where('login_id', '=', 'soonretired').execute();
    ctx.app.permissions.clearLocal();
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
  });
});

describe('refresh, logout and password change', () => {
  function refresh(refreshToken: string) {
    return ctx.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
  }

  it('rotates: a refresh token works once, its successor works, the used one fails with E401', async () => {
    const first = (await login(ctx, 'admin', ADMIN_PASSWORD)).json().data;
    const second = await refresh(first.refreshToken);
    expect(second.statusCode).toBe(200);
    const pair = second.json().data;
    expect(pair).toMatchObject({ tokenType: 'Bearer', expiresIn: 7200, user: { loginId: 'admin' } });
    expect(pair.refreshToken).not.toBe(first.refreshToken);

    const reused = await refresh(first.refreshToken);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().code).toBe('E401');

    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(pair.accessToken) });
    expect(me.statusCode).toBe(200);
    expect((await refresh(pair.refreshToken)).statusCode).toBe(200);
  });

  it('refuses an unknown or expired refresh token with E401', async () => {
    expect((await refresh('x'.repeat(43))).json().code).toBe('E401');
    const pair = (await login(ctx, 'admin', ADMIN_PASSWORD)).json().data;
    await ctx.db.updateTable('refresh_token').set({ expires_at: new Date(Date.now() - 1000) }).where('used_at', 'is', null).execute();
    expect((await refresh(pair.refreshToken)).json().code).toBe('E401');
  });

  it('refuses to refresh for a user who is no longer ACTIVE', async () => {
    await createUser(ctx, { loginId: 'refreshlocked', password: 'Right1234' });
    const pair = (await login(ctx, 'refreshlocked', 'Right1234')).json().data;
    await ctx.db.updateTable('users').set({ status: 'LOCKED' }).where('login_id', '=', 'refreshlocked').execute();
    const res = await refresh(pair.refreshToken);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('E401');
  });

  it('logout with a refresh token revokes exactly that token', async () => {
    const a = (await login(ctx, 'admin', ADMIN_PASSWORD)).json().data;
    const b = (await login(ctx, 'admin', ADMIN_PASSWORD)).json().data;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(a.accessToken),
      payload: { refreshToken: a.refreshToken },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, code: '0000' });
    expect((await refresh(a.refreshToken)).json().code).toBe('E401');
    expect((await refresh(b.refreshToken)).statusCode).toBe(200);
  });

  it('logout without a body revokes every refresh token of the user', async () => {
    await createUser(ctx, { loginId: 'logoutall', password: 'Right1234' });
    const a = (await login(ctx, 'logoutall', 'Right1234')).json().data;
    const b = (await login(ctx, 'logoutall', 'Right1234')).json().data;
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(b.accessToken) });
    expect(res.statusCode).toBe(200);
    expect((await refresh(a.refreshToken)).json().code).toBe('E401');
    expect((await refresh(b.refreshToken)).json().code).toBe('E401');
  });

  it('logout needs an access token', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', payload: {} });
    expect(res.statusCode).toBe(401);
  });

  it('password change: wrong old password A003, weak new password E411, success revokes refresh tokens', async () => {
    await createUser(ctx, { loginId: 'changer', password: 'Before123' });
    const pair = (await login(ctx, 'changer', 'Before123')).json().data;
    const change = (payload: object) =>
      ctx.app.inject({ method: 'PUT', url: '/api/auth/password', headers: bearer(pair.accessToken), payload });

    const wrong = await change({ oldPassword: 'Nope12345', newPassword: 'After1234' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('A003');

    for (const weak of ['short1', 'lettersonly', '1234567890']) {
      const res = await change({ oldPassword: 'Before123', newPassword: weak });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('E411');
      expect(res.json().data.errors[0].field).toBe('newPassword');
    }

    const ok = await change({ oldPassword: 'Before123', newPassword: 'After1234' });
    expect(ok.statusCode).toBe(200);
    expect((await refresh(pair.refreshToken)).json().code).toBe('E401');
    expect((await login(ctx, 'changer', 'Before123')).json().code).toBe('A003');
    expect((await login(ctx, 'changer', 'After1234')).statusCode).toBe(200);
  });
});
