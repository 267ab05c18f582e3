import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, bearer, flushLogs, login, setup, type Ctx } from './helpers.js';

let ctx: Ctx;
let headers: Record<string, string>;

beforeAll(async () => {
  ctx = await setup();
  headers = bearer(ctx.adminToken);
});
afterAll(async () => {
  await ctx?.close();
});

function get(url: string, token = ctx.adminToken) {
  return ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
}

describe('system logs', () => {
  it('login log: filters by login id, result and date range, newest first', async () => {
    await login(ctx, 'admin', ADMIN_PASSWORD);
    await login(ctx, 'admin', 'wrong-password-1');
    await login(ctx, 'ghost', 'whatever1');

    const all = (await get('/api/system/logs/login?loginId=admin')).json().data;
    expect(all.total).toBe(2);
    expect(all.list.map((l: any) => l.result)).toEqual(['FAIL', 'SUCCESS']);
    expect(all.list[0]).toMatchObject({ loginId: 'admin', loginType: 'PWD', failReason: 'BAD_PASSWORD (1)', ipAddress: '127.0.0.1' });

    const failures = (await get('/api/system/logs/login?result=FAIL&sortField=loginId&sortOrder=ASC')).json().data;
    expect(failures.list.map((l: any) => l.loginId)).toEqual(['admin', 'ghost']);

    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect((await get(`/api/system/logs/login?startDate=${day}&endDate=${day}`)).json().data.total).toBe(3);
    expect((await get('/api/system/logs/login?endDate=2000-01-01')).json().data.total).toBe(0);
    expect((await get('/api/system/logs/login?startDate=2025-13-01')).json().code).toBe('E411');
  });

  it('api access log: the kit records calls; filters by uri, method and response code', async () => {
    await get('/api/users/999999');
    await get('/api/menus/my');
    await ctx.app.accessLog.flush();
    const notFound = (await get('/api/system/logs/api?uri=/api/users/999999')).json().data;
    expect(notFound.total).toBe(1);
    expect(notFound.list[0]).toMatchObject({ httpMethod: 'GET', responseCode: 404, serviceName: 'auth-platform' });
    const byStatus = (await get('/api/system/logs/api?responseCode=404&method=get')).json().data;
    expect(byStatus.list.every((l: any) => l.responseCode === 404)).toBe(true);
    expect((await get('/api/system/logs/api?status=404')).json().data.total).toBe(byStatus.total);
  });

  it('change log: filters by table, record and action', async () => {
    const created = await ctx.app.inject({ method: 'POST', url: '/api/notices', headers, payload: { title: 't', content: 'c' } });
    const id = created.json().data.id as number;
    await ctx.app.inject({ method: 'DELETE', url: `/api/notices/${id}`, headers });
    await flushLogs(ctx);
    const page = (await get(`/api/system/logs/changes?tableName=notice&recordId=${id}`)).json().data;
    expect(page.list.map((l: any) => l.action)).toEqual(['DELETE', 'CREATE']);
    expect(page.list[1]).toMatchObject({ menuCode: 'NOTICE', tableName: 'notice', recordId: String(id) });
    expect(page.list[1].afterData).toMatchObject({ title: 't', content: 'c' });
    const deletes = (await get('/api/system/logs/changes?action=DELETE&tableName=notice')).json().data;
    expect(deletes.total).toBe(1);
  });

  it('exports each log as xlsx with EXPORT; READ alone is not enough', async () => {
    for (const kind of ['login', 'api', 'changes']) {
      const res = await get(`/api/system/logs/${kind}/excel?sortField=${kind === 'login' ? 'loginAt' : 'createdAt'}`);
      expect(res.statusCode, kind).toBe(200);
      expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    }
    const readOnly = await ctx.db.selectFrom('role').select('role_id').where('role_code', '=', 'ADMIN').executeTakeFirstOrThrow();
    const menu = await ctx.db.selectFrom('menu').select('menu_id').where('menu_code', '=', 'SYSTEM_LOG').executeTakeFirstOrThrow();
    await ctx.db.insertInto('role_menu_permission').values({ role_id: readOnly.role_id, menu_id: menu.menu_id, perm_code: 'READ' }).execute();
    const adminToken = await ctx.tokenFor('ADMIN');
    expect((await get('/api/system/logs/login', adminToken)).statusCode).toBe(200);
    expect((await get('/api/system/logs/login/excel', adminToken)).statusCode).toBe(403);
  });
});

describe('external call logs', () => {
  it('lists with filters and shows one call; AGENT has no access', async () => {
    const rows = await ctx.db
      .insertInto('external_call_log')
      .values([
        { call_type: 'BANK', adapter_name: 'MockBank', method_name: 'transfer', success: true, duration_ms: 12, target_ref: 'WITHDRAW#1', request_summary: '{"account":"****1234"}', response_summary: '{"ok":true}' },
        { call_type: 'BANK', adapter_name: 'MockBank', method_name: 'transfer', success: false, duration_ms: 30, target_ref: 'WITHDRAW#2', error_message: 'timeout' },
        { call_type: 'MESSAGE', adapter_name: 'MockMessage', method_name: 'send', success: true, duration_ms: 5, target_ref: 'APPROVAL#9' },
      ])
      .returning('call_id')
      .execute();
    const list = (await get('/api/external-call-logs?callType=BANK')).json().data;
    expect(list.total).toBe(2);
    expect(list.list.map((c: any) => c.targetRef)).toEqual(['WITHDRAW#2', 'WITHDRAW#1']);
    expect((await get('/api/external-call-logs?success=false')).json().data.list.map((c: any) => c.errorMessage)).toEqual(['timeout']);
    expect((await get('/api/external-call-logs?targetRef=APPROVAL')).json().data.total).toBe(1);

    const one = (await get(`/api/external-call-logs/${rows[0]!.call_id}`)).json().data;
    expect(one).toMatchObject({ callType: 'BANK', adapterName: 'MockBank', methodName: 'transfer', success: true, durationMs: 12, requestSummary: '{"account":"****1234"}' });
    expect((await get('/api/external-call-logs/999999')).statusCode).toBe(404);
    expect((await get('/api/external-call-logs', await ctx.tokenFor('AGENT'))).statusCode).toBe(403);
  });
});
