import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startContext, type Api, type Ctx } from './helpers.js';
import { changeLogRows, insertContract, type ContractFixture, closeContext } from './rules-fixtures.js';

let ctx: Ctx;
let a: Api;
let life: ContractFixture;
let savings: ContractFixture;

const BASE = '/api/regulatory-limits';

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  life = await insertContract(ctx, { premium: '1000000.00', productGroup: 'LIFE' });
  savings = await insertContract(ctx, { premium: '1000000.00', productGroup: null, insuranceType: 'SAVINGS' });
});
afterAll(async () => {
  await closeContext(ctx);
});

const check = async (body: Record<string, unknown>) => a.post(`${BASE}/check-contract`, { baseDate: '2024-06-01', ...body });

describe('regulatory limits', () => {
  it('lists the three seeded limits with code names', async () => {
    const res = await a.get(BASE);
    expect(res.body.data.total).toBe(3);
    const { createdAt, updatedAt, ...first } = res.body.data.list[0];
    expect([createdAt, updatedAt]).toEqual([expect.any(String), expect.any(String)]);
    expect(first).toEqual({
      limitId: 1,
      limitType: 'TOTAL_RATIO',
      limitTypeName: '총 수수료 비율',
      productCategory: 'ALL',
      productCategoryName: '전체 상품',
      limitValue: '1200',
      unit: 'PERCENT',
      effectiveFrom: '2000-01-01',
      effectiveTo: null,
      isActive: true,
      description: '계약의 총 수수료는 보험료의 1200 % 이내',
    });
    expect(res.body.data.list.map((r: any) => [r.limitType, r.limitValue, r.unit])).toEqual([
      ['TOTAL_RATIO', '1200', 'PERCENT'],
      ['FIRST_YEAR_RATIO', '35', 'PERCENT'],
      ['INSTALLMENT_YEARS', '7', 'YEAR'],
    ]);
    expect((await a.get(`${BASE}?limitType=INSTALLMENT_YEARS`)).body.data.total).toBe(1);
    expect((await a.get(`${BASE}?productCategory=ALL&effectiveDate=2024-01-01`)).body.data.total).toBe(3);
    expect((await a.get(`${BASE}?effectiveDate=1999-12-31`)).body.data.total).toBe(0);
  });

  it('rejects bad bodies with E411', async () => {
    const body = { limitType: 'FIRST_YEAR_RATIO', unit: 'PERCENT', limitValue: '30', productCategory: 'LIFE', effectiveFrom: '2024-01-01' };
    const errorsOf = async (patch: Record<string, unknown>) => {
      const res = await a.post(BASE, { ...body, ...patch });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('E411');
      return res.body.data.errors;
    };
    expect(await errorsOf({ limitValue: 0 })).toEqual([{ field: 'limitValue', message: 'must be positive' }]);
    expect(await errorsOf({ limitValue: '-5' })).toEqual([
      { field: 'limitValue', message: 'must be a number with at most 7 integer digits and 4 decimals' },
    ]);
    expect(await errorsOf({ unit: 'YEAR' })).toEqual([{ field: 'unit', message: 'FIRST_YEAR_RATIO is expressed in PERCENT' }]);
    expect((await errorsOf({ effectiveFrom: '2024-13-01' })).map((e: any) => e.field)).toEqual(['effectiveFrom']);
    expect(await errorsOf({ effectiveTo: '2023-12-31' })).toEqual([{ field: 'effectiveTo', message: 'must not be before effectiveFrom' }]);
    expect((await errorsOf({ limitType: undefined })).map((e: any) => e.field)).toEqual(['limitType']);
    expect((await errorsOf({ productCategory: 'TOYS' })).map((e: any) => e.field)).toEqual(['productCategory']);
  });

  it('AGENT cannot create (E403)', async () => {
    const res = await a.post(
      BASE,
      { limitType: 'TOTAL_RATIO', unit: 'PERCENT', limitValue: '1000', effectiveFrom: '2024-01-01' },
      await ctx.tokenFor('AGENT'),
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('E403');
  });

  it('check-contract at 1,000,000.00 premium: reaching 35 % / 1200 % is ok, one cent more is violated', async () => {
    const atLimit = await check({ contractId: savings.contractId, additionalAmount: '350000.00' });
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(200);
    expect(atLimit.body.data).toEqual({
      contractId: savings.contractId,
      baseDate: '2024-06-01',
      productCategory: 'SAVINGS',
      premium: '1000000.00',
      ok: true,
      results: [
        {
          limitType: 'TOTAL_RATIO',
          limitId: 1,
          productCategory: 'ALL',
          limitValue: '1200',
          unit: 'PERCENT',
          limitAmount: '12000000.00',
          accumulated: '0.00',
          additional: '350000.00',
          remaining: '11650000.00',
          violated: false,
        },
        {
          limitType: 'FIRST_YEAR_RATIO',
          limitId: 2,
          productCategory: 'ALL',
          limitValue: '35',
          unit: 'PERCENT',
          limitAmount: '350000.00',
          accumulated: '0.00',
          additional: '350000.00',
          remaining: '0.00',
          violated: false,
        },
      ],
    });

    const firstYearOver = await check({ contractId: savings.contractId, additionalAmount: '350000.01' });
    expect(firstYearOver.body.data.ok).toBe(false);
    expect(firstYearOver.body.data.results.map((r: any) => [r.limitType, r.remaining, r.violated])).toEqual([
      ['TOTAL_RATIO', '11649999.99', false],
      ['FIRST_YEAR_RATIO', '-0.01', true],
    ]);

    const total = async (additionalAmount: string) =>
      (await check({ contractId: savings.contractId, additionalAmount, limitType: 'TOTAL_RATIO' })).body.data;
    expect(await total('12000000.00')).toMatchObject({ ok: true, results: [{ limitType: 'TOTAL_RATIO', remaining: '0.00', violated: false }] });
    expect(await total('12000000.01')).toMatchObject({ ok: false, results: [{ limitType: 'TOTAL_RATIO', remaining: '-0.01', violated: true }] });
  });

  it('a category limit beats the ALL limit; a deactivated limit is no longer used', async () => {
    const created = await a.post(BASE, {
      limitType: 'FIRST_YEAR_RATIO',
      unit: 'PERCENT',
      limitValue: 30,
      productCategory: 'LIFE',
      effectiveFrom: '2024-01-01',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    const lifeCheck = await check({ contractId: life.contractId, additionalAmount: '300000.01', limitType: 'FIRST_YEAR_RATIO' });
    expect(lifeCheck.body.data).toMatchObject({
      productCategory: 'LIFE',
      ok: false,
      results: [{ limitId: id, productCategory: 'LIFE', limitValue: '30', limitAmount: '300000.00', remaining: '-0.01', violated: true }],
    });
    // before the LIFE row starts, the ALL row applies
    const before = await check({ contractId: life.contractId, additionalAmount: '300000.01', limitType: 'FIRST_YEAR_RATIO', baseDate: '2023-12-31' });
    expect(before.body.data.results[0]).toMatchObject({ limitId: 2, limitValue: '35', violated: false });

    expect((await a.put(`${BASE}/${id}/deactivate`)).status).toBe(200);
    expect((await a.get(`${BASE}/${id}`)).body.data.isActive).toBe(false);
    const after = await check({ contractId: life.contractId, additionalAmount: '300000.01', limitType: 'FIRST_YEAR_RATIO' });
    expect(after.body.data.results[0]).toMatchObject({ limitId: 2, violated: false });
    // deactivating twice changes nothing and logs nothing more
    expect((await a.put(`${BASE}/${id}/deactivate`)).status).toBe(200);
    const logs = (await changeLogRows(ctx, 'regulatory_limit')).filter((r) => r.record_id === String(id));
    expect(logs.map((r) => [r.action, r.menu_code])).toEqual([
      ['CREATE', 'REGULATORY_LIMIT'],
      ['UPDATE', 'REGULATORY_LIMIT'],
    ]);
  });

  it('update replaces the fields', async () => {
    const id = (await a.post(BASE, { limitType: 'TOTAL_RATIO', unit: 'PERCENT', limitValue: '1000', productCategory: 'ANNUITY', effectiveFrom: '2024-01-01' })).body
      .data.id;
    const res = await a.put(`${BASE}/${id}`, {
      limitType: 'TOTAL_RATIO',
      unit: 'PERCENT',
      limitValue: '1100.5',
      productCategory: 'ANNUITY',
      effectiveFrom: '2024-01-01',
      effectiveTo: '2024-12-31',
      description: 'annuity cap',
    });
    expect(res.status).toBe(200);
    expect((await a.get(`${BASE}/${id}`)).body.data).toMatchObject({ limitValue: '1100.5', effectiveTo: '2024-12-31', description: 'annuity cap' });
    expect((await a.put(`${BASE}/999999/deactivate`)).body.code).toBe('E404');
  });

  it('check-contract of an unknown contract is E404 and a bad body E411', async () => {
    expect((await check({ contractId: 999999, additionalAmount: '1' })).body.code).toBe('E404');
    const bad = await check({ contractId: life.contractId, additionalAmount: '-1' });
    expect(bad.body.data.errors).toEqual([{ field: 'additionalAmount', message: 'must not be negative' }]);
    expect((await check({ contractId: life.contractId, additionalAmount: '1', limitType: 'INSTALLMENT_YEARS' })).body.code).toBe('E411');
  });

  describe('with the ledgers present', () => {
    let created = false;
    beforeAll(async () => {
      const { rows } = await sql<{ present: boolean }>`SELECT to_regclass('public.recruit_ledger') IS NOT NULL AS present`.execute(ctx.db);
      if (rows[0]!.present) return;
      // Minimal stand-ins for the ledger-settlement tables (only the columns rule 8 reads).
      await sql`CREATE TABLE recruit_ledger (contract_id bigint, commission_year int, agent_amount numeric(15,2))`.execute(ctx.db);
      await sql`CREATE TABLE maintain_ledger (contract_id bigint, commission_year int, agent_amount numeric(15,2))`.execute(ctx.db);
      await sql`INSERT INTO recruit_ledger VALUES (${savings.contractId}, 1, 200000.00), (${savings.contractId}, 1, 100000.00)`.execute(ctx.db);
      await sql`INSERT INTO maintain_ledger VALUES (${savings.contractId}, 2, 50000.50), (${life.contractId}, 2, 999.00)`.execute(ctx.db);
      created = true;
    });

    it('accumulates recruit + maintain for the total and recruit year 1 for the first year', async (t) => {
      if (!created) t.skip();
      const res = await check({ contractId: savings.contractId, additionalAmount: '50000.00' });
      expect(res.body.data.results.map((r: any) => [r.limitType, r.accumulated, r.additional, r.remaining, r.violated])).toEqual([
        ['TOTAL_RATIO', '350000.50', '50000.00', '11599999.50', false],
        ['FIRST_YEAR_RATIO', '300000.00', '50000.00', '0.00', false],
      ]);
      const over = await check({ contractId: savings.contractId, additionalAmount: '50000.01', limitType: 'FIRST_YEAR_RATIO' });
      expect(over.body.data).toMatchObject({ ok: false, results: [{ remaining: '-0.01', violated: true }] });
    });
  });
});
