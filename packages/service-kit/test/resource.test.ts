import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { bearer, createDemoContext, DEMO_MENU, DEMO_ROLE, eventually, grant } from './demo-app.js';
import type { TestContext } from '../src/testing.js';
import type { ServiceApp } from '../src/index.js';

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

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method, url, payload, headers: { ...bearer(token), ...headers } });

async function create(body: object): Promise<number> {
  const res = await call('POST', '/api/demo-items', body);
  expect(res.statusCode).toBe(200);
  return res.json().data.id;
}

describe('resource CRUD', () => {
  it('create returns the new id, detail returns the response shape', async () => {
    const id = await create({ itemCode: 'A-1', itemName: 'Alpha', amount: 1234.5, rate: 3.3, validFrom: '2024-01-15' });
    expect(id).toEqual(expect.any(Number));
    const res = await call('GET', `/api/demo-items/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      itemId: id,
      itemCode: 'A-1',
      itemName: 'Alpha',
      amount: '1234.50',
      rate: '3.3',
      status: 'ACTIVE',
      validFrom: '2024-01-15',
      version: 0,
    });
  });

  it('detail of a missing id is E404, a non-numeric id is E411', async () => {
    expect((await call('GET', '/api/demo-items/999999')).json().code).toBe('E404');
    const bad = await call('GET', '/api/demo-items/abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.errors[0].field).toBe('id');
  });

  it('update with the current version succeeds and increments it; a stale version is B002', async () => {
    const id = await create({ itemCode: 'U-1', itemName: 'Before', amount: '10' });
    const updated = await call('PUT', `/api/demo-items/${id}`, { itemCode: 'U-1', itemName: 'After', amount: '11', version: 0 });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ success: true, code: '0000' });
    expect(updated.json().data).toBeUndefined();
    const detail = (await call('GET', `/api/demo-items/${id}`)).json().data;
    expect(detail).toMatchObject({ itemName: 'After', amount: '11.00', version: 1 });

    const stale = await call('PUT', `/api/demo-items/${id}`, { itemCode: 'U-1', itemName: 'Lost', amount: '12', version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('B002');
    expect((await call('GET', `/api/demo-items/${id}`)).json().data.itemName).toBe('After');
  });

  it('update without version is accepted (spec 2.1); a stale If-Match is B002', async () => {
    const id = await create({ itemCode: 'U-2', itemName: 'x', amount: '1' });
    const res = await call('PUT', `/api/demo-items/${id}`, { itemCode: 'U-2', itemName: 'y', amount: '1' });
    expect(res.statusCode).toBe(200);
    const detail = await call('GET', `/api/demo-items/${id}`);
    expect(detail.json().data).toMatchObject({ itemName: 'y', version: 1 });
    expect(detail.headers.etag).toBe('"1"');
    const stale = await ctx.app.inject({
      method: 'PUT',
      url: `/api/demo-items/${id}`,
      headers: { ...bearer(token), 'if-match': '"0"' },
      payload: { itemCode: 'U-2', itemName: 'z', amount: '1' },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('B002');
    const current = await ctx.app.inject({
      method: 'PUT',
      url: `/api/demo-items/${id}`,
      headers: { ...bearer(token), 'if-match': '"1"' },
      payload: { itemCode: 'U-2', itemName: 'z', amount: '1' },
    });
    expect(current.statusCode).toBe(200);
  });

  it('soft delete hides the row from detail and list and keeps it in the table', async () => {
    const id = await create({ itemCode: 'D-1', itemName: 'Doomed', amount: '5' });
    const res = await call('DELETE', `/api/demo-items/${id}`);
    expect(res.statusCode).toBe(200);
    expect((await call('GET', `/api/demo-items/${id}`)).statusCode).toBe(404);
    const list = (await call('GET', '/api/demo-items?searchType=itemCode&searchKeyword=D-1')).json().data;
    expect(list.total).toBe(0);
    const raw = await ctx.db.selectFrom('demo_item' as never).selectAll().where('item_id' as never, '=', id as never).executeTakeFirst();
    expect(raw).toMatchObject({ is_deleted: true });
    expect((await call('DELETE', `/api/demo-items/${id}`)).statusCode).toBe(404);
  });

  it('writes are change-logged with before and after', async () => {
    const id = await create({ itemCode: 'L-1', itemName: 'Logged', amount: '1' });
    await call('PUT', `/api/demo-items/${id}`, { itemCode: 'L-1', itemName: 'Logged 2', amount: '2', version: 0 });
    await call('DELETE', `/api/demo-items/${id}`);
    const rows = await eventually(async () => {
      const found = await ctx.db
        .selectFrom('data_change_log')
        .selectAll()
        .where('table_name', '=', 'demo_item')
        .where('record_id', '=', String(id))
        .orderBy('change_id')
        .execute();
      return found.length === 3 ? found : undefined;
    });
    expect(rows.map((r) => r.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    expect(rows[0]!.before_data).toBeNull();
    expect(rows[0]!.after_data).toMatchObject({ item_name: 'Logged', amount: '1.00' });
    expect(rows[1]!.before_data).toMatchObject({ item_name: 'Logged', version: 0 });
    expect(rows[1]!.after_data).toMatchObject({ item_name: 'Logged 2', version: 1 });
    expect(rows[2]!.after_data).toMatchObject({ is_deleted: true });
    expect(rows.every((r) => r.menu_code === DEMO_MENU)).toBe(true);
  });
});

describe('resource list', () => {
  beforeAll(async () => {
    for (const [code, name, amount, status, from] of [
      ['Q-1', 'Queen', '100', 'ACTIVE', '2024-03-01'],
      ['Q-2', 'Quail', '200', 'INACTIVE', '2024-03-15'],
      ['Q-3', 'Quartz', '300', 'ACTIVE', '2024-04-01'],
      ['Q-4', 'Quiet', '400.25', 'ACTIVE', '2024-04-30'],
    ] as const) {
      await create({ itemCode: code, itemName: name, amount, status, validFrom: from });
    }
  });

  const list = async (qs: string) => {
    const res = await call('GET', `/api/demo-items?${qs}`);
    expect(res.statusCode).toBe(200);
    return res.json().data as { list: Array<{ itemCode: string }>; total: number; pages: number; pageNum: number; pageSize: number };
  };

  it('pages and sorts with total and pages', async () => {
    const page = await list('searchType=itemCode&searchKeyword=Q-&pageSize=3&pageNum=2&sortField=amount&sortOrder=DESC');
    expect(page).toMatchObject({ total: 4, pages: 2, pageNum: 2, pageSize: 3 });
    expect(page.list.map((i) => i.itemCode)).toEqual(['Q-1']);
  });

  it('a page past the end is empty but still reports the total', async () => {
    const page = await list('searchKeyword=Q-&pageNum=9&pageSize=3');
    expect(page).toMatchObject({ list: [], total: 4, pages: 2 });
  });

  it('searches all searchable columns without searchType, escaping LIKE wildcards', async () => {
    expect((await list('searchKeyword=quartz')).list.map((i) => i.itemCode)).toEqual(['Q-3']);
    expect((await list('searchKeyword=%25')).total).toBe(0);
  });

  it('an unknown searchType is E411', async () => {
    const res = await call('GET', '/api/demo-items?searchType=secret&searchKeyword=x');
    expect(res.statusCode).toBe(400);
    expect(res.json().data.errors[0].field).toBe('searchType');
  });

  it('filters by status, date range (inclusive) and resource filters', async () => {
    expect((await list('searchKeyword=Q-&status=INACTIVE')).list.map((i) => i.itemCode)).toEqual(['Q-2']);
    expect((await list('searchKeyword=Q-&startDate=2024-03-15&endDate=2024-04-01')).list.map((i) => i.itemCode)).toEqual(['Q-2', 'Q-3']);
    expect((await list('searchKeyword=Q-&minAmount=300&sortField=amount')).list.map((i) => i.itemCode)).toEqual(['Q-3', 'Q-4']);
  });

  it('exports the filtered list as xlsx', async () => {
    const res = await call('GET', '/api/demo-items/excel?searchKeyword=Q-&sortField=itemCode&sortOrder=DESC');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    // Headers in Korean by default: the vocabulary's label where the key has one, else the declared label or the key.
    expect(sheet.getRow(1).values).toEqual([undefined, 'itemId', 'itemCode', 'itemName', '금액', 'rate', '상태', 'validFrom', '버전']);
    expect(sheet.rowCount).toBe(5);
    expect(sheet.getRow(2).getCell(2).value).toBe('Q-4');
    // Money is a number cell Excel can sum (kit v2 derives it from the field kind).
    expect(sheet.getRow(2).getCell(4).value).toBe(400.25);
  });

  it('export requires its own permission', async () => {
    await grant(ctx.db, 'READER', DEMO_MENU, ['READ']);
    const reader = await ctx.tokenFor('READER');
    expect((await call('GET', '/api/demo-items', undefined, bearer(reader))).statusCode).toBe(200);
    expect((await call('GET', '/api/demo-items/excel', undefined, bearer(reader))).statusCode).toBe(403);
  });
});

describe('resource with a join and hard delete', () => {
  it('lists joined columns, sorts by the joined column and deletes for real', async () => {
    const itemId = await create({ itemCode: 'T-1', itemName: 'Tagged', amount: '1' });
    const a = (await call('POST', '/api/demo-tags', { tagName: 'zeta', itemId })).json().data.id;
    const b = (await call('POST', '/api/demo-tags', { tagName: 'alpha', itemId: null })).json().data.id;

    const list = (await call('GET', '/api/demo-tags')).json().data;
    expect(list.list).toEqual([
      { tagId: b, tagName: 'alpha', itemId: null, itemCode: null },
      { tagId: a, tagName: 'zeta', itemId, itemCode: 'T-1' },
    ]);
    expect((await call('GET', '/api/demo-tags?searchType=itemCode&searchKeyword=t-1')).json().data.list.map((t: { tagId: number }) => t.tagId)).toEqual([a]);
    expect((await call('GET', `/api/demo-tags/${a}`)).json().data.itemCode).toBe('T-1');

    expect((await call('PUT', `/api/demo-tags/${b}`, { tagName: 'beta', itemId })).statusCode).toBe(200);
    expect((await call('GET', `/api/demo-tags/${b}`)).json().data).toEqual({ tagId: b, tagName: 'beta', itemId, itemCode: 'T-1' });

    expect((await call('DELETE', `/api/demo-tags/${b}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/demo-tags/${b}`)).statusCode).toBe(404);
    const raw = await ctx.pool.query('select count(*)::int as n from demo_tag where tag_id = $1', [b]);
    expect(raw.rows[0].n).toBe(0);
    expect((await call('GET', '/api/demo-tags/excel')).statusCode).toBe(400); // no export route: 'excel' is not an id
  });

  it('a foreign-key violation is E400', async () => {
    const res = await call('POST', '/api/demo-tags', { tagName: 'orphan', itemId: 999999 });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('E400');
  });
});
