import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeCacheKey } from '../src/codes/cache.js';
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

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token?: string) {
  return ctx.app.inject({ method, url, headers: token ? bearer(token) : headers, ...(payload ? { payload } : {}) });
}

async function createGroup(groupCode: string, codes: string[] = []) {
  expect((await call('POST', '/api/common/codes/groups', { groupCode, groupName: `${groupCode} name` })).statusCode).toBe(200);
  for (const [i, code] of codes.entries()) {
    const res = await call('POST', `/api/common/codes/groups/${groupCode}/codes`, { code, codeName: `${code} name`, sortOrder: i + 1 });
    expect(res.statusCode).toBe(200);
  }
}

describe('common codes', () => {
  it('GET /api/common/codes/{groupCode} lists the active codes in order, for any logged-in user', async () => {
    const res = await call('GET', '/api/common/codes/AGENT_STATUS', undefined, await ctx.tokenFor('AGENT'));
    expect(res.statusCode).toBe(200);
    const codes = res.json().data;
    expect(codes.map((c: any) => c.code)).toEqual(['ACTIVE', 'LEAVE', 'SUSPEND']);
    expect(codes[0]).toEqual({
      code: 'ACTIVE',
      codeName: '재직',
      codeNameEn: 'Active',
      codeDesc: null,
      attr1: null,
      attr2: null,
      attr3: null,
      refCode: null,
      sortOrder: 1,
      tone: 'good',
    });
  });

  it('seeds every code with a Korean name, its English name and a tone (V110)', async () => {
    const settle = (await call('GET', '/api/common/codes/SETTLE_STATUS')).json().data;
    expect(settle.map((c: any) => [c.code, c.codeName, c.codeNameEn, c.tone])).toEqual([
      ['CALCULATED', '계산 완료', 'Calculated', 'busy'],
      ['CONFIRMED', '확정', 'Confirmed', 'good'],
      ['HOLD', '보류', 'On hold', 'warn'],
      ['PAID', '지급 완료', 'Paid', 'good'],
    ]);
    const untranslated = await ctx.db
      .selectFrom('common_code')
      .select(['group_code', 'code', 'code_name', 'code_name_en'])
      .where((eb) => eb.or([eb('code_name', '=', eb.ref('code_name_en')), eb('code_name_en', 'is', null)]))
      .where('code_name', '!~', '[가-힣]')
      .where('created_by', 'is', null) // the seeds, not codes other tests write
      .execute();
    // Only names that read the same in both languages (acronyms) stay Latin.
    expect(untranslated.map((r) => r.code_name).sort()).toEqual(['API', 'CSV', 'EDI', 'FTP', 'JSON', 'JSON', 'PDF', 'SSO', 'XML']);
    // A code written with a tone keeps it; without one it is plain.
    await createGroup('TONED', ['A']);
    expect((await call('PUT', '/api/common/codes/groups/TONED/codes/A', { tone: 'bad' })).statusCode).toBe(200);
    expect((await call('GET', '/api/common/codes/TONED')).json().data.map((c: any) => c.tone)).toEqual(['bad']);
    expect((await call('PUT', '/api/common/codes/groups/TONED/codes/A', { tone: 'loud' })).json().code).toBe('E411');
  });

  it('an unknown group is E404', async () => {
    const res = await call('GET', '/api/common/codes/NO_SUCH_GROUP');
    expect(res.statusCode).toBe(404);
  });

  it('updating or deleting a system group or one of its codes is B008', async () => {
    const attempts = [
      await call('PUT', '/api/common/codes/groups/AGENT_STATUS', { groupName: 'Renamed' }),
      await call('DELETE', '/api/common/codes/groups/AGENT_STATUS'),
      await call('PUT', '/api/common/codes/groups/AGENT_STATUS/codes/ACTIVE', { codeName: 'Renamed' }),
      await call('DELETE', '/api/common/codes/groups/AGENT_STATUS/codes/ACTIVE'),
    ];
    for (const res of attempts) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'B008' });
    }
    const group = await ctx.db.selectFrom('common_code_group').selectAll().where('group_code', '=', 'AGENT_STATUS').executeTakeFirstOrThrow();
    expect(group.group_name).not.toBe('Renamed');
  });

  it('a duplicate group or (group, code) is B009', async () => {
    await createGroup('DUP_GROUP', ['A']);
    const dupGroup = await call('POST', '/api/common/codes/groups', { groupCode: 'DUP_GROUP', groupName: 'again' });
    expect(dupGroup.statusCode).toBe(409);
    expect(dupGroup.json().code).toBe('B009');
    const dupCode = await call('POST', '/api/common/codes/groups/DUP_GROUP/codes', { code: 'A', codeName: 'again' });
    expect(dupCode.statusCode).toBe(409);
    expect(dupCode.json().code).toBe('B009');
    const dupSystem = await call('POST', '/api/common/codes/groups/AGENT_STATUS/codes', { code: 'ACTIVE', codeName: 'again' });
    expect(dupSystem.json().code).toBe('B009');
  });

  it('a user group and its codes can be updated and deleted, and the list follows at once', async () => {
    await createGroup('PET', ['CAT', 'DOG']);
    expect((await call('GET', '/api/common/codes/PET')).json().data.map((c: any) => c.code)).toEqual(['CAT', 'DOG']);

    expect((await call('PUT', '/api/common/codes/groups/PET/codes/DOG', { codeName: 'Doggo', sortOrder: 0 })).statusCode).toBe(200);
    expect((await call('GET', '/api/common/codes/PET')).json().data.map((c: any) => [c.code, c.codeName])).toEqual([
      ['DOG', 'Doggo'],
      ['CAT', 'CAT name'],
    ]);

    expect((await call('PUT', '/api/common/codes/groups/PET/codes/CAT', { isActive: false })).statusCode).toBe(200);
    expect((await call('GET', '/api/common/codes/PET')).json().data.map((c: any) => c.code)).toEqual(['DOG']);

    expect((await call('DELETE', '/api/common/codes/groups/PET/codes/DOG')).statusCode).toBe(200);
    expect((await call('GET', '/api/common/codes/PET')).json().data).toEqual([]);

    const detail = (await call('GET', '/api/common/codes/groups/PET')).json().data;
    expect(detail).toMatchObject({ groupCode: 'PET', isSystem: 'N', codeCount: 1, codes: [{ code: 'CAT', isActive: false }] });

    expect((await call('PUT', '/api/common/codes/groups/PET', { groupName: 'Pets', isActive: false })).statusCode).toBe(200);
    expect((await call('GET', '/api/common/codes/PET')).json().data).toEqual([]);
    expect((await call('DELETE', '/api/common/codes/groups/PET')).statusCode).toBe(200);
    expect((await call('GET', '/api/common/codes/PET')).statusCode).toBe(404);

    await flushLogs(ctx);
    const logs = await ctx.db.selectFrom('data_change_log').select(['table_name', 'action', 'menu_code']).where('menu_code', '=', 'SYSTEM_CODE').execute();
    expect(logs.filter((l) => l.table_name === 'common_code_group').map((l) => l.action)).toEqual(
      expect.arrayContaining(['CREATE', 'UPDATE', 'DELETE']),
    );
  });

  it('serves the list from the shared Redis cache until POST /api/codes/refresh clears it', async () => {
    await createGroup('CACHED', ['ONE']);
    expect((await call('GET', '/api/common/codes/CACHED')).json().data.map((c: any) => c.code)).toEqual(['ONE']);
    const key = codeCacheKey(ctx.config.DATABASE_URL);
    expect(await ctx.redis.hexists(key, 'CACHED')).toBe(1);

    // A change made behind the service's back (another tool, a migration) is not seen until a refresh.
    await ctx.db.insertInto('common_code').values({ group_code: 'CACHED', code: 'TWO', code_name: 'two', sort_order: 2 }).execute();
    expect((await call('GET', '/api/common/codes/CACHED')).json().data.map((c: any) => c.code)).toEqual(['ONE']);

    expect((await call('POST', '/api/codes/refresh', undefined, await ctx.tokenFor('AGENT'))).statusCode).toBe(403);
    const refresh = await call('POST', '/api/codes/refresh');
    expect(refresh.statusCode).toBe(200);
    expect(await ctx.redis.exists(key)).toBe(0);
    expect((await call('GET', '/api/common/codes/CACHED')).json().data.map((c: any) => c.code)).toEqual(['ONE', 'TWO']);
  });

  it('validate: an existing active code passes, anything else is E411', async () => {
    const ok = await call('GET', '/api/common/codes/AGENT_STATUS/ACTIVE/validate');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.code).toBe('ACTIVE');
    for (const url of ['/api/common/codes/AGENT_STATUS/NOPE/validate', '/api/common/codes/NO_GROUP/X/validate']) {
      const res = await call('GET', url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code, url).toBe('E411');
    }
  });

  it('lists groups with paging and filters', async () => {
    const res = await call('GET', '/api/common/codes/groups?isSystem=Y&pageSize=5&sortField=groupCode&sortOrder=ASC');
    expect(res.statusCode).toBe(200);
    const page = res.json().data;
    expect(page.list).toHaveLength(5);
    expect(page.pageSize).toBe(5);
    expect(page.total).toBeGreaterThan(20);
    const codes = page.list.map((g: any) => g.groupCode);
    expect(codes).toEqual([...codes].sort());
    expect(page.list.every((g: any) => g.isSystem === 'Y')).toBe(true);
  });

  it('code writes need SYSTEM_CODE grants', async () => {
    const res = await call('POST', '/api/common/codes/groups', { groupCode: 'MGR', groupName: 'x' }, await ctx.tokenFor('MANAGER'));
    expect(res.statusCode).toBe(403);
  });
});
