import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, flushLogs, setup, type Ctx } from './helpers.js';

let ctx: Ctx;
let headers: Record<string, string>;

beforeAll(async () => {
  ctx = await setup();
  headers = bearer(ctx.adminToken);
});
afterAll(async () => {
  await ctx?.close();
});

async function notify(userId: number, title: string) {
  const row = await ctx.db
    .insertInto('notification')
    .values({ user_id: userId, noti_type: 'APPROVAL', title, content: `${title} body`, link_url: '/system/approvals' })
    .returning('noti_id')
    .executeTakeFirstOrThrow();
  return row.noti_id;
}

describe('notifications', () => {
  it('counts unread notifications of the caller only, and read / read-all change the count', async () => {
    const me = await ctx.userFor('MANAGER');
    const other = await ctx.userFor('AGENT');
    const token = await ctx.tokenFor('MANAGER');
    const first = await notify(me.userId, 'first');
    await notify(me.userId, 'second');
    await notify(me.userId, 'third');
    const foreign = await notify(other.userId, 'not yours');

    const count = async () => (await ctx.app.inject({ method: 'GET', url: '/api/notifications/unread-count', headers: bearer(token) })).json();
    expect(await count()).toMatchObject({ success: true, data: 3 });

    expect((await ctx.app.inject({ method: 'PUT', url: `/api/notifications/${first}/read`, headers: bearer(token) })).statusCode).toBe(200);
    expect((await count()).data).toBe(2);

    const others = await ctx.app.inject({ method: 'PUT', url: `/api/notifications/${foreign}/read`, headers: bearer(token) });
    expect(others.statusCode).toBe(404);
    const foreignRow = await ctx.db.selectFrom('notification').select('is_read').where('noti_id', '=', foreign).executeTakeFirstOrThrow();
    expect(foreignRow.is_read).toBe(false);

    const list = (await ctx.app.inject({ method: 'GET', url: '/api/notifications', headers: bearer(token) })).json().data;
    expect(list.total).toBe(3);
    expect(list.list.map((n: any) => n.title)).toEqual(['third', 'second', 'first']);
    expect(list.list[2]).toMatchObject({ notiId: first, isRead: true, notiType: 'APPROVAL', linkUrl: '/system/approvals' });
    expect(list.list[2].readAt).toEqual(expect.any(String));

    const unreadOnly = (await ctx.app.inject({ method: 'GET', url: '/api/notifications?isRead=false', headers: bearer(token) })).json().data;
    expect(unreadOnly.total).toBe(2);

    expect((await ctx.app.inject({ method: 'PUT', url: '/api/notifications/read-all', headers: bearer(token) })).statusCode).toBe(200);
    expect((await count()).data).toBe(0);
    const otherCount = await ctx.app.inject({ method: 'GET', url: '/api/notifications/unread-count', headers: bearer(await ctx.tokenFor('AGENT')) });
    expect(otherCount.json().data).toBe(1);
  });
});

describe('notices', () => {
  it('CRUD with view count on detail, pinned first in lists, change-logged', async () => {
    const create = (payload: object) => ctx.app.inject({ method: 'POST', url: '/api/notices', headers, payload });
    const a = (await create({ title: 'Closing schedule', content: 'Close on the 25th' })).json().data.id as number;
    const b = (await create({ title: 'Pinned rule', content: 'Read me', isPinned: true, postFrom: '2025-01-01', postTo: '2025-12-31' })).json().data.id as number;

    const list = (await ctx.app.inject({ method: 'GET', url: '/api/notices', headers })).json().data;
    expect(list.list.map((n: any) => n.noticeId)).toEqual([b, a]);

    const detail1 = (await ctx.app.inject({ method: 'GET', url: `/api/notices/${a}`, headers })).json().data;
    const detail2 = (await ctx.app.inject({ method: 'GET', url: `/api/notices/${a}`, headers })).json().data;
    expect(detail1).toMatchObject({ noticeId: a, title: 'Closing schedule', viewCount: 1, isPinned: false, isActive: true, postFrom: null });
    expect(detail2.viewCount).toBe(2);

    const upd = await ctx.app.inject({ method: 'PUT', url: `/api/notices/${a}`, headers, payload: { title: 'Closing schedule v2', content: 'Close on the 26th' } });
    expect(upd.statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/notices?title=v2`, headers })).json().data.list.map((n: any) => n.noticeId)).toEqual([a]);
    const posted = (await ctx.app.inject({ method: 'GET', url: '/api/notices?postedOn=2026-02-01', headers })).json().data;
    expect(posted.list.map((n: any) => n.noticeId)).toEqual([a]);

    const bad = await create({ title: 'Bad window', content: 'x', postFrom: '2025-02-01', postTo: '2025-01-01' });
    expect(bad.json().code).toBe('E411');

    expect((await ctx.app.inject({ method: 'DELETE', url: `/api/notices/${a}`, headers })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/notices/${a}`, headers })).statusCode).toBe(404);

    await flushLogs(ctx);
    const actions = await ctx.db
      .selectFrom('data_change_log')
      .select('action')
      .where('table_name', '=', 'notice')
      .where('record_id', '=', String(a))
      .orderBy('change_id')
      .execute();
    expect(actions.map((r) => r.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
  });

  it('MANAGER has no NOTICE grant (system group)', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/notices', headers: bearer(await ctx.tokenFor('MANAGER')) });
    expect(res.statusCode).toBe(403);
  });
});
