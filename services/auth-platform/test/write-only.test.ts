import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWriteOnlyRoundTrip, scanMaskedColumns } from '@csp/service-kit/testing';
import { bearer, setup, type Ctx } from './helpers.js';

// Issue 22: users' phone and e-mail (masked in lists) follow the kit's write-only rule.
let ctx: Ctx;
let headers: Record<string, string>;
let serial = 0;

beforeAll(async () => {
  ctx = await setup();
  headers = bearer(ctx.adminToken);
});
afterAll(async () => {
  await ctx?.close();
});

const FULL = { email: 'lee@example.com', phone: '010-3333-4444' };

async function createViaApi(extra: object = {}): Promise<number> {
  serial += 1;
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/users',
    headers,
    payload: { loginId: `write.only${serial}`, password: 'Start1234', userName: 'Lee', ...FULL, ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as number;
}

const put = (id: number, payload: object) => ctx.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers, payload });
const stored = (id: number) => ctx.db.selectFrom('users').select(['email', 'phone', 'user_name']).where('user_id', '=', id).executeTakeFirstOrThrow();

describe('user phone and e-mail are write-only', () => {
  it('the generated round trip covers every write-only field with 0 failures', async () => {
    const report = await runWriteOnlyRoundTrip({ app: ctx.app, token: ctx.adminToken, cases: [{ resource: 'User', full: FULL, create: () => createViaApi() }] });
    console.log(`write-only round trip covered: ${report.covered.join(', ')}; read-only masked: ${report.readOnly.join(', ') || '-'}`);
    expect(report.failures).toEqual([]);
    expect(report.uncovered).toEqual([]);
    expect(report.covered).toEqual(['User.email', 'User.phone']);
  });

  it('the masked list values sent back keep the stored ones; null keeps; "" clears; another masked value is E411', async () => {
    const id = await createViaApi();
    const item = (await ctx.app.inject({ method: 'GET', url: '/api/users?loginId=write.only', headers })).json().data.list.find(
      (u: { userId: number }) => u.userId === id,
    );
    expect(item).toMatchObject({ email: 'l***@example.com', phone: '010-****-4444' });
    expect((await put(id, { userName: 'Lee 2', email: item.email, phone: item.phone })).statusCode).toBe(200);
    expect(await stored(id)).toEqual({ ...FULL, user_name: 'Lee 2' });
    expect((await put(id, { email: null, phone: null })).statusCode).toBe(200);
    expect(await stored(id)).toEqual({ ...FULL, user_name: 'Lee 2' });
    const bad = await put(id, { phone: '010-****-0000' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'E411', data: { errors: [{ field: 'phone', message: 'send the full value or leave it out' }] } });
    expect((await put(id, { email: '' })).statusCode).toBe(200);
    expect(await stored(id)).toEqual({ email: null, phone: FULL.phone, user_name: 'Lee 2' });
  });

  it('a create with a masked-looking phone is E411 on the phone', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/users',
      headers,
      payload: { loginId: 'masked.create', password: 'Start1234', userName: 'M', phone: '010-****-4444' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'E411', data: { errors: [{ field: 'phone', message: 'send the full value or leave it out' }] } });
  });

  it('after everything above, no masked column holds the mask character', async () => {
    const scan = await scanMaskedColumns(ctx.app);
    expect(scan.scanned).toEqual(['users.email', 'users.phone']);
    expect(scan.findings).toEqual([]);
  });
});
