import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, readSheet, startContext, type Api, type Ctx } from './helpers.js';
import { changeLogRows, closeContext } from './rules-fixtures.js';

let ctx: Ctx;
let a: Api;

const BASE = '/api/chargeback-grades';
const NO_BAND = 'no applicable chargeback band';

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
});
afterAll(async () => {
  await closeContext(ctx);
});

/** The domain golden vectors' contract: 2020-01-15, original commission 123457. */
const calculate = async (terminationDate: string, extra: Record<string, unknown> = {}) => {
  const res = await a.post(`${BASE}/calculate`, {
    contractDate: '2020-01-15',
    terminationDate,
    originalCommission: '123457',
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const d = res.body.data;
  return [d.monthsElapsed, d.monthsRange, d.appliedPercent, d.chargebackAmount, d.reason];
};

describe('chargeback grades', () => {
  it('lists the five seeded bands with monthsRange', async () => {
    const res = await a.get(BASE);
    expect(res.body.data.total).toBe(5);
    expect(res.body.data.list.map((g: any) => [g.monthsRange, g.monthsFrom, g.monthsTo, g.percent, g.productCategory])).toEqual([
      ['1-12', 1, 12, '100', null],
      ['13-24', 13, 24, '50', null],
      ['25-36', 25, 36, '25', null],
      ['37-84', 37, 84, '10', null],
      ['85+', 85, null, '0', null],
    ]);
    const { createdAt, updatedAt, ...first } = res.body.data.list[0];
    expect([createdAt, updatedAt]).toEqual([expect.any(String), expect.any(String)]);
    expect(first).toEqual({
      cbGradeId: 1,
      productCategory: null,
      productCategoryName: null,
      monthsFrom: 1,
      monthsTo: 12,
      monthsRange: '1-12',
      percent: '100',
      effectiveFrom: '2000-01-01',
      effectiveTo: null,
      isActive: true,
      description: '1~12개월',
    });
  });

  it('filters by months elapsed, category and effective date', async () => {
    expect((await a.get(`${BASE}?monthsElapsed=13`)).body.data.list.map((g: any) => g.monthsRange)).toEqual(['13-24']);
    expect((await a.get(`${BASE}?monthsElapsed=200`)).body.data.list.map((g: any) => g.monthsRange)).toEqual(['85+']);
    expect((await a.get(`${BASE}?monthsElapsed=0`)).body.data.total).toBe(0);
    expect((await a.get(`${BASE}?productCategory=ALL`)).body.data.total).toBe(5);
    expect((await a.get(`${BASE}?productCategory=LIFE`)).body.data.total).toBe(0);
    expect((await a.get(`${BASE}?effectiveDate=1999-12-31`)).body.data.total).toBe(0);
  });

  it('calculate follows the domain golden vectors (bands, edges, scale-0 rounding)', async () => {
    expect(await calculate('2020-01-20')).toEqual([0, null, '0', '0.00', NO_BAND]);
    expect(await calculate('2020-02-15')).toEqual([1, '1-12', '100', '123457.00', null]);
    expect(await calculate('2021-01-14')).toEqual([11, '1-12', '100', '123457.00', null]);
    expect(await calculate('2021-01-15')).toEqual([12, '1-12', '100', '123457.00', null]);
    // 123457 x 50 % = 61728.5 => 61729
    expect(await calculate('2021-02-15')).toEqual([13, '13-24', '50', '61729.00', null]);
    expect(await calculate('2022-01-15')).toEqual([24, '13-24', '50', '61729.00', null]);
    // 123457 x 25 % = 30864.25 => 30864
    expect(await calculate('2022-02-15')).toEqual([25, '25-36', '25', '30864.00', null]);
    // 123457 x 10 % = 12345.7 => 12346
    expect(await calculate('2023-02-15')).toEqual([37, '37-84', '10', '12346.00', null]);
    expect(await calculate('2027-01-15')).toEqual([84, '37-84', '10', '12346.00', null]);
    expect(await calculate('2027-02-15')).toEqual([85, '85+', '0', '0.00', null]);
    expect(await calculate('2036-09-15')).toEqual([200, '85+', '0', '0.00', null]);
  });

  it('calculate returns the exact response shape and rejects bad bodies with E411', async () => {
    const res = await a.post(`${BASE}/calculate`, {
      contractDate: '2024-01-15',
      terminationDate: '2025-01-15',
      originalCommission: 1000.5,
      productCategory: 'LIFE',
    });
    expect(res.body).toMatchObject({ success: true, code: '0000' });
    // 1000.50 x 100 % = 1000.5 => 1001 (scale 0)
    expect(res.body.data).toEqual({
      chargebackAmount: '1001.00',
      monthsElapsed: 12,
      appliedPercent: '100',
      reason: null,
      cbGradeId: 1,
      monthsRange: '1-12',
    });
    const reversed = await a.post(`${BASE}/calculate`, { contractDate: '2024-01-15', terminationDate: '2024-01-14', originalCommission: '1' });
    expect(reversed.body.data.errors).toEqual([{ field: 'terminationDate', message: 'must not be before contractDate' }]);
    const negative = await a.post(`${BASE}/calculate`, { contractDate: '2024-01-15', terminationDate: '2024-02-14', originalCommission: '-1' });
    expect(negative.body.data.errors).toEqual([{ field: 'originalCommission', message: 'must not be negative' }]);
    const badDate = await a.post(`${BASE}/calculate`, { contractDate: '2024-02-30', terminationDate: '2024-03-01', originalCommission: '1' });
    expect(badDate.body.data.errors.map((e: any) => e.field)).toEqual(['contractDate']);
  });

  it('rejects monthsTo < monthsFrom, a negative percent and a negative monthsFrom with E411', async () => {
    const body = { productCategory: 'LIFE', monthsFrom: 13, monthsTo: 24, percent: '70', effectiveFrom: '2024-01-01' };
    const reversed = await a.post(BASE, { ...body, monthsTo: 12 });
    expect(reversed.status).toBe(400);
    expect(reversed.body.code).toBe('E411');
    expect(reversed.body.data.errors).toEqual([{ field: 'monthsTo', message: 'must not be less than monthsFrom' }]);
    const negative = await a.post(BASE, { ...body, percent: -10 });
    expect(negative.body.data.errors).toEqual([{ field: 'percent', message: 'must not be negative' }]);
    const from = await a.post(BASE, { ...body, monthsFrom: -1 });
    expect(from.body.data.errors.map((e: any) => e.field)).toEqual(['monthsFrom']);
    const period = await a.post(BASE, { ...body, effectiveTo: '2023-12-31' });
    expect(period.body.data.errors).toEqual([{ field: 'effectiveTo', message: 'must not be before effectiveFrom' }]);
  });

  it('a category band beats the all-category band in calculate', async () => {
    const created = await a.post(BASE, { productCategory: 'LIFE', monthsFrom: 13, monthsTo: 24, percent: '70', effectiveFrom: '2020-01-01' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // 123457 x 70 % = 86419.9 => 86420
    expect(await calculate('2021-02-15', { productCategory: 'LIFE' })).toEqual([13, '13-24', '70', '86420.00', null]);
    expect(await calculate('2021-02-15', { productCategory: 'ANNUITY' })).toEqual([13, '13-24', '50', '61729.00', null]);
  });

  it('a band overlapping an active band of the same category in months and period is B009', async () => {
    // seeded NULL-category 13-24 from 2000-01-01, open
    const dup = await a.post(BASE, { monthsFrom: 20, monthsTo: 30, percent: '40', effectiveFrom: '2024-01-01' });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('B009');
    // 'ALL' is the same category as NULL
    expect((await a.post(BASE, { productCategory: 'ALL', monthsFrom: 85, percent: '0', effectiveFrom: '2024-01-01' })).body.code).toBe('B009');
    // LIFE 13-24 exists (previous test): LIFE 24-30 overlaps at month 24
    expect((await a.post(BASE, { productCategory: 'LIFE', monthsFrom: 24, monthsTo: 30, percent: '10', effectiveFrom: '2024-01-01' })).body.code).toBe('B009');
    // no overlap: other category, adjacent months, or an inactive band
    expect((await a.post(BASE, { productCategory: 'SAVINGS', monthsFrom: 20, monthsTo: 30, percent: '40', effectiveFrom: '2024-01-01' })).status).toBe(200);
    expect((await a.post(BASE, { productCategory: 'LIFE', monthsFrom: 25, monthsTo: 36, percent: '30', effectiveFrom: '2024-01-01' })).status).toBe(200);
    expect((await a.post(BASE, { monthsFrom: 1, monthsTo: 12, percent: '90', effectiveFrom: '2024-01-01', isActive: false })).status).toBe(200);
  });

  it('update of a band is checked against the other bands only; retiring a band makes room', async () => {
    const created = await a.post(BASE, { productCategory: 'ANNUITY', monthsFrom: 1, monthsTo: 12, percent: '80', effectiveFrom: '2024-01-01', effectiveTo: '2024-12-31' });
    const id = created.body.data.id;
    const body = { productCategory: 'ANNUITY', monthsFrom: 1, monthsTo: 12, percent: '85', effectiveFrom: '2024-01-01', effectiveTo: '2024-12-31' };
    expect((await a.put(`${BASE}/${id}`, body)).status).toBe(200);
    expect((await a.get(`${BASE}/${id}`)).body.data).toMatchObject({ percent: '85', monthsRange: '1-12' });
    // a later period does not overlap the closed one (effective_to inclusive)
    const next = await a.post(BASE, { ...body, effectiveFrom: '2025-01-01', effectiveTo: null });
    expect(next.status).toBe(200);
    expect((await a.post(BASE, { ...body, effectiveFrom: '2024-12-31', effectiveTo: null })).body.code).toBe('B009');
    expect((await a.put(`${BASE}/${id}`, { ...body, isActive: false })).status).toBe(200);
    expect((await a.post(BASE, { ...body, effectiveFrom: '2024-06-01', effectiveTo: '2024-12-31' })).status).toBe(200);
    const logs = (await changeLogRows(ctx, 'chargeback_grade')).filter((r) => r.record_id === String(id));
    expect(logs.map((r) => [r.action, r.menu_code])).toEqual([
      ['CREATE', 'CHARGEBACK_GRADE'],
      ['UPDATE', 'CHARGEBACK_GRADE'],
      ['UPDATE', 'CHARGEBACK_GRADE'],
    ]);
  });

  it('AGENT cannot create (E403); there is no DELETE route', async () => {
    const res = await a.post(BASE, { monthsFrom: 300, percent: '0', effectiveFrom: '2024-01-01' }, await ctx.tokenFor('AGENT'));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('E403');
    expect((await a.del(`${BASE}/1`)).status).toBe(404);
  });

  it('exports the bands as xlsx', async () => {
    const res = await a.get(`${BASE}/excel?productCategory=ALL&isActive=true&lang=en`);
    const sheet = await readSheet(res.raw);
    expect(sheet.header.slice(0, 4)).toEqual(['Grade ID', 'Product category', 'Months', 'Chargeback (%)']);
    expect(sheet.rows.map((r) => [r[2], r[3]])).toEqual([
      ['1-12', 100],
      ['13-24', 50],
      ['25-36', 25],
      ['37-84', 10],
      ['85+', 0],
    ]);
  });
});
