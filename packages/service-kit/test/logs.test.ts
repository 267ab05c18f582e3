import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createDemoContext, DEMO_MENU, DEMO_ROLE, eventually, grant } from './demo-app.js';
import type { TestContext } from '../src/testing.js';
import { maskedQueryParams, type ServiceApp } from '../src/index.js';

let ctx: TestContext<ServiceApp>;
let token: string;

beforeAll(async () => {
  ctx = await createDemoContext();
  await grant(ctx.db, DEMO_ROLE, DEMO_MENU, ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT']);
  token = await ctx.tokenFor(DEMO_ROLE);
});
afterAll(async () => {
  await ctx?.close();
});

describe('api_access_log', () => {
  it('every call writes a row asynchronously, with sensitive parameters masked', async () => {
    const user = await ctx.userFor(DEMO_ROLE);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/demo/search?searchKeyword=kim&residentNo=9001011234567&accountNo=110-123-456789&phone=010-1234-5678&accessToken=abc&password=pw',
      headers: { ...bearer(token), 'x-request-id': 'req-access-1' },
    });
    expect(res.statusCode).toBe(200);
    const row = await eventually(() =>
      ctx.db.selectFrom('api_access_log').selectAll().where('request_id', '=', 'req-access-1').executeTakeFirst(),
    );
    expect(row).toMatchObject({
      user_id: user.userId,
      service_name: 'demo-service',
      request_uri: '/api/demo/search',
      http_method: 'GET',
      response_code: 200,
    });
    expect(row.response_time_ms).toBeGreaterThanOrEqual(0);
    expect(row.ip_address).toBe('127.0.0.1');
    const params = JSON.parse(row.params!);
    expect(params.searchKeyword).toBe('kim');
    expect(params.accessToken).toBe('****');
    expect(params.password).toBe('****');
    expect(params.residentNo).not.toContain('1234567');
    expect(params.residentNo.startsWith('900101')).toBe(true);
    expect(params.accountNo).not.toBe('110-123-456789');
    expect(params.phone).not.toBe('010-1234-5678');
    expect(row.params).not.toContain('9001011234567');
  });

  it('refused calls are logged with their status and no user', async () => {
    await ctx.app.inject({ method: 'GET', url: '/api/demo-items', headers: { 'x-request-id': 'req-access-401' } });
    const row = await eventually(() =>
      ctx.db.selectFrom('api_access_log').selectAll().where('request_id', '=', 'req-access-401').executeTakeFirst(),
    );
    expect(row).toMatchObject({ user_id: null, response_code: 401, params: null });
  });

  it('health and docs calls are not logged', async () => {
    await ctx.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'req-health-1' } });
    await ctx.app.inject({ method: 'GET', url: '/v3/api-docs', headers: { 'x-request-id': 'req-docs-1' } });
    await ctx.app.accessLog.flush();
    const rows = await ctx.db
      .selectFrom('api_access_log')
      .select('request_id')
      .where('request_id', 'in', ['req-health-1', 'req-docs-1'])
      .execute();
    expect(rows).toEqual([]);
  });

  it('maskedQueryParams keeps repeated keys and masks secrets', () => {
    expect(maskedQueryParams('/x')).toBeNull();
    expect(JSON.parse(maskedQueryParams('/x?a=1&a=2&refreshToken=zzz')!)).toEqual({ a: ['1', '2'], refreshToken: '****' });
  });
});

describe('data_change_log', () => {
  it('request.changeLog writes a row with user, request id, before and after', async () => {
    const user = await ctx.userFor(DEMO_ROLE);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/demo/change',
      headers: { ...bearer(token), 'x-request-id': 'req-change-1' },
    });
    expect(res.statusCode).toBe(200);
    const row = await eventually(() =>
      ctx.db.selectFrom('data_change_log').selectAll().where('request_id', '=', 'req-change-1').executeTakeFirst(),
    );
    expect(row).toMatchObject({
      user_id: user.userId,
      menu_code: DEMO_MENU,
      table_name: 'demo_item',
      record_id: '42',
      action: 'UPDATE',
      before_data: { a: 1 },
      after_data: { a: 2 },
    });
  });
});
