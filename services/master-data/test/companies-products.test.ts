import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createAgent, createContract, readSheet, seedOrgs, startContext, type Api, type Ctx } from './helpers.js';

let ctx: Ctx;
let a: Api;

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
});
afterAll(async () => {
  await ctx?.close();
});

describe('insurance companies', () => {
  let companyId: number;

  it('create returns the id and the detail has the exact shape', async () => {
    const res = await a.post('/api/companies', {
      companyCode: 'ALPHA',
      companyName: 'Alpha Life',
      companyType: 'LIFE',
      bizNo: '123-45-67890',
      contactName: 'Kim',
      contactPhone: '02-123-4567',
      contactEmail: 'kim@alpha.example',
    });
    expect(res.body).toMatchObject({ success: true, code: '0000', data: { id: expect.any(Number) } });
    companyId = res.body.data.id;
    const detail = await a.get(`/api/companies/${companyId}`);
    expect(detail.body.data).toEqual({
      companyId,
      companyCode: 'ALPHA',
      companyName: 'Alpha Life',
      companyType: 'LIFE',
      bizNo: '123-45-67890',
      contactName: 'Kim',
      contactPhone: '02-123-4567',
      contactEmail: 'kim@alpha.example',
      isActive: true,
      productCount: 0,
      version: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('a duplicate company_code is B009', async () => {
    const res = await a.post('/api/companies', { companyCode: 'ALPHA', companyName: 'Copy' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('B009');
  });

  it('an update with a stale version is B002; deactivate turns isActive off', async () => {
    const stale = await a.put(`/api/companies/${companyId}`, { companyCode: 'ALPHA', companyName: 'Alpha Life Co.', version: 5 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('B002');
    const res = await a.put(`/api/companies/${companyId}`, { companyCode: 'ALPHA', companyName: 'Alpha Life Co.', version: 0 });
    expect(res.body.code).toBe('0000');
    expect((await a.put(`/api/companies/${companyId}/deactivate`)).body.code).toBe('0000');
    const detail = (await a.get(`/api/companies/${companyId}`)).body.data;
    expect(detail).toMatchObject({ companyName: 'Alpha Life Co.', companyType: null, isActive: false, version: 2 });
    const active = await a.get('/api/companies?isActive=true');
    expect(active.body.data.total).toBe(0);
  });

  it('there is no DELETE for companies', async () => {
    const res = await a.del(`/api/companies/${companyId}`);
    expect(res.status).toBe(404);
  });
});

describe('products', () => {
  let companyId: number;
  let productId: number;

  beforeAll(async () => {
    companyId = (await a.post('/api/companies', { companyCode: 'BETA', companyName: 'Beta Life', companyType: 'LIFE' })).body.data.id;
  });

  it('create and detail with company and code names', async () => {
    const res = await a.post('/api/products', {
      companyId,
      productCode: 'WL-1',
      productName: 'Whole Life 1',
      insuranceType: 'LIFE',
      productGroup: 'ANNUITY',
      payPeriodType: 'YEAR',
      launchDate: '2024-01-01',
    });
    productId = res.body.data.id;
    expect((await a.get(`/api/products/${productId}`)).body.data).toEqual({
      productId,
      companyId,
      companyCode: 'BETA',
      companyName: 'Beta Life',
      productCode: 'WL-1',
      productName: 'Whole Life 1',
      insuranceType: 'LIFE',
      insuranceTypeName: '생명보험',
      productGroup: 'ANNUITY',
      productGroupName: '연금보험',
      payPeriodType: 'YEAR',
      isActive: true,
      launchDate: '2024-01-01',
      endDate: null,
      version: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('the same product code twice in one company is B009; another company may reuse it', async () => {
    const dup = await a.post('/api/products', { companyId, productCode: 'WL-1', productName: 'Again', insuranceType: 'LIFE' });
    expect(dup.body.code).toBe('B009');
    const other = (await a.post('/api/companies', { companyCode: 'GAMMA', companyName: 'Gamma' })).body.data.id;
    const ok = await a.post('/api/products', { companyId: other, productCode: 'WL-1', productName: 'Other', insuranceType: 'HEALTH' });
    expect(ok.body.code).toBe('0000');
  });

  it('unknown company, bad insurance type or end before launch are E411', async () => {
    const res = await a.post('/api/products', { companyId: 999999, productCode: 'X', productName: 'X', insuranceType: 'LIFE' });
    expect(res.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'companyId' }] } });
    const type = await a.post('/api/products', { companyId, productCode: 'X', productName: 'X', insuranceType: 'PET' });
    expect(type.body.code).toBe('E411');
    const dates = await a.post('/api/products', {
      companyId,
      productCode: 'X',
      productName: 'X',
      insuranceType: 'LIFE',
      launchDate: '2024-02-01',
      endDate: '2024-01-01',
    });
    expect(dates.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'endDate' }] } });
  });

  it('DELETE removes an unreferenced product; a product with contracts is refused with E400', async () => {
    const spare = (await a.post('/api/products', { companyId, productCode: 'SP', productName: 'Spare', insuranceType: 'AUTO' })).body.data.id;
    expect((await a.del(`/api/products/${spare}`)).body.code).toBe('0000');
    expect((await a.get(`/api/products/${spare}`)).status).toBe(404);

    const orgs = await seedOrgs(a);
    const agentId = await createAgent(a, { agentName: 'Seller', orgId: orgs.tmId, gradeId: 1 });
    await createContract(a, { agentId, productId, policyNo: 'P-REF-1', premium: '1000' });
    const refused = await a.del(`/api/products/${productId}`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('E400');
  });

  it('exports products of one company', async () => {
    const res = await a.get(`/api/products/excel?companyId=${companyId}&lang=en`);
    const sheet = await readSheet(res.raw);
    expect(sheet.header.slice(0, 4)).toEqual(['Product ID', 'Company', 'Product code', 'Product name']);
    expect(sheet.rows.map((r) => r[2])).toEqual(['WL-1']);
  });
});
