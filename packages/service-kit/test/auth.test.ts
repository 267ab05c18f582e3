import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bearer, buildDemoApp, createDemoContext, DEMO_MENU, DEMO_ROLE, grant } from './demo-app.js';
import type { TestContext } from '../src/testing.js';
import { assertAllRoutesGuarded, createServiceApp, ok, perm, signAccessToken, type ServiceApp } from '../src/index.js';

let ctx: TestContext<ServiceApp>;
let token: string;

beforeAll(async () => {
  ctx = await createDemoContext({ withUndeclared: true });
  await grant(ctx.db, DEMO_ROLE, DEMO_MENU, ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT']);
  token = await ctx.tokenFor(DEMO_ROLE);
});
afterAll(async () => {
  await ctx?.close();
});

const me = (headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url: '/api/demo/me', headers });

describe('authentication', () => {
  it('a request without a token is E401', async () => {
    const res = await me();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: 'E401' });
  });

  it('a valid token exposes the user as request.user', async () => {
    const user = await ctx.userFor(DEMO_ROLE);
    const res = await me(bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      userId: user.userId,
      loginId: 'test_demo_user',
      userName: 'Test DEMO_USER',
      roleCodes: [DEMO_ROLE],
      agentId: null,
    });
  });

  it('an expired token is A001 (HTTP 401)', async () => {
    const user = await ctx.userFor(DEMO_ROLE);
    const now = Math.floor(Date.now() / 1000);
    const expired = ctx.app.jwt.sign({
      sub: String(user.userId),
      uid: user.userId,
      loginId: user.loginId,
      userName: user.userName,
      roleCodes: user.roleCodes,
      agentId: null,
      typ: 'access',
      iat: now - 7300,
      exp: now - 100,
    });
    const res = await me(bearer(expired));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: 'A001' });
  });

  it('a tampered token is E401', async () => {
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, roleCodes: ['SUPER_ADMIN'] })).toString('base64url');
    const res = await me(bearer(`${header}.${forged}.${signature}`));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('E401');
  });

  it('a token signed with another secret, garbage or a non-Bearer header is E401', async () => {
    for (const authorization of ['Bearer not.a.jwt', 'Basic abc', `Bearer ${token}x`]) {
      const res = await me({ authorization });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('E401');
    }
  });

  it('a token whose typ is not access is E401', async () => {
    const user = await ctx.userFor(DEMO_ROLE);
    const refreshLike = ctx.app.jwt.sign({ ...{ sub: String(user.userId), uid: user.userId, loginId: user.loginId, userName: user.userName, roleCodes: [], agentId: null }, typ: 'refresh' } as never);
    const res = await me(bearer(refreshLike));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('E401');
  });

  it('a user who is no longer ACTIVE is E401', async () => {
    const user = await ctx.userFor('LOCKED_ROLE');
    const lockedToken = await ctx.tokenFor('LOCKED_ROLE');
    await sql`UPDATE users SET status = 'LOCKED' WHERE user_id = ${user.userId}`.execute(ctx.db);
    const res = await me(bearer(lockedToken));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('E401');
  });
});

describe('permission guard', () => {
  it('a user without the grant gets E403', async () => {
    const other = await ctx.tokenFor('NO_GRANTS');
    const res = await ctx.app.inject({ method: 'GET', url: '/api/demo-items', headers: bearer(other) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, code: 'E403' });
  });

  it('a user with the grant gets through', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/demo-items', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
  });

  it('a grant without a menu_permission row is refused', async () => {
    // role_menu_permission says APPROVE is granted, but DEMO_ITEM has no APPROVE menu_permission row.
    await grant(ctx.db, 'APPROVER', DEMO_MENU, ['APPROVE']);
    const approver = await ctx.tokenFor('APPROVER');
    const res = await ctx.app.inject({ method: 'POST', url: '/api/demo/approve', headers: bearer(approver) });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('E403');
  });

  it('a positive answer is cached; invalidate() from another instance clears it', async () => {
    await grant(ctx.db, 'CACHED_ROLE', DEMO_MENU, ['READ']);
    const cachedToken = await ctx.tokenFor('CACHED_ROLE');
    const list = () => ctx.app.inject({ method: 'GET', url: '/api/demo-items', headers: bearer(cachedToken) });
    expect((await list()).statusCode).toBe(200);

    await sql`DELETE FROM role_menu_permission WHERE role_id = (SELECT role_id FROM role WHERE role_code = 'CACHED_ROLE')`.execute(ctx.db);
    expect((await list()).statusCode).toBe(200); // still cached

    // A second service instance on the same database and Redis prefix publishes the invalidation.
    const other = await buildDemoApp({ config: ctx.config, db: ctx.db, pool: ctx.pool, redis: ctx.redis });
    try {
      await other.ready();
      await other.permissions.invalidate();
      await expect.poll(async () => (await list()).statusCode, { timeout: 5000, interval: 50 }).toBe(403);
    } finally {
      await other.close();
    }
  });

  it('a negative answer is not cached', async () => {
    const lateToken = await ctx.tokenFor('LATE_ROLE');
    const list = () => ctx.app.inject({ method: 'GET', url: '/api/demo-items', headers: bearer(lateToken) });
    expect((await list()).statusCode).toBe(403);
    await grant(ctx.db, 'LATE_ROLE', DEMO_MENU, ['READ']);
    expect((await list()).statusCode).toBe(200);
  });

  it('a route without an access declaration is refused with E403 at run time', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/demo/undeclared', headers: bearer(token) });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('E403');
  });

  it('assertAllRoutesGuarded lists undeclared routes', () => {
    expect(() => assertAllRoutesGuarded(ctx.app)).toThrow(/GET \/api\/demo\/undeclared/);
    let message = '';
    try {
      assertAllRoutesGuarded(ctx.app);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.split('\n').slice(1).map((l) => l.trim())).toEqual(['GET /api/demo/undeclared']);
  });

  it('assertAllRoutesGuarded passes when every route declares its access', async () => {
    const app = await createServiceApp({ name: 'guarded', config: ctx.config, db: ctx.db, pool: ctx.pool, redis: ctx.redis });
    app.get('/api/x', { config: perm(DEMO_MENU, 'READ') }, async () => ok());
    await app.ready();
    try {
      expect(() => assertAllRoutesGuarded(app)).not.toThrow();
    } finally {
      await app.close();
    }
  });

  it('signAccessToken produces a 120-minute HS256 access token', async () => {
    const user = await ctx.userFor(DEMO_ROLE);
    const signed = signAccessToken(ctx.app, user);
    const [header, payload] = signed.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: String(user.userId), uid: user.userId, typ: 'access', roleCodes: [DEMO_ROLE], agentId: null });
    expect(payload.exp - payload.iat).toBe(7200);
  });
});
