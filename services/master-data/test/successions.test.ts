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
let seller: number;
let heir: number;
let heir2: number;
let contractId: number;
let productId: number;

const BASE = '/api/contract-successions';

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  const orgs = await seedOrgs(a);
  seller = await createAgent(a, { agentName: 'Original Seller', orgId: orgs.tmId, gradeId: 1 });
  heir = await createAgent(a, { agentName: 'First Heir', orgId: orgs.tmId, gradeId: 2 });
  heir2 = await createAgent(a, { agentName: 'Second Heir', orgId: orgs.tmId, gradeId: 3 });
  ({ productId } = await createCompanyAndProduct(a));
  contractId = await createContract(a, { agentId: seller, productId, policyNo: 'S-1', premium: '1000', contractDate: '2024-01-01' });
});
afterAll(async () => {
  await ctx?.close();
});

describe('contract successions', () => {
  let firstId: number;

  it('equal from and to agent is E411', async () => {
    const res = await a.post(BASE, { contractId, fromAgentId: seller, toAgentId: seller, effectiveMonth: '202406' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'toAgentId' }] } });
  });

  it('an effective month that is not YYYYMM is E411', async () => {
    for (const effectiveMonth of ['2024061', '2024-06', '202413', '20246']) {
      const res = await a.post(BASE, { contractId, fromAgentId: seller, toAgentId: heir, effectiveMonth });
      expect(res.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'effectiveMonth' }] } });
    }
  });

  it('the from-agent must be the contract agent when no succession exists (E411)', async () => {
    const res = await a.post(BASE, { contractId, fromAgentId: heir, toAgentId: heir2, effectiveMonth: '202406' });
    expect(res.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'fromAgentId' }] } });
  });

  it('creates a succession and returns it with names', async () => {
    const res = await a.post(BASE, { contractId, fromAgentId: seller, toAgentId: heir, effectiveMonth: '202406', reason: 'Seller left' });
    expect(res.body).toMatchObject({ success: true, code: '0000', data: { id: expect.any(Number) } });
    firstId = res.body.data.id;
    expect((await a.get(`${BASE}/${firstId}`)).body.data).toEqual({
      successionId: firstId,
      contractId,
      policyNo: 'S-1',
      contractAgentId: seller,
      fromAgentId: seller,
      fromAgentName: 'Original Seller',
      toAgentId: heir,
      toAgentName: 'First Heir',
      effectiveMonth: '202406',
      status: 'ACTIVE',
      reason: 'Seller left',
      cancelReason: null,
      cancelledAt: null,
      cancelledBy: null,
      createdAt: expect.any(String),
      createdBy: expect.any(Number),
      updatedAt: expect.any(String),
    });
  });

  it('a next succession must start from the previous heir and a later month', async () => {
    const fromSeller = await a.post(BASE, { contractId, fromAgentId: seller, toAgentId: heir2, effectiveMonth: '202409' });
    expect(fromSeller.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'fromAgentId' }] } });
    const sameMonth = await a.post(BASE, { contractId, fromAgentId: heir, toAgentId: heir2, effectiveMonth: '202406' });
    expect(sameMonth.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'effectiveMonth' }] } });
    const ok = await a.post(BASE, { contractId, fromAgentId: heir, toAgentId: heir2, effectiveMonth: '202409' });
    expect(ok.body.code).toBe('0000');
    const list = await a.get(`${BASE}?contractId=${contractId}&sortField=effectiveMonth`);
    expect(list.body.data.list.map((s: { effectiveMonth: string; toAgentId: number }) => [s.effectiveMonth, s.toAgentId])).toEqual([
      ['202406', heir],
      ['202409', heir2],
    ]);
  });

  it('only the head of the chain can be cancelled; cancelling twice is E400', async () => {
    const notHead = await a.put(`${BASE}/${firstId}/cancel`, { reason: 'mistake' });
    expect(notHead.status).toBe(400);
    expect(notHead.body.code).toBe('E400');

    const head = (await a.get(`${BASE}?contractId=${contractId}&status=ACTIVE&effectiveMonth=202409`)).body.data.list[0];
    const res = await a.put(`${BASE}/${head.successionId}/cancel`, { reason: 'Entered by mistake' });
    expect(res.body).toMatchObject({ success: true, code: '0000' });
    expect((await a.get(`${BASE}/${head.successionId}`)).body.data).toMatchObject({
      status: 'CANCELLED',
      cancelReason: 'Entered by mistake',
      cancelledAt: expect.stringMatching(/^\d{4}-/),
      cancelledBy: expect.any(Number),
    });
    const twice = await a.put(`${BASE}/${head.successionId}/cancel`);
    expect(twice.body).toMatchObject({ code: 'E400' });

    // with the head cancelled the first one is the head again and a new hand-over starts from its heir
    const again = await a.post(BASE, { contractId, fromAgentId: heir, toAgentId: heir2, effectiveMonth: '202409' });
    expect(again.body.code).toBe('0000');
  });

  it('filters by agent as from- or to-agent and by status', async () => {
    const forSeller = await a.get(`${BASE}?agentId=${seller}`);
    expect(forSeller.body.data.total).toBe(1);
    const cancelled = await a.get(`${BASE}?status=CANCELLED`);
    expect(cancelled.body.data.total).toBe(1);
  });

  it('update changes the head; a cancelled succession cannot be updated', async () => {
    const head = (await a.get(`${BASE}?contractId=${contractId}&status=ACTIVE&sortField=effectiveMonth&sortOrder=DESC`)).body.data.list[0];
    const res = await a.put(`${BASE}/${head.successionId}`, {
      contractId,
      fromAgentId: heir,
      toAgentId: heir2,
      effectiveMonth: '202410',
      reason: 'Moved a month',
    });
    expect(res.body).toMatchObject({ code: '0000' });
    expect((await a.get(`${BASE}/${head.successionId}`)).body.data).toMatchObject({ effectiveMonth: '202410', reason: 'Moved a month' });
    const cancelled = (await a.get(`${BASE}?status=CANCELLED`)).body.data.list[0];
    const refused = await a.put(`${BASE}/${cancelled.successionId}`, {
      contractId,
      fromAgentId: heir,
      toAgentId: heir2,
      effectiveMonth: '202412',
    });
    expect(refused.body.code).toBe('E400');
  });

  it('DELETE removes a cancelled succession', async () => {
    const cancelled = (await a.get(`${BASE}?status=CANCELLED`)).body.data.list[0];
    expect((await a.del(`${BASE}/${cancelled.successionId}`)).body.code).toBe('0000');
    expect((await a.get(`${BASE}/${cancelled.successionId}`)).status).toBe(404);
  });

  it('an AGENT user gets E403 on create', async () => {
    const token = await ctx.tokenFor('AGENT');
    const res = await a.post(BASE, { contractId, fromAgentId: heir2, toAgentId: seller, effectiveMonth: '202501' }, token);
    expect(res.body.code).toBe('E403');
  });

  it('export parses back with the same filter', async () => {
    const res = await a.get(`${BASE}/excel?agentId=${heir2}&lang=en`);
    const sheet = await readSheet(res.raw);
    expect(sheet.header.slice(0, 3)).toEqual(['Succession ID', 'Contract ID', 'Policy no']);
    expect(sheet.rows.map((r) => [r[2], r[7], r[8]])).toEqual([['S-1', '202410', 'ACTIVE']]);
  });
});
