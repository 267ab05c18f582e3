import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, readSheet, startContext, type Api, type Ctx } from './helpers.js';
import { changeLogRows, insertContract, type ContractFixture, closeContext } from './rules-fixtures.js';

let ctx: Ctx;
let a: Api;
let contract: ContractFixture;

const RATIOS = '/api/installment-ratios';
const PLANS = '/api/installment-plans';

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  contract = await insertContract(ctx, { premium: '50000.00', contractDate: '2024-03-15', productGroup: 'SAVINGS' });
});
afterAll(async () => {
  await closeContext(ctx);
});

describe('installment ratios', () => {
  it('lists the seven seeded yearly ratios (35, 25, 15, 10, 7, 5, 3)', async () => {
    const res = await a.get(RATIOS);
    expect(res.body.data.total).toBe(7);
    expect(res.body.data.list.map((r: any) => [r.planYear, r.planMonth, r.sequence, r.ratioPercent, r.productCategory])).toEqual([
      [1, null, 1, '35', 'ALL'],
      [2, null, 13, '25', 'ALL'],
      [3, null, 25, '15', 'ALL'],
      [4, null, 37, '10', 'ALL'],
      [5, null, 49, '7', 'ALL'],
      [6, null, 61, '5', 'ALL'],
      [7, null, 73, '3', 'ALL'],
    ]);
    const { createdAt, updatedAt, ...first } = res.body.data.list[0];
    expect([createdAt, updatedAt]).toEqual([expect.any(String), expect.any(String)]);
    expect(first).toEqual({
      ratioId: 1,
      productCategory: 'ALL',
      productCategoryName: '전체 상품',
      planYear: 1,
      planMonth: null,
      sequence: 1,
      ratioPercent: '35',
      effectiveFrom: '2000-01-01',
      effectiveTo: null,
      isActive: true,
    });
  });

  it('create; the same key again (NULL month equal) is B009; bad values are E411', async () => {
    const body = { productCategory: 'ANNUITY', planYear: 1, planMonth: null, ratioPercent: '50', effectiveFrom: '2024-01-01' };
    const created = await a.post(RATIOS, body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await a.get(`${RATIOS}/${created.body.data.id}`)).body.data).toMatchObject({ productCategory: 'ANNUITY', planYear: 1, planMonth: null, sequence: 1 });
    const dup = await a.post(RATIOS, body);
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('B009');
    const errorsOf = async (patch: Record<string, unknown>) => (await a.post(RATIOS, { ...body, ...patch })).body.data.errors.map((e: any) => e.field);
    expect(await errorsOf({ planYear: 8 })).toEqual(['planYear']);
    expect(await errorsOf({ planMonth: 13 })).toEqual(['planMonth']);
    expect(await errorsOf({ ratioPercent: '0' })).toEqual(['ratioPercent']);
    expect(await errorsOf({ ratioPercent: '-1' })).toEqual(['ratioPercent']);
    expect(await errorsOf({ effectiveFrom: '2024-02-31' })).toEqual(['effectiveFrom']);
  });

  it('a plan year beyond the INSTALLMENT_YEARS limit is E411', async () => {
    const limit = await a.post('/api/regulatory-limits', {
      limitType: 'INSTALLMENT_YEARS',
      unit: 'YEAR',
      limitValue: 5,
      productCategory: 'EXCLUDED_HEALTH',
      effectiveFrom: '2024-01-01',
    });
    expect(limit.status).toBe(200);
    const res = await a.post(RATIOS, { productCategory: 'EXCLUDED_HEALTH', planYear: 6, ratioPercent: '10', effectiveFrom: '2024-01-01' });
    expect(res.body.data.errors).toEqual([{ field: 'planYear', message: 'exceeds the installment limit of 5 years' }]);
  });

  it('a ratio cannot be updated (no such route: the menu has no UPDATE) and AGENT cannot create', async () => {
    const res = await a.put(`${RATIOS}/1`, { productCategory: 'ALL', planYear: 1, ratioPercent: '36', effectiveFrom: '2000-01-01' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('E404');
    const agent = await a.post(RATIOS, { planYear: 1, ratioPercent: '1', effectiveFrom: '2030-01-01' }, await ctx.tokenFor('AGENT'));
    expect(agent.body.code).toBe('E403');
  });
});

describe('installment plans', () => {
  it('generate spreads the total with the seeded ratios; rows sum to the total with sequence (year-1) x 12 + month', async () => {
    const res = await a.post(`${PLANS}/generate`, { contractId: contract.contractId, totalAmount: '1000.01' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect({ ...data, list: undefined }).toEqual({
      contractId: contract.contractId,
      baseDate: '2024-03-15',
      productCategory: 'SAVINGS',
      totalAmount: '1000.01',
      firstSettleMonth: '202403',
      replacedCount: 0,
      list: undefined,
    });
    expect(data.list.map((r: any) => [r.sequence, r.planYear, r.planMonth, r.settleMonth, r.ratioPercent, r.plannedAmount, r.status])).toEqual([
      [1, 1, 1, '202403', '35', '350.00', 'SCHEDULED'],
      [13, 2, 1, '202503', '25', '250.00', 'SCHEDULED'],
      [25, 3, 1, '202603', '15', '150.00', 'SCHEDULED'],
      [37, 4, 1, '202703', '10', '100.00', 'SCHEDULED'],
      [49, 5, 1, '202803', '7', '70.00', 'SCHEDULED'],
      [61, 6, 1, '202903', '5', '50.00', 'SCHEDULED'],
      // the last row absorbs the rounding remainder: 1000.01 - 970.00
      [73, 7, 1, '203003', '3', '30.01', 'SCHEDULED'],
    ]);
    const cents = data.list.reduce((s: bigint, r: any) => s + BigInt(r.plannedAmount.replace('.', '')), 0n);
    expect(cents).toBe(100001n);
    const { createdAt, updatedAt, planId, ...first } = data.list[0];
    expect([createdAt, updatedAt, planId]).toEqual([expect.any(String), expect.any(String), expect.any(Number)]);
    expect(first).toEqual({
      contractId: contract.contractId,
      policyNo: expect.stringMatching(/^POL-R-\d+$/),
      planYear: 1,
      planMonth: 1,
      sequence: 1,
      settleMonth: '202403',
      ratioPercent: '35',
      plannedAmount: '350.00',
      status: 'SCHEDULED',
      statusName: '예정',
      paidAmount: null,
      paidAt: null,
      paymentId: null,
    });
  });

  it('regenerating replaces the scheduled plan; a category ratio set replaces the general one', async () => {
    for (const [year, pct] of [[1, '60'], [2, '40']] as const) {
      const r = await a.post(RATIOS, { productCategory: 'SAVINGS', planYear: year, ratioPercent: pct, effectiveFrom: '2024-01-01' });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const res = await a.post(`${PLANS}/generate`, { contractId: contract.contractId, totalAmount: 1000000, baseDate: '2024-11-20' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.replacedCount).toBe(7);
    expect(res.body.data.list.map((r: any) => [r.sequence, r.settleMonth, r.plannedAmount])).toEqual([
      [1, '202411', '600000.00'],
      [13, '202511', '400000.00'],
    ]);
    const list = await a.get(`${PLANS}?contractId=${contract.contractId}`);
    expect(list.body.data.total).toBe(2);
    const logs = await changeLogRows(ctx, 'installment_plan');
    expect(logs.filter((r) => r.action === 'DELETE')).toHaveLength(7);
    expect(logs.filter((r) => r.action === 'CREATE')).toHaveLength(9);
    expect(new Set(logs.map((r) => r.menu_code))).toEqual(new Set(['INSTALLMENT_PLAN']));
  });

  it('status PAID records the payment; a plan with a PAID row cannot be regenerated (E400)', async () => {
    const list = (await a.get(`${PLANS}?contractId=${contract.contractId}&sortField=settleMonth`)).body.data.list;
    const first = list[0];
    const paid = await a.put(`${PLANS}/${first.planId}/status`, { status: 'PAID', paidAt: '2024-11-25T10:00:00+09:00', paymentId: 77 });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect((await a.get(`${PLANS}/${first.planId}`)).body.data).toMatchObject({
      status: 'PAID',
      statusName: '납입 완료',
      paidAmount: '600000.00',
      paidAt: '2024-11-25T01:00:00.000Z',
      paymentId: 77,
    });
    const again = await a.post(`${PLANS}/generate`, { contractId: contract.contractId, totalAmount: '5' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('E400');

    const second = list[1];
    const deferred = await a.put(`${PLANS}/${second.planId}/status`, { status: 'DEFERRED' });
    expect(deferred.status).toBe(200);
    expect((await a.get(`${PLANS}?status=DEFERRED`)).body.data.list.map((r: any) => r.planId)).toEqual([second.planId]);
    expect((await a.get(`${PLANS}?settleMonth=202411`)).body.data.list.map((r: any) => r.planId)).toEqual([first.planId]);
    const wrong = await a.put(`${PLANS}/${second.planId}/status`, { status: 'CANCELLED', paidAmount: '1' });
    expect(wrong.body.data.errors).toEqual([{ field: 'paidAmount', message: 'can only be set with status PAID' }]);
    expect((await a.put(`${PLANS}/${second.planId}/status`, { status: 'DONE' })).body.code).toBe('E411');
    expect((await a.put(`${PLANS}/999999/status`, { status: 'PAID' })).body.code).toBe('E404');
  });

  it('generate without totalAmount and without recruit commission is E411; unknown contract is E404', async () => {
    const other = await insertContract(ctx, { premium: '100.00', contractDate: null });
    const res = await a.post(`${PLANS}/generate`, { contractId: other.contractId });
    expect(res.body.code).toBe('E411');
    expect(res.body.data.errors).toEqual([{ field: 'totalAmount', message: 'is required: the contract has no recruit commission to spread' }]);
    expect((await a.post(`${PLANS}/generate`, { contractId: 999999, totalAmount: '1' })).body.code).toBe('E404');
    expect((await a.post(`${PLANS}/generate`, { contractId: other.contractId, totalAmount: '-1' })).body.code).toBe('E411');
  });

  it('AGENT cannot generate (E403); export has the sequence column', async () => {
    const res = await a.post(`${PLANS}/generate`, { contractId: contract.contractId, totalAmount: '1' }, await ctx.tokenFor('AGENT'));
    expect(res.status).toBe(403);
    const xlsx = await a.get(`${PLANS}/excel?contractId=${contract.contractId}&sortField=settleMonth&lang=en`);
    const sheet = await readSheet(xlsx.raw);
    expect(sheet.header.slice(0, 5)).toEqual(['Plan ID', 'Contract ID', 'Policy no', 'Sequence', 'Plan year']);
    expect(sheet.rows.map((r) => [r[3], r[6], r[8], r[9]])).toEqual([
      [1, '202411', 600000, 'PAID'],
      [13, '202511', 400000, 'DEFERRED'],
    ]);
  });
});
