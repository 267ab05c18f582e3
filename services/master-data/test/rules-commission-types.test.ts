import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, readSheet, startContext, type Api, type Ctx } from './helpers.js';
import { changeLogRows, closeContext, insertCompany } from './rules-fixtures.js';

/**
 * The rules of the commission types beyond recruit, maintain and override (DECISIONS, issue 16):
 * collection, renewal, reinstatement, persistency and appointment. Versioned and effective-dated like the
 * commission rates: half-open validity, optimistic version on update, revision through /{id}/revise.
 */
let ctx: Ctx;
let a: Api;

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  await insertCompany(ctx, 'CT1');
  await insertCompany(ctx, 'CT2');
});
afterAll(async () => {
  await closeContext(ctx);
});

const withoutAudit = ({ createdAt, updatedAt, ...rest }: Record<string, unknown>) => {
  expect([createdAt, updatedAt]).toEqual([expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/), expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/)]);
  return rest;
};

async function create(base: string, body: Record<string, unknown>): Promise<number> {
  const res = await a.post(base, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id;
}

const errorsOf = async (res: Promise<{ status: number; body: any }>) => {
  const r = await res;
  expect([r.status, r.body.code]).toEqual([400, 'E411']);
  return r.body.data.errors;
};

describe('collection rules (COLLECT_COMM)', () => {
  const BASE = '/api/rules/collection';

  it('create (first commission year defaults to 6) and detail with the company name; revise closes the row and inserts version 2', async () => {
    const id = await create(BASE, { companyCode: 'CT1', insuranceType: 'LIFE', ratePct: '2.5', effectiveFrom: '2024-01-01' });
    expect(withoutAudit((await a.get(`${BASE}/${id}`)).body.data)).toEqual({
      ruleId: id,
      companyCode: 'CT1',
      companyName: 'Company CT1',
      insuranceType: 'LIFE',
      insuranceTypeName: '생명보험',
      minCommissionYear: 6,
      ratePct: '2.5',
      effectiveFrom: '2024-01-01',
      effectiveTo: null,
      version: 1,
    });

    const revised = await a.put(`${BASE}/${id}/revise`, { effectiveFrom: '2025-01-01', ratePct: '3', version: 1 });
    expect(revised.status, JSON.stringify(revised.body)).toBe(200);
    const newId = revised.body.data.id;
    expect(revised.body.data).toEqual({ id: newId, previousId: id, version: 2 });
    expect((await a.get(`${BASE}/${id}`)).body.data).toMatchObject({ ratePct: '2.5', minCommissionYear: 6, effectiveTo: '2025-01-01', version: 2 });
    // the first commission year was left out of the revision: the new row keeps it
    expect((await a.get(`${BASE}/${newId}`)).body.data).toMatchObject({
      companyCode: 'CT1',
      insuranceType: 'LIFE',
      minCommissionYear: 6,
      ratePct: '3',
      effectiveFrom: '2025-01-01',
      effectiveTo: null,
      version: 2,
    });

    // valid on a date: half-open, the old row up to 2024-12-31, the new one from 2025-01-01
    const validOn = async (date: string) => (await a.get(`${BASE}?companyCode=CT1&effectiveDate=${date}`)).body.data.list.map((r: any) => r.ruleId);
    expect(await validOn('2024-12-31')).toEqual([id]);
    expect(await validOn('2025-01-01')).toEqual([newId]);
    expect(await validOn('2023-12-31')).toEqual([]);

    // the revised row changed: an update or a revision holding its old version is B002
    const stale = await a.put(`${BASE}/${id}`, { companyCode: 'CT1', insuranceType: 'LIFE', ratePct: '9', effectiveFrom: '2024-01-01', version: 1 });
    expect([stale.status, stale.body.code]).toEqual([409, 'B002']);
    expect((await a.post(`${BASE}/${id}/revise`, { effectiveFrom: '2024-06-01', ratePct: '4', version: 1 })).body.code).toBe('B002');
    // a revision must start inside the revised row's period
    expect(await errorsOf(a.post(`${BASE}/${newId}/revise`, { effectiveFrom: '2025-01-01', ratePct: '4' }))).toEqual([
      { field: 'effectiveFrom', message: 'must be after 2025-01-01, the effectiveFrom of the revised row' },
    ]);
    expect((await a.post(`${BASE}/999999/revise`, { effectiveFrom: '2025-06-01', ratePct: '4' })).body.code).toBe('E404');

    expect((await changeLogRows(ctx, 'collection_rule')).filter((r) => [String(id), String(newId)].includes(r.record_id))).toEqual([
      { action: 'CREATE', record_id: String(id), menu_code: 'COLLECT_COMM' },
      { action: 'UPDATE', record_id: String(id), menu_code: 'COLLECT_COMM' },
      { action: 'CREATE', record_id: String(newId), menu_code: 'COLLECT_COMM' },
    ]);
  });

  it('update with the current version succeeds and increments it; the revision can change the first commission year', async () => {
    const id = await create(BASE, { companyCode: 'CT2', insuranceType: 'HEALTH', minCommissionYear: 7, ratePct: '1', effectiveFrom: '2024-01-01' });
    const body = { companyCode: 'CT2', insuranceType: 'HEALTH', minCommissionYear: 8, ratePct: '1.25', effectiveFrom: '2024-01-01' };
    expect((await a.put(`${BASE}/${id}`, { ...body, version: 1 })).status).toBe(200);
    expect((await a.get(`${BASE}/${id}`)).body.data).toMatchObject({ minCommissionYear: 8, ratePct: '1.25', version: 2 });
    const revised = await a.post(`${BASE}/${id}/revise`, { effectiveFrom: '2024-07-01', ratePct: '1.5', minCommissionYear: 6 });
    expect((await a.get(`${BASE}/${revised.body.data.id}`)).body.data).toMatchObject({ minCommissionYear: 6, ratePct: '1.5', version: 3 });
  });

  it('overlapping periods are kept like the commission rates (the lookup takes the highest version): both rows are valid on a shared date', async () => {
    const first = await create(BASE, { companyCode: 'CT2', insuranceType: 'ANNUITY', ratePct: '1', effectiveFrom: '2024-01-01', effectiveTo: '2025-01-01' });
    const second = await create(BASE, { companyCode: 'CT2', insuranceType: 'ANNUITY', ratePct: '2', effectiveFrom: '2024-06-01' });
    const list = await a.get(`${BASE}?companyCode=CT2&insuranceType=ANNUITY&effectiveDate=2024-07-01`);
    expect(list.body.data.list.map((r: any) => [r.ruleId, r.ratePct])).toEqual([
      [first, '1'],
      [second, '2'],
    ]);
  });

  it('bad bodies are E411 with field errors: unknown company, negative rate, too many places, period, year, insurance type', async () => {
    const ok = { companyCode: 'CT1', insuranceType: 'LIFE', ratePct: '1', effectiveFrom: '2024-01-01' };
    expect(await errorsOf(a.post(BASE, { ...ok, companyCode: 'NOPE' }))).toEqual([{ field: 'companyCode', message: 'insurance company NOPE does not exist' }]);
    expect(await errorsOf(a.post(BASE, { ...ok, ratePct: '-0.5' }))).toEqual([{ field: 'ratePct', message: 'must not be negative' }]);
    expect(await errorsOf(a.post(BASE, { ...ok, ratePct: '1.23456' }))).toEqual([{ field: 'ratePct', message: 'must have at most 4 decimal places' }]);
    expect(await errorsOf(a.post(BASE, { ...ok, effectiveTo: '2024-01-01' }))).toEqual([
      { field: 'effectiveTo', message: 'must be after effectiveFrom (effectiveTo is exclusive)' },
    ]);
    expect((await errorsOf(a.post(BASE, { ...ok, minCommissionYear: 0 }))).map((e: any) => e.field)).toEqual(['minCommissionYear']);
    expect(await errorsOf(a.post(BASE, { ...ok, insuranceType: 'life' }))).toEqual([{ field: 'insuranceType', message: 'must be an insurance type code' }]);
    expect((await errorsOf(a.post(BASE, { companyCode: 'CT1', insuranceType: 'LIFE', effectiveFrom: '2024-01-01' }))).map((e: any) => e.field)).toEqual(['ratePct']);
    // the revision validates its fields like the save body
    const id = await create(BASE, ok);
    expect(await errorsOf(a.post(`${BASE}/${id}/revise`, { effectiveFrom: '2024-05-01', ratePct: '-1' }))).toEqual([{ field: 'ratePct', message: 'must not be negative' }]);
  });

  it('exports the filtered rows and deletes a rule (logged)', async () => {
    const res = await a.get(`${BASE}/excel?companyCode=CT1&insuranceType=LIFE&sortField=ruleId&sortOrder=ASC&lang=en`);
    expect(res.status).toBe(200);
    const sheet = await readSheet(res.raw);
    expect(sheet.header).toEqual([
      'Rule ID',
      'Company',
      'Company name',
      'Insurance type',
      'From commission year',
      'Rate (%)',
      'Effective from',
      'Effective to',
      'Version',
    ]);
    expect(sheet.rows.map((r) => [r[1], r[5]])).toEqual([
      ['CT1', 2.5],
      ['CT1', 3],
      ['CT1', 1],
    ]);
    const id = await create(BASE, { companyCode: 'CT1', insuranceType: 'SAVINGS', ratePct: '1', effectiveFrom: '2024-01-01' });
    expect((await a.del(`${BASE}/${id}`)).status).toBe(200);
    expect((await a.get(`${BASE}/${id}`)).body.code).toBe('E404');
    expect((await changeLogRows(ctx, 'collection_rule')).filter((r) => r.record_id === String(id)).map((r) => r.action)).toEqual(['CREATE', 'DELETE']);
  });
});

describe.each([
  ['renewal rules (RENEWAL_COMM)', '/api/rules/renewal', 'renewal_rule', 'RENEWAL_COMM'],
  ['reinstatement rules (REINSTATE_COMM)', '/api/rules/reinstatement', 'reinstatement_rule', 'REINSTATE_COMM'],
])('%s', (_name, BASE, table, menu) => {
  it('create, detail, filter by company, revise (rate), change log under the menu', async () => {
    const id = await create(BASE, { companyCode: 'CT1', insuranceType: 'LIFE', ratePct: '4.125', effectiveFrom: '2024-03-01' });
    const other = await create(BASE, { companyCode: 'CT2', insuranceType: 'LIFE', ratePct: '1', effectiveFrom: '2024-03-01' });
    expect(withoutAudit((await a.get(`${BASE}/${id}`)).body.data)).toEqual({
      ruleId: id,
      companyCode: 'CT1',
      companyName: 'Company CT1',
      insuranceType: 'LIFE',
      insuranceTypeName: '생명보험',
      ratePct: '4.125',
      effectiveFrom: '2024-03-01',
      effectiveTo: null,
      version: 1,
    });
    expect((await a.get(`${BASE}?companyCode=CT2`)).body.data.list.map((r: any) => r.ruleId)).toEqual([other]);
    const revised = await a.post(`${BASE}/${id}/revise`, { effectiveFrom: '2024-09-01', ratePct: 5 });
    expect(revised.body.data).toEqual({ id: expect.any(Number), previousId: id, version: 2 });
    expect((await a.get(`${BASE}/${revised.body.data.id}`)).body.data).toMatchObject({ ratePct: '5', effectiveFrom: '2024-09-01', version: 2 });
    // the rate is required in a revision
    expect((await errorsOf(a.post(`${BASE}/${id}/revise`, { effectiveFrom: '2024-05-01' }))).map((e: any) => e.field)).toEqual(['ratePct']);
    expect(await errorsOf(a.post(BASE, { companyCode: 'ZZ9', insuranceType: 'LIFE', ratePct: '1', effectiveFrom: '2024-03-01' }))).toEqual([
      { field: 'companyCode', message: 'insurance company ZZ9 does not exist' },
    ]);
    expect((await changeLogRows(ctx, table)).filter((r) => r.record_id === String(id))).toEqual([
      { action: 'CREATE', record_id: String(id), menu_code: menu },
      { action: 'UPDATE', record_id: String(id), menu_code: menu },
    ]);
  });
});

describe('persistency rules (PERSIST_BONUS)', () => {
  const BASE = '/api/rules/persistency';

  it('milestones 13 and 25 are taken, any other month is E411; filter by milestone; revise the bonus', async () => {
    const m13 = await create(BASE, { milestoneMonth: 13, insuranceType: 'LIFE', bonusPct: '10', effectiveFrom: '2024-01-01' });
    const m25 = await create(BASE, { milestoneMonth: 25, insuranceType: 'LIFE', bonusPct: '15.5', effectiveFrom: '2024-01-01' });
    expect(withoutAudit((await a.get(`${BASE}/${m25}`)).body.data)).toEqual({
      ruleId: m25,
      milestoneMonth: 25,
      insuranceType: 'LIFE',
      insuranceTypeName: '생명보험',
      bonusPct: '15.5',
      effectiveFrom: '2024-01-01',
      effectiveTo: null,
      version: 1,
    });
    for (const month of [12, 14, 24, 26, 0]) {
      expect(await errorsOf(a.post(BASE, { milestoneMonth: month, insuranceType: 'LIFE', bonusPct: '1', effectiveFrom: '2024-01-01' }))).toEqual([
        { field: 'milestoneMonth', message: 'must be 13 or 25' },
      ]);
    }
    expect(await errorsOf(a.put(`${BASE}/${m13}`, { milestoneMonth: 18, insuranceType: 'LIFE', bonusPct: '1', effectiveFrom: '2024-01-01' }))).toEqual([
      { field: 'milestoneMonth', message: 'must be 13 or 25' },
    ]);
    expect(await errorsOf(a.post(BASE, { milestoneMonth: 13, insuranceType: 'LIFE', bonusPct: '-1', effectiveFrom: '2024-01-01' }))).toEqual([
      { field: 'bonusPct', message: 'must not be negative' },
    ]);
    expect((await a.get(`${BASE}?milestoneMonth=13`)).body.data.list.map((r: any) => r.ruleId)).toEqual([m13]);

    const revised = await a.post(`${BASE}/${m13}/revise`, { effectiveFrom: '2025-01-01', bonusPct: '12', version: 1 });
    expect(revised.body.data).toEqual({ id: expect.any(Number), previousId: m13, version: 2 });
    expect((await a.get(`${BASE}/${revised.body.data.id}`)).body.data).toMatchObject({ milestoneMonth: 13, bonusPct: '12', effectiveFrom: '2025-01-01', version: 2 });
    expect((await a.get(`${BASE}/${m13}`)).body.data).toMatchObject({ bonusPct: '10', effectiveTo: '2025-01-01', version: 2 });
  });
});

describe('appointment rules (COMM_TYPE)', () => {
  const BASE = '/api/rules/appointment';

  it('create with an existing grade, detail with its name, revise amount and months; unknown grade and bad figures are E411', async () => {
    const id = await create(BASE, { gradeId: 1, months: 3, monthlyAmount: '300000', effectiveFrom: '2024-01-01' });
    expect(withoutAudit((await a.get(`${BASE}/${id}`)).body.data)).toEqual({
      ruleId: id,
      gradeId: 1,
      gradeName: expect.any(String),
      months: 3,
      monthlyAmount: '300000.00',
      effectiveFrom: '2024-01-01',
      effectiveTo: null,
      version: 1,
    });
    expect(await errorsOf(a.post(BASE, { gradeId: 9999, months: 3, monthlyAmount: '1', effectiveFrom: '2024-01-01' }))).toEqual([
      { field: 'gradeId', message: 'grade 9999 does not exist' },
    ]);
    expect(await errorsOf(a.post(BASE, { gradeId: 1, months: 3, monthlyAmount: '-1', effectiveFrom: '2024-01-01' }))).toEqual([
      { field: 'monthlyAmount', message: 'must not be negative' },
    ]);
    expect((await errorsOf(a.post(BASE, { gradeId: 1, months: 0, monthlyAmount: '1', effectiveFrom: '2024-01-01' }))).map((e: any) => e.field)).toEqual(['months']);
    expect((await errorsOf(a.post(BASE, { gradeId: 1, months: 121, monthlyAmount: '1', effectiveFrom: '2024-01-01' }))).map((e: any) => e.field)).toEqual(['months']);

    const revised = await a.post(`${BASE}/${id}/revise`, { effectiveFrom: '2024-07-01', monthlyAmount: '350000.50', months: 6 });
    expect((await a.get(`${BASE}/${revised.body.data.id}`)).body.data).toMatchObject({ gradeId: 1, months: 6, monthlyAmount: '350000.50', version: 2 });
    expect((await a.get(`${BASE}?gradeId=1&effectiveDate=2024-06-30`)).body.data.list.map((r: any) => r.ruleId)).toEqual([id]);
  });

  it('a MANAGER reads and creates but cannot delete (COMM_TYPE DELETE is not granted)', async () => {
    const manager = await ctx.tokenFor('MANAGER');
    expect((await a.get(BASE, manager)).status).toBe(200);
    const created = await a.post(BASE, { gradeId: 1, months: 1, monthlyAmount: '1', effectiveFrom: '2024-01-01' }, manager);
    expect(created.status).toBe(200);
    expect((await a.del(`${BASE}/${created.body.data.id}`, manager)).body.code).toBe('E403');
  });
});
