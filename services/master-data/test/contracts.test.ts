import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createAgent,
  createCompanyAndProduct,
  createContract,
  readSheet,
  seedOrgs,
  startContext,
  type Api,
  type Ctx,
} from './helpers.js';

let ctx: Ctx;
let a: Api;
let agentId: number;
let otherAgentId: number;
let p1: { companyId: number; productId: number };
let p2: { companyId: number; productId: number };
let contractId: number;

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  const orgs = await seedOrgs(a);
  agentId = await createAgent(a, { agentName: 'Seller One', orgId: orgs.tmId, gradeId: 1 });
  otherAgentId = await createAgent(a, { agentName: 'Seller Two', orgId: orgs.tmId, gradeId: 2 });
  p1 = await createCompanyAndProduct(a, 'C1');
  p2 = await createCompanyAndProduct(a, 'C2');
  contractId = await createContract(a, {
    agentId,
    productId: p1.productId,
    policyNo: 'POL-0001',
    contractorName: 'Lee',
    insuredName: 'Lee Jr',
    premium: 123456.7,
    payCycle: 'MONTHLY',
    payPeriod: 20,
    coveragePeriod: 80,
    contractDate: '2024-01-15',
    effectiveDate: '2024-01-16',
  });
  await createContract(a, { agentId, productId: p2.productId, policyNo: 'POL-0002', premium: '500', contractDate: '2024-02-10' });
  await createContract(a, {
    agentId: otherAgentId,
    productId: p1.productId,
    policyNo: 'POL-0003',
    premium: '700.00',
    contractDate: '2024-03-05',
    status: 'LAPSE',
    lapseDate: '2024-09-30',
  });
});
afterAll(async () => {
  await ctx?.close();
});

describe('contracts', () => {
  it('detail has joined names, code names and money as a 2-place string', async () => {
    const res = await a.get(`/api/contracts/${contractId}`);
    expect(res.body.data).toEqual({
      contractId,
      agentId,
      agentName: 'Seller One',
      orgId: expect.any(Number),
      orgName: 'Test Team',
      productId: p1.productId,
      productCode: 'C1-P1',
      productName: 'Whole life C1',
      companyId: p1.companyId,
      companyName: 'Company C1',
      policyNo: 'POL-0001',
      contractorName: 'Lee',
      insuredName: 'Lee Jr',
      premium: '123456.70',
      payCycle: 'MONTHLY',
      payCycleName: '월납',
      payPeriod: 20,
      coveragePeriod: 80,
      status: 'ACTIVE',
      statusName: '유지',
      contractDate: '2024-01-15',
      effectiveDate: '2024-01-16',
      lapseDate: null,
      revivalDate: null,
      version: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('list filters: agentId, companyId, status, contract date range, policyNo', async () => {
    const ids = async (query: string) =>
      (await a.get(`/api/contracts?${query}`)).body.data.list.map((c: { policyNo: string }) => c.policyNo);
    expect(await ids(`agentId=${agentId}`)).toEqual(['POL-0001', 'POL-0002']);
    expect(await ids(`companyId=${p1.companyId}`)).toEqual(['POL-0001', 'POL-0003']);
    expect(await ids(`productId=${p2.productId}`)).toEqual(['POL-0002']);
    expect(await ids('status=LAPSE')).toEqual(['POL-0003']);
    expect(await ids('startDate=2024-02-01&endDate=2024-03-05')).toEqual(['POL-0002', 'POL-0003']);
    expect(await ids('policyNo=POL-0002')).toEqual(['POL-0002']);
    expect(await ids('searchType=agentName&searchKeyword=two')).toEqual(['POL-0003']);
    expect(await ids('searchKeyword=lee')).toEqual(['POL-0001']);
    expect(await ids('sortField=premium&sortOrder=DESC')).toEqual(['POL-0001', 'POL-0003', 'POL-0002']);
    const page = (await a.get('/api/contracts?pageSize=2&pageNum=2')).body.data;
    expect(page).toMatchObject({ pageNum: 2, pageSize: 2, pages: 2, total: 3 });
    expect((await a.get('/api/contracts?status=GONE')).body.code).toBe('E411');
  });

  it('a negative premium, a bad date or a LAPSE without lapse date is E411', async () => {
    const base = { agentId, productId: p1.productId, policyNo: 'POL-BAD' };
    const negative = await a.post('/api/contracts', { ...base, premium: '-1.00' });
    expect(negative.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'premium', message: 'must not be negative' }] } });
    const places = await a.post('/api/contracts', { ...base, premium: '1.001' });
    expect(places.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'premium' }] } });
    const date = await a.post('/api/contracts', { ...base, premium: 1, contractDate: '2024-02-30' });
    expect(date.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'contractDate' }] } });
    const lapse = await a.post('/api/contracts', { ...base, premium: 1, status: 'LAPSE' });
    expect(lapse.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'lapseDate' }] } });
    const agent = await a.post('/api/contracts', { ...base, agentId: 999999, premium: 1 });
    expect(agent.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'agentId' }] } });
  });

  it('a duplicate policy number is B009', async () => {
    const res = await a.post('/api/contracts', { agentId, productId: p1.productId, policyNo: 'POL-0001', premium: 1 });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('B009');
  });

  it('update takes an optional version (spec 2.1): without one it succeeds and bumps it, a stale one is B002', async () => {
    const body = { agentId, productId: p1.productId, policyNo: 'POL-0001', premium: '200000', contractDate: '2024-01-15' };
    const missing = await a.put(`/api/contracts/${contractId}`, body);
    expect(missing.body.code).toBe('0000');
    const stale = await a.put(`/api/contracts/${contractId}`, { ...body, premium: '1', version: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('B002');
    const detail = (await a.get(`/api/contracts/${contractId}`)).body.data;
    expect(detail).toMatchObject({ premium: '200000.00', version: 1, contractorName: null });
  });

  it('an AGENT user cannot create contracts (E403) nor read them', async () => {
    const token = await ctx.tokenFor('AGENT');
    expect((await a.post('/api/contracts', { agentId, productId: p1.productId, policyNo: 'X', premium: 1 }, token)).status).toBe(403);
    expect((await a.get('/api/contracts', token)).body.code).toBe('E403');
  });

  it('there is no DELETE for contracts', async () => {
    expect((await a.del(`/api/contracts/${contractId}`)).status).toBe(404);
  });

  it('creating and updating are change-logged under CONTRACT_LIST', async () => {
    await ctx.app.changeLogWriter.flush();
    const logs = await ctx.db
      .selectFrom('data_change_log')
      .select(['menu_code', 'action'])
      .where('table_name', '=', 'contract')
      .where('record_id', '=', String(contractId))
      .orderBy('change_id')
      .execute();
    expect(logs).toEqual([
      { menu_code: 'CONTRACT_LIST', action: 'CREATE' },
      { menu_code: 'CONTRACT_LIST', action: 'UPDATE' },
    ]);
  });

  it('GET /api/contracts/excel applies the same filters and parses back', async () => {
    const res = await a.get(`/api/contracts/excel?companyId=${p1.companyId}&sortField=policyNo&sortOrder=DESC&lang=en`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain('.xlsx');
    const sheet = await readSheet(res.raw);
    expect(sheet.header).toEqual([
      'Contract ID',
      'Policy no',
      'Agent ID',
      'Agent',
      'Organization',
      'Company',
      'Product',
      'Contractor',
      'Insured',
      'Premium',
      'Pay cycle',
      'Status',
      'Contract date',
      'Effective date',
      'Lapse date',
    ]);
    expect(sheet.rows.map((r) => [r[1], r[9], r[11]])).toEqual([
      ['POL-0003', 700, '실효'],
      ['POL-0001', 200000, '유지'],
    ]);
    const lapsed = await readSheet((await a.get('/api/contracts/excel?status=LAPSE&startDate=2024-03-01')).raw);
    expect(lapsed.rows.map((r) => [r[1], r[14]])).toEqual([['POL-0003', '2024-09-30']]);
    expect((await a.get('/api/contracts/excel?sortField=created_at')).body.code).toBe('E411');
  });
});
