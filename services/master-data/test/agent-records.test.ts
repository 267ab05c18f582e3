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
let contractId: number;

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  const orgs = await seedOrgs(a);
  agentId = await createAgent(a, { agentName: 'Record Holder', orgId: orgs.tmId, gradeId: 1 });
  const { productId } = await createCompanyAndProduct(a);
  contractId = await createContract(a, { agentId, productId, policyNo: 'R-1', premium: '50000', contractDate: '2024-01-10' });
});
afterAll(async () => {
  await ctx?.close();
});

describe('agent contracts', () => {
  it('full CRUD with version and DELETE', async () => {
    const created = await a.post('/api/agent-contracts', {
      agentId,
      contractType: 'EXCLUSIVE',
      startDate: '2024-01-01',
      endDate: '2025-12-31',
      commissionSchedule: 'STANDARD-2024',
      note: 'First appointment',
    });
    const id = created.body.data.id;
    expect((await a.get(`/api/agent-contracts/${id}`)).body.data).toEqual({
      agentContractId: id,
      agentId,
      agentName: 'Record Holder',
      orgName: 'Test Team',
      contractType: 'EXCLUSIVE',
      startDate: '2024-01-01',
      endDate: '2025-12-31',
      status: 'ACTIVE',
      commissionSchedule: 'STANDARD-2024',
      note: 'First appointment',
      version: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const bad = await a.post('/api/agent-contracts', { agentId, contractType: 'EXCLUSIVE', startDate: '2024-01-01', endDate: '2023-01-01' });
    expect(bad.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'endDate' }] } });
    const upd = await a.put(`/api/agent-contracts/${id}`, {
      agentId,
      contractType: 'EXCLUSIVE',
      startDate: '2024-01-01',
      status: 'TERMINATED',
      version: 0,
    });
    expect(upd.body.code).toBe('0000');
    expect((await a.get(`/api/agent-contracts?agentId=${agentId}&status=TERMINATED`)).body.data.total).toBe(1);
    expect((await a.del(`/api/agent-contracts/${id}`)).body.code).toBe('0000');
    expect((await a.get(`/api/agent-contracts/${id}`)).status).toBe(404);
  });
});

describe('agent licenses', () => {
  it('CRUD, (type, number) unique -> B009, expiry filter and export', async () => {
    const body = { agentId, licenseType: 'LIFE', licenseNo: 'L-100', issueDate: '2020-01-01', expiryDate: '2025-01-01' };
    const id = (await a.post('/api/agent-licenses', body)).body.data.id;
    expect((await a.get(`/api/agent-licenses/${id}`)).body.data).toEqual({
      licenseId: id,
      agentId,
      agentName: 'Record Holder',
      licenseType: 'LIFE',
      licenseNo: 'L-100',
      issueDate: '2020-01-01',
      expiryDate: '2025-01-01',
      status: 'ACTIVE',
      note: null,
      version: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const dup = await a.post('/api/agent-licenses', body);
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('B009');
    await a.post('/api/agent-licenses', { ...body, licenseType: 'NON_LIFE', expiryDate: '2030-01-01' });
    const expiring = await a.get('/api/agent-licenses?expiryBefore=2025-06-30');
    expect(expiring.body.data.list.map((l: { licenseId: number }) => l.licenseId)).toEqual([id]);
    const sheet = await readSheet((await a.get('/api/agent-licenses/excel?licenseType=NON_LIFE&lang=en')).raw);
    expect(sheet.rows).toHaveLength(1);
    expect(sheet.header).toContain('License no');
    expect((await a.del(`/api/agent-licenses/${id}`)).body.code).toBe('0000');
  });
});

describe('agent trainings', () => {
  it('CRUD with hours as a decimal string; zero hours is E411', async () => {
    const id = (await a.post('/api/agent-trainings', { agentId, courseName: 'Compliance', trainingDate: '2024-05-01', hours: 3.5 })).body.data.id;
    expect((await a.get(`/api/agent-trainings/${id}`)).body.data).toMatchObject({
      trainingId: id,
      courseName: 'Compliance',
      hours: '3.50',
      status: 'SCHEDULED',
      version: 0,
    });
    const zero = await a.post('/api/agent-trainings', { agentId, courseName: 'X', trainingDate: '2024-05-01', hours: 0 });
    expect(zero.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'hours' }] } });
    const done = await a.put(`/api/agent-trainings/${id}`, {
      agentId,
      courseName: 'Compliance',
      trainingDate: '2024-05-01',
      hours: '4',
      status: 'COMPLETED',
      version: 0,
    });
    expect(done.body.code).toBe('0000');
    expect((await a.get('/api/agent-trainings?startDate=2024-05-01&endDate=2024-05-01&status=COMPLETED')).body.data.list[0].hours).toBe(
      '4.00',
    );
    expect((await a.del(`/api/agent-trainings/${id}`)).body.code).toBe('0000');
  });
});

describe('contract endorsements', () => {
  it('CRUD with a signed premium change and B002 on a stale version', async () => {
    const id = (
      await a.post('/api/contract-endorsements', {
        contractId,
        endorseType: 'PREMIUM_CHANGE',
        endorseDate: '2024-06-01',
        beforeValue: '50000',
        afterValue: '45000',
        premiumChange: '-5000',
      })
    ).body.data.id;
    expect((await a.get(`/api/contract-endorsements/${id}`)).body.data).toEqual({
      endorsementId: id,
      contractId,
      policyNo: 'R-1',
      agentId,
      agentName: 'Record Holder',
      endorseType: 'PREMIUM_CHANGE',
      endorseDate: '2024-06-01',
      beforeValue: '50000',
      afterValue: '45000',
      premiumChange: '-5000.00',
      status: 'REQUESTED',
      note: null,
      version: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const body = { contractId, endorseType: 'PREMIUM_CHANGE', endorseDate: '2024-06-01', premiumChange: '-5000', status: 'APPLIED' };
    expect((await a.put(`/api/contract-endorsements/${id}`, { ...body, version: 0 })).body.code).toBe('0000');
    expect((await a.put(`/api/contract-endorsements/${id}`, { ...body, version: 0 })).body.code).toBe('B002');
    expect((await a.get(`/api/contract-endorsements?policyNo=R-1&status=APPLIED`)).body.data.total).toBe(1);
    const missing = await a.post('/api/contract-endorsements', { contractId: 999999, endorseType: 'OTHER', endorseDate: '2024-06-01' });
    expect(missing.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'contractId' }] } });
    expect((await a.del(`/api/contract-endorsements/${id}`)).body.code).toBe('0000');
  });
});

describe('contract complaints', () => {
  it('CRUD with the chargeback flag and filters', async () => {
    const id = (
      await a.post('/api/contract-complaints', {
        contractId,
        agentId,
        complaintDate: '2024-07-01',
        complaintType: 'MIS_SELLING',
        content: 'Terms were not explained',
        chargebackYn: true,
      })
    ).body.data.id;
    expect((await a.get(`/api/contract-complaints/${id}`)).body.data).toEqual({
      complaintId: id,
      contractId,
      policyNo: 'R-1',
      agentId,
      agentName: 'Record Holder',
      complaintDate: '2024-07-01',
      complaintType: 'MIS_SELLING',
      content: 'Terms were not explained',
      status: 'RECEIVED',
      resolution: null,
      resolvedDate: null,
      chargebackYn: true,
      version: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const resolved = await a.put(`/api/contract-complaints/${id}`, {
      contractId,
      agentId,
      complaintDate: '2024-07-01',
      complaintType: 'MIS_SELLING',
      content: 'Terms were not explained',
      status: 'RESOLVED',
      resolution: 'Refunded',
      resolvedDate: '2024-06-01',
      chargebackYn: true,
      version: 0,
    });
    expect(resolved.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'resolvedDate' }] } });
    expect((await a.get('/api/contract-complaints?chargebackYn=true')).body.data.total).toBe(1);
    expect((await a.get('/api/contract-complaints?chargebackYn=false')).body.data.total).toBe(0);
    const agentToken = await ctx.tokenFor('AGENT');
    expect((await a.del(`/api/contract-complaints/${id}`, agentToken)).body.code).toBe('E403');
    expect((await a.del(`/api/contract-complaints/${id}`)).body.code).toBe('0000');
  });
});
