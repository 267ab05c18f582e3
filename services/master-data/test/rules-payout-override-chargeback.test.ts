import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startContext, type Api, type Ctx } from './helpers.js';
import { changeLogRows, insertCompany, closeContext } from './rules-fixtures.js';

let ctx: Ctx;
let a: Api;

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  await insertCompany(ctx, 'CB1');
});
afterAll(async () => {
  await closeContext(ctx);
});

describe('payout rules', () => {
  const BASE = '/api/rules/payout';

  it('create, detail with grade and insurance type names, filters, revise and lookup', async () => {
    const created = await a.post(BASE, { gradeId: 1, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '60', effectiveFrom: '2024-01-01' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    const { createdAt, updatedAt, ...detail } = (await a.get(`${BASE}/${id}`)).body.data;
    expect([createdAt, updatedAt]).toEqual([expect.any(String), expect.any(String)]);
    expect(detail).toEqual({
      ruleId: id,
      gradeId: 1,
      gradeName: expect.any(String),
      insuranceType: 'LIFE',
      insuranceTypeName: '생명보험',
      commissionYear: 1,
      payoutPct: '60',
      payMethodCond: null,
      performanceGrade: null,
      effectiveFrom: '2024-01-01',
      effectiveTo: null,
      version: 1,
    });
    expect(typeof createdAt).toBe('string');
    expect(typeof updatedAt).toBe('string');

    await a.post(BASE, { gradeId: 2, insuranceType: 'ANNUITY', commissionYear: 2, payoutPct: '40', effectiveFrom: '2024-01-01' });
    expect((await a.get(`${BASE}?gradeId=1&insuranceType=LIFE&commissionYear=1`)).body.data.list.map((r: any) => r.ruleId)).toEqual([id]);
    expect((await a.get(`${BASE}?insuranceType=ANNUITY`)).body.data.total).toBe(1);
    expect((await a.get(`${BASE}?gradeId=1&effectiveDate=2023-12-31`)).body.data.total).toBe(0);

    const revised = await a.post(`${BASE}/${id}/revise`, { effectiveFrom: '2025-01-01', payoutPct: '65', version: 1 });
    expect(revised.body.data).toEqual({ id: expect.any(Number), previousId: id, version: 2 });
    const lookup = async (date: string) =>
      (await a.get(`${BASE}/lookup?gradeId=1&insuranceType=LIFE&commissionYear=1&date=${date}`)).body.data;
    expect((await lookup('2024-12-31')).payoutPct).toBe('60');
    expect((await lookup('2025-01-01')).payoutPct).toBe('65');
    expect((await lookup('2025-01-01')).ruleId).toBe(revised.body.data.id);
  });

  it('stale version on update is B002; unknown grade and negative rate are E411', async () => {
    const id = (await a.post(BASE, { gradeId: 3, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '50', effectiveFrom: '2024-01-01' })).body.data.id;
    const body = { gradeId: 3, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '55', effectiveFrom: '2024-01-01' };
    expect((await a.put(`${BASE}/${id}`, { ...body, version: 1 })).status).toBe(200);
    expect((await a.put(`${BASE}/${id}`, { ...body, version: 1 })).body.code).toBe('B002');
    const grade = await a.post(BASE, { ...body, gradeId: 999 });
    expect(grade.body.data.errors).toEqual([{ field: 'gradeId', message: 'grade 999 does not exist' }]);
    const negative = await a.post(BASE, { ...body, payoutPct: -5 });
    expect(negative.body.data.errors).toEqual([{ field: 'payoutPct', message: 'must not be negative' }]);
  });
});

describe('override rules', () => {
  const BASE = '/api/rules/override';

  it('CRUD with grade names, version check and delete', async () => {
    const created = await a.post(BASE, { fromGrade: 1, toGrade: 3, overridePct: '5', capAmount: 500000, effectiveFrom: '2024-01-01' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    const detail = (await a.get(`${BASE}/${id}`)).body.data;
    expect(detail).toMatchObject({
      overrideId: id,
      fromGrade: 1,
      toGrade: 3,
      overridePct: '5',
      calcType: 'RATE',
      insuranceTypeCond: null,
      capAmount: '500000.00',
      effectiveFrom: '2024-01-01',
      effectiveTo: null,
      version: 1,
    });
    expect(detail.fromGradeName).toEqual(expect.any(String));
    expect((await a.get(`${BASE}?gradeId=3`)).body.data.list.map((r: any) => r.overrideId)).toEqual([id]);
    expect((await a.get(`${BASE}?gradeId=2`)).body.data.total).toBe(0);

    const body = { fromGrade: 1, toGrade: 3, overridePct: '6', effectiveFrom: '2024-01-01' };
    expect((await a.put(`${BASE}/${id}`, { ...body, version: 1 })).status).toBe(200);
    expect((await a.get(`${BASE}/${id}`)).body.data).toMatchObject({ overridePct: '6', capAmount: null, version: 2 });
    expect((await a.put(`${BASE}/${id}`, { ...body, version: 1 })).body.code).toBe('B002');
    expect((await a.del(`${BASE}/${id}`)).status).toBe(200);
    const logs = await changeLogRows(ctx, 'override_rule');
    expect(logs.map((r) => r.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
  });

  it('revise closes the row at effectiveFrom and inserts version 2 with the new pct; the cap is kept', async () => {
    const created = await a.post(BASE, { fromGrade: 1, toGrade: 2, overridePct: '4', capAmount: 300000, effectiveFrom: '2024-01-01' });
    const id = created.body.data.id;
    const revised = await a.post(`${BASE}/${id}/revise`, { effectiveFrom: '2024-07-01', overridePct: '4.5', version: 1 });
    expect(revised.body.data).toEqual({ id: expect.any(Number), previousId: id, version: 2 });
    expect((await a.get(`${BASE}/${id}`)).body.data).toMatchObject({ overridePct: '4', effectiveTo: '2024-07-01', version: 2 });
    expect((await a.get(`${BASE}/${revised.body.data.id}`)).body.data).toMatchObject({
      overridePct: '4.5', capAmount: '300000.00', effectiveFrom: '2024-07-01', effectiveTo: null, version: 2,
    });
    expect((await a.put(`${BASE}/${id}/revise`, { effectiveFrom: '2024-08-01', overridePct: '5', version: 1 })).body.code).toBe('B002');
    const early = await a.post(`${BASE}/${revised.body.data.id}/revise`, { effectiveFrom: '2024-07-01', overridePct: '5' });
    expect(early.body.data.errors).toEqual([{ field: 'effectiveFrom', message: 'must be after 2024-07-01, the effectiveFrom of the revised row' }]);
  });

  it('the same grade on both sides is E411', async () => {
    const res = await a.post(BASE, { fromGrade: 2, toGrade: 2, overridePct: '5', effectiveFrom: '2024-01-01' });
    expect(res.body.data.errors).toEqual([{ field: 'toGrade', message: 'must differ from fromGrade' }]);
  });
});

describe('chargeback rules', () => {
  const BASE = '/api/rules/chargeback';

  it('CRUD with the company name; company and insurance type filters', async () => {
    const created = await a.post(BASE, {
      companyCode: 'CB1',
      insuranceType: 'LIFE',
      lapseMonthFrom: 0,
      lapseMonthTo: 12,
      cbRate: '100',
      includeOverride: true,
      installmentAllowed: true,
      maxInstallments: 3,
      effectiveFrom: '2024-01-01',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    const { createdAt, updatedAt, ...detail } = (await a.get(`${BASE}/${id}`)).body.data;
    expect([createdAt, updatedAt]).toEqual([expect.any(String), expect.any(String)]);
    expect(detail).toEqual({
      cbRuleId: id,
      companyCode: 'CB1',
      companyName: 'Company CB1',
      insuranceType: 'LIFE',
      insuranceTypeName: '생명보험',
      lapseMonthFrom: 0,
      lapseMonthTo: 12,
      cbRate: '100',
      includeOverride: true,
      installmentAllowed: true,
      maxInstallments: 3,
      effectiveFrom: '2024-01-01',
      effectiveTo: null,
      version: 1,
    });
    expect((await a.get(`${BASE}?companyCode=CB1&insuranceType=LIFE&effectiveDate=2024-01-01`)).body.data.total).toBe(1);
    expect((await a.get(`${BASE}?companyCode=XX`)).body.data.total).toBe(0);
  });

  it('revise changes the rate from a date and keeps the installment settings', async () => {
    const created = await a.post(BASE, {
      companyCode: 'CB1', insuranceType: 'LIFE', lapseMonthFrom: 13, lapseMonthTo: 24, cbRate: '50',
      installmentAllowed: true, maxInstallments: 2, effectiveFrom: '2024-01-01',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    const revised = await a.put(`${BASE}/${id}/revise`, { effectiveFrom: '2025-01-01', cbRate: '40' });
    expect(revised.body.data).toEqual({ id: expect.any(Number), previousId: id, version: 2 });
    expect((await a.get(`${BASE}/${revised.body.data.id}`)).body.data).toMatchObject({
      cbRate: '40', lapseMonthFrom: 13, lapseMonthTo: 24, installmentAllowed: true, maxInstallments: 2, effectiveFrom: '2025-01-01', version: 2,
    });
    expect((await a.get(`${BASE}/${id}`)).body.data).toMatchObject({ cbRate: '50', effectiveTo: '2025-01-01' });
  });

  it('rejects a reversed lapse range, installments without permission and an unknown company (E411)', async () => {
    const base = { companyCode: 'CB1', insuranceType: 'LIFE', lapseMonthFrom: 13, cbRate: '50', effectiveFrom: '2024-01-01' };
    expect((await a.post(BASE, { ...base, lapseMonthTo: 12 })).body.data.errors).toEqual([
      { field: 'lapseMonthTo', message: 'must not be less than lapseMonthFrom' },
    ]);
    expect((await a.post(BASE, { ...base, maxInstallments: 2 })).body.data.errors).toEqual([
      { field: 'maxInstallments', message: 'must be 1 unless installmentAllowed' },
    ]);
    expect((await a.post(BASE, { ...base, companyCode: 'NOPE' })).body.data.errors).toEqual([
      { field: 'companyCode', message: 'insurance company NOPE does not exist' },
    ]);
  });
});

describe('exception type codes', () => {
  const BASE = '/api/exception-codes';

  it('lists the ten seeded codes, two of them created by the batch', async () => {
    const res = await a.get(`${BASE}?pageSize=50`);
    expect(res.body.data.total).toBe(10);
    expect(res.body.data.list.map((r: any) => r.exceptionCode)).toEqual([
      'ADV_RECOVERY',
      'BONUS_SPECIAL',
      'CAMPAIGN_PRIZE',
      'MISC_PLUS',
      'MISC_MINUS',
      'PENALTY',
      'SYSTEM_ADJ_PLUS',
      'SYSTEM_ADJ_MINUS',
      'RETRO_PLUS',
      'RETRO_MINUS',
    ]);
    const auto = await a.get(`${BASE}?autoCalcYn=Y`);
    expect(auto.body.data.list.map((r: any) => [r.exceptionCode, r.direction, r.directionName])).toEqual([
      ['RETRO_PLUS', 'PLUS', '가산'],
      ['RETRO_MINUS', 'MINUS', '차감'],
    ]);
    expect((await a.get(`${BASE}?direction=MINUS`)).body.data.total).toBe(5);
  });

  it('create, duplicate code B009, update keeps the code, deactivate via update', async () => {
    const body = { exceptionCode: 'REFERRAL_FEE', exceptionName: 'Referral fee', category: 'BONUS', direction: 'PLUS' };
    const created = await a.post(BASE, body);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id;
    const { createdAt, updatedAt, ...detail } = (await a.get(`${BASE}/${id}`)).body.data;
    expect([createdAt, updatedAt]).toEqual([expect.any(String), expect.any(String)]);
    expect(detail).toEqual({
      exceptionId: id,
      exceptionCode: 'REFERRAL_FEE',
      exceptionName: 'Referral fee',
      category: 'BONUS',
      direction: 'PLUS',
      directionName: '가산',
      autoCalcYn: 'N',
      approvalRequired: 'Y',
      taxIncluded: 'Y',
      description: null,
      isActive: true,
      sortOrder: 0,
    });

    const dup = await a.post(BASE, body);
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('B009');

    const rename = await a.put(`${BASE}/${id}`, { ...body, exceptionCode: 'OTHER' });
    expect(rename.body.data.errors).toEqual([{ field: 'exceptionCode', message: 'cannot be changed (is REFERRAL_FEE)' }]);

    expect((await a.put(`${BASE}/${id}`, { ...body, isActive: false })).status).toBe(200);
    expect((await a.get(`${BASE}/${id}`)).body.data.isActive).toBe(false);
    expect((await a.get(`${BASE}?isActive=false`)).body.data.list.map((r: any) => r.exceptionId)).toEqual([id]);
    expect((await a.del(`${BASE}/${id}`)).status).toBe(404);

    const badDirection = await a.post(BASE, { ...body, exceptionCode: 'X1', direction: 'UP' });
    expect(badDirection.body.code).toBe('E411');
    expect(badDirection.body.data.errors[0].field).toBe('direction');
  });

  it('AGENT cannot create (E403)', async () => {
    const res = await a.post(BASE, { exceptionCode: 'X2', exceptionName: 'x', category: 'X', direction: 'PLUS' }, await ctx.tokenFor('AGENT'));
    expect(res.body.code).toBe('E403');
  });
});
