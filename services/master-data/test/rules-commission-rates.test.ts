import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, readSheet, startContext, type Api, type Ctx } from './helpers.js';
import { changeLogRows, insertCompany, insertProduct, closeContext } from './rules-fixtures.js';

let ctx: Ctx;
let a: Api;
let productId: number;
let otherProductId: number;

const BASE = '/api/rules/commission-rates';

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  const companyId = await insertCompany(ctx, 'CR1');
  productId = await insertProduct(ctx, companyId);
  otherProductId = await insertProduct(ctx, await insertCompany(ctx, 'CR2'));
});
afterAll(async () => {
  await closeContext(ctx);
});

async function createRate(body: Record<string, unknown>): Promise<number> {
  const res = await a.post(BASE, { productId, commissionYear: 1, ratePct: '30', effectiveFrom: '2024-01-01', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id;
}

describe('commission rates', () => {
  it('create returns the id and detail returns the exact response shape', async () => {
    const id = await createRate({ ratePct: 12.5, payMethodCond: 'MONTHLY', minPremium: 100000, effectiveFrom: '2023-01-01', effectiveTo: '2023-07-01' });
    const res = await a.get(`${BASE}/${id}`);
    expect(res.status).toBe(200);
    const { createdAt, updatedAt, ...data } = res.body.data;
    expect(data).toEqual({
      rateId: id,
      productId,
      productCode: expect.stringMatching(/^P-\d+$/),
      productName: expect.stringMatching(/^Product \d+$/),
      companyCode: 'CR1',
      commissionYear: 1,
      ratePct: '12.5',
      payMethodCond: 'MONTHLY',
      minPremium: '100000.00',
      effectiveFrom: '2023-01-01',
      effectiveTo: '2023-07-01',
      version: 1,
    });
    expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(res.body).toMatchObject({ success: true, code: '0000' });
  });

  it('list filters by product, year, company and the date the row is valid on (half-open)', async () => {
    const y2 = await createRate({ productId: otherProductId, commissionYear: 2, ratePct: '5', effectiveFrom: '2024-01-01', effectiveTo: '2025-01-01' });
    const byProduct = await a.get(`${BASE}?productId=${otherProductId}`);
    expect(byProduct.body.data).toMatchObject({ total: 1, pageNum: 1, pageSize: 20, pages: 1 });
    expect(byProduct.body.data.list.map((r: any) => r.rateId)).toEqual([y2]);
    expect((await a.get(`${BASE}?companyCode=CR2&commissionYear=2`)).body.data.list.map((r: any) => r.rateId)).toEqual([y2]);
    expect((await a.get(`${BASE}?companyCode=CR2&commissionYear=1`)).body.data.total).toBe(0);
    // effective_to is exclusive: valid on 2024-12-31, not on 2025-01-01
    expect((await a.get(`${BASE}?productId=${otherProductId}&effectiveDate=2024-12-31`)).body.data.total).toBe(1);
    expect((await a.get(`${BASE}?productId=${otherProductId}&effectiveDate=2025-01-01`)).body.data.total).toBe(0);
    expect((await a.get(`${BASE}?productId=${otherProductId}&effectiveDate=2023-12-31`)).body.data.total).toBe(0);
  });

  it('rejects bad bodies with E411 and field errors', async () => {
    const negative = await a.post(BASE, { productId, commissionYear: 1, ratePct: '-1', effectiveFrom: '2024-01-01' });
    expect(negative.status).toBe(400);
    expect(negative.body.code).toBe('E411');
    expect(negative.body.data.errors).toEqual([{ field: 'ratePct', message: 'must not be negative' }]);

    const badDate = await a.post(BASE, { productId, commissionYear: 1, ratePct: '1', effectiveFrom: '2024-02-30' });
    expect(badDate.body.code).toBe('E411');
    expect(badDate.body.data.errors.map((e: any) => e.field)).toEqual(['effectiveFrom']);

    const period = await a.post(BASE, { productId, commissionYear: 1, ratePct: '1', effectiveFrom: '2024-02-01', effectiveTo: '2024-02-01' });
    expect(period.body.code).toBe('E411');
    expect(period.body.data.errors).toEqual([{ field: 'effectiveTo', message: 'must be after effectiveFrom (effectiveTo is exclusive)' }]);

    const product = await a.post(BASE, { productId: 999999, commissionYear: 1, ratePct: '1', effectiveFrom: '2024-02-01' });
    expect(product.body.code).toBe('E411');
    expect(product.body.data.errors).toEqual([{ field: 'productId', message: 'product 999999 does not exist' }]);

    const places = await a.post(BASE, { productId, commissionYear: 1, ratePct: '1.23456', effectiveFrom: '2024-02-01' });
    expect(places.body.data.errors).toEqual([{ field: 'ratePct', message: 'must have at most 4 decimal places' }]);
  });

  it('update checks the version: the current one succeeds and increments, a stale one is B002', async () => {
    const id = await createRate({ commissionYear: 3, ratePct: '8' });
    const body = { productId, commissionYear: 3, ratePct: '9', effectiveFrom: '2024-01-01' };
    const updated = await a.put(`${BASE}/${id}`, { ...body, version: 1 });
    expect(updated.status).toBe(200);
    expect((await a.get(`${BASE}/${id}`)).body.data).toMatchObject({ ratePct: '9', version: 2 });

    const stale = await a.put(`${BASE}/${id}`, { ...body, ratePct: '10', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ success: false, code: 'B002' });
    expect((await a.get(`${BASE}/${id}`)).body.data.ratePct).toBe('9');

    // The version is optional (spec 2.1): an update without one is accepted.
    const missing = await a.put(`${BASE}/${id}`, body);
    expect(missing.body.code).toBe('0000');
  });

  it('revise closes the row and inserts the next version; lookup returns the old rate before and the new after', async () => {
    const id = await createRate({ commissionYear: 4, ratePct: '30', effectiveFrom: '2023-01-01' });
    const revised = await a.post(`${BASE}/${id}/revise`, { effectiveFrom: '2024-07-01', ratePct: '35', version: 1 });
    expect(revised.status, JSON.stringify(revised.body)).toBe(200);
    const newId = revised.body.data.id;
    expect(revised.body.data).toEqual({ id: newId, previousId: id, version: 2 });

    const old = (await a.get(`${BASE}/${id}`)).body.data;
    expect(old).toMatchObject({ ratePct: '30', effectiveFrom: '2023-01-01', effectiveTo: '2024-07-01', version: 2 });
    const next = (await a.get(`${BASE}/${newId}`)).body.data;
    expect(next).toMatchObject({ productId, commissionYear: 4, ratePct: '35', effectiveFrom: '2024-07-01', effectiveTo: null, version: 2 });

    const lookup = async (date: string) =>
      (await a.get(`${BASE}/lookup?productId=${productId}&commissionYear=4&date=${date}`)).body.data;
    expect((await lookup('2024-06-30')).rateId).toBe(id);
    expect((await lookup('2024-06-30')).ratePct).toBe('30');
    expect((await lookup('2024-07-01')).rateId).toBe(newId);
    expect((await lookup('2024-07-01')).ratePct).toBe('35');
    expect(await lookup('2022-12-31')).toBeNull();

    // the closed row changed: an update holding its old version is refused
    const staleUpdate = await a.put(`${BASE}/${id}`, { productId, commissionYear: 4, ratePct: '31', effectiveFrom: '2023-01-01', version: 1 });
    expect(staleUpdate.body.code).toBe('B002');
    const staleRevise = await a.post(`${BASE}/${id}/revise`, { effectiveFrom: '2024-03-01', ratePct: '33', version: 1 });
    expect(staleRevise.body.code).toBe('B002');

    const notLater = await a.post(`${BASE}/${newId}/revise`, { effectiveFrom: '2024-07-01', ratePct: '36' });
    expect(notLater.body.code).toBe('E411');
    expect(notLater.body.data.errors[0].field).toBe('effectiveFrom');
    expect((await a.post(`${BASE}/999999/revise`, { effectiveFrom: '2024-07-01', ratePct: '36' })).body.code).toBe('E404');

    const logs = (await changeLogRows(ctx, 'commission_rate')).filter((r) => [String(id), String(newId)].includes(r.record_id));
    expect(logs).toEqual([
      { action: 'CREATE', record_id: String(id), menu_code: 'RULE_COMMISSION' },
      { action: 'UPDATE', record_id: String(id), menu_code: 'RULE_COMMISSION' },
      { action: 'CREATE', record_id: String(newId), menu_code: 'RULE_COMMISSION' },
    ]);
  });

  it('lookup applies pay method and minimum premium conditions', async () => {
    await createRate({ commissionYear: 5, ratePct: '20', payMethodCond: 'ANNUAL', minPremium: '500000' });
    const get = async (q: string) => (await a.get(`${BASE}/lookup?productId=${productId}&commissionYear=5&date=2024-05-01${q}`)).body.data;
    expect((await get('')).ratePct).toBe('20');
    expect(await get('&payMethod=MONTHLY')).toBeNull();
    expect(await get('&premium=499999.99')).toBeNull();
    expect((await get('&payMethod=ANNUAL&premium=500000')).ratePct).toBe('20');
  });

  it('delete removes the row and is change-logged', async () => {
    const id = await createRate({ commissionYear: 6 });
    expect((await a.del(`${BASE}/${id}`)).status).toBe(200);
    expect((await a.get(`${BASE}/${id}`)).body.code).toBe('E404');
    const logs = (await changeLogRows(ctx, 'commission_rate')).filter((r) => r.record_id === String(id));
    expect(logs.map((r) => r.action)).toEqual(['CREATE', 'DELETE']);
  });

  it('AGENT cannot create (E403) and MANAGER can read but not delete', async () => {
    const agent = await ctx.tokenFor('AGENT');
    const res = await a.post(BASE, { productId, commissionYear: 1, ratePct: '1', effectiveFrom: '2024-01-01' }, agent);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('E403');
    const manager = await ctx.tokenFor('MANAGER');
    expect((await a.get(BASE, manager)).status).toBe(200);
    expect((await a.del(`${BASE}/1`, manager)).body.code).toBe('E403');
  });

  it('exports the filtered list as xlsx', async () => {
    const res = await a.get(`${BASE}/excel?productId=${otherProductId}&lang=en`);
    expect(res.status).toBe(200);
    const sheet = await readSheet(res.raw);
    expect(sheet.header.slice(0, 7)).toEqual(['Rate ID', 'Product ID', 'Product code', 'Product', 'Company', 'Commission year', 'Rate (%)']);
    expect(sheet.rows).toHaveLength(1);
    expect(sheet.rows[0]![6]).toBe(5);
  });
});
