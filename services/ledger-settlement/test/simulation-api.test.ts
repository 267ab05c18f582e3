import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from 'bullmq';
import { testLogger, waitFor } from '@csp/batch/testing';
import { startSimulationWorker } from '../src/simulations/simulation.queue.js';
import { api, readSheet, REDIS_URL, startContext, type Api, type Ctx } from './api-helpers.js';
import { seedBook } from './steps-book.js';

let ctx: Ctx;
let http: Api;
let worker: Worker;

beforeAll(async () => {
  ctx = await startContext();
  http = api(ctx);
  await seedBook(ctx.pool);
  worker = startSimulationWorker({
    connection: { url: REDIS_URL, maxRetriesPerRequest: null },
    prefix: ctx.batchPrefix,
    db: ctx.db,
    connectionString: ctx.config.DATABASE_URL,
    logger: testLogger,
  });
}, 60_000);

afterAll(async () => {
  await worker?.close();
  await ctx?.close();
});

const payout65 = {
  ruleTable: 'payout_rule',
  action: 'REPLACE',
  targetId: 1,
  values: { gradeId: 1, insuranceType: 'LIFE', commissionYear: 1, payoutPct: '65', effectiveFrom: '2025-01-01' },
};
const body = (over: Record<string, unknown> = {}) => ({
  name: 'FC payout 65 %',
  baseMonth: '202501',
  scopeType: 'ALL',
  changes: [payout65],
  ...over,
});

async function runToEnd(id: number) {
  expect((await http.post(`/api/simulations/${id}/run`)).status).toBe(202);
  return waitFor(
    async () => {
      const res = await http.get(`/api/simulations/${id}`);
      return ['DONE', 'FAILED'].includes(res.body.data.status) ? res.body.data : undefined;
    },
    { timeoutMs: 60_000, what: `simulation ${id}` },
  );
}

describe('/api/simulations', () => {
  let id: number;

  it("refuses a change whose values break the rule's own save schema, naming the field", async () => {
    const res = await http.post('/api/simulations', body({ changes: [{ ...payout65, values: { ...payout65.values, payoutPct: 'abc' } }] }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('E411');
    expect(JSON.stringify(res.body)).toContain('changes[0].values.payoutPct');
    const noTarget = await http.post('/api/simulations', body({ changes: [{ ...payout65, targetId: 999 }] }));
    expect(noTarget.body.code).toBe('E411');
    expect(JSON.stringify(noTarget.body)).toContain('changes[0].targetId');
    const noOrg = await http.post('/api/simulations', body({ scopeType: 'ORG' }));
    expect(JSON.stringify(noOrg.body)).toContain('scopeOrgId');
  });

  it('creates, lists and shows a simulation with its changes', async () => {
    const created = await http.post('/api/simulations', body());
    expect(created.status).toBe(200);
    id = created.body.data.id;
    const detail = (await http.get(`/api/simulations/${id}`)).body.data;
    expect(detail).toMatchObject({ id, name: 'FC payout 65 %', baseMonth: '202501', scopeType: 'ALL', status: 'DRAFT', statusName: 'Draft', changeCount: 1 });
    expect(detail.changes).toEqual([
      expect.objectContaining({ seq: 1, ruleTable: 'payout_rule', action: 'REPLACE', targetId: 1, label: expect.stringContaining('Payout rule #1 REPLACE') }),
    ]);
    const list = (await http.get('/api/simulations?baseMonth=202501')).body.data;
    expect(list.list.map((r: { id: number }) => r.id)).toContain(id);
    const tables = (await http.get('/api/simulations/rule-tables')).body.data;
    expect(tables).toContainEqual({ ruleTable: 'payout_rule', resource: 'PayoutRule', path: '/api/rules/payout', label: 'Payout rule', idField: 'ruleId' });
  });

  it('runs on the simulation queue and serves summary, agents, orgs and the side-by-side explain', async () => {
    const done = await runToEnd(id);
    expect(done.status).toBe('DONE');
    expect(done.processed).toBe(done.total);
    // the real month was never run here: before = 0 for everyone
    const summary = (await http.get(`/api/simulations/${id}/summary`)).body.data;
    expect(summary.totals).toMatchObject({ grossBefore: '0.00', agentsDown: 0 });
    expect(summary.topGainers[0]).toMatchObject({ agentId: 1001, grossAfter: '15080.01' });
    expect(summary.changes).toEqual([expect.objectContaining({ ruleTable: 'payout_rule', amountMoved: summary.totals.grossDiff })]);
    const agents = (await http.get(`/api/simulations/${id}/agents?orgId=111&pageSize=3`)).body.data;
    expect(agents.total).toBe(5);
    expect(agents.list.map((a: { agentId: number }) => a.agentId)).toEqual([1001, 1002, 1008]);
    const orgs = (await http.get(`/api/simulations/${id}/orgs`)).body.data;
    const branch = orgs.find((o: { orgId: number }) => o.orgId === 110);
    // 1004 in 110 plus team 111: 15080.01 + 6550.00 + 1127.67 + 131.20 + 0.00 + 1560.00
    expect(branch).toMatchObject({ agentCount: 6, grossAfter: '24448.88' });
    const explain = (await http.get(`/api/simulations/${id}/agents/1001/explain`)).body.data;
    expect(explain.real).toBeNull();
    expect(explain.simulated.totals.gross).toBe('15080.01');
    expect(explain.simulated.sections.recruit.map((l: { agentAmount: string }) => l.agentAmount)).toContain('6500.00');
  });

  it('exports the per-agent results with number cells', async () => {
    const res = await http.get(`/api/simulations/${id}/export?lang=en`);
    expect(res.status).toBe(200);
    const sheet = await readSheet(res.raw);
    expect(sheet.header).toEqual(['Agent ID', 'Agent', 'Organization', 'Gross before', 'Gross after', 'Gross difference', 'Difference (%)', 'Net before', 'Net after', 'Net difference']);
    const a1001 = sheet.rows.find((r) => r[0] === 1001)!;
    expect(a1001.slice(3, 6)).toEqual([0, 15080.01, 15080.01]);
  });

  it('refuses to edit a running simulation and resets a finished one to DRAFT on edit', async () => {
    const other = (await http.post('/api/simulations', body({ name: 'to edit' }))).body.data.id;
    await ctx.db.updateTable('simulation').set({ status: 'RUNNING' }).where('simulation_id', '=', other).execute();
    expect((await http.put(`/api/simulations/${other}`, body({ name: 'edited' }))).status).toBe(400);
    await ctx.db.updateTable('simulation').set({ status: 'DONE' }).where('simulation_id', '=', other).execute();
    expect((await http.put(`/api/simulations/${other}`, body({ name: 'edited', scopeType: 'AGENTS', scopeAgentIds: [1001] }))).status).toBe(200);
    expect((await http.get(`/api/simulations/${other}`)).body.data).toMatchObject({ name: 'edited', status: 'DRAFT', scopeType: 'AGENTS', scopeAgentIds: [1001] });
  });

  it('compares two simulations of the same month agent by agent', async () => {
    const other = (await http.post('/api/simulations', body({ name: 'FC payout 70 %', changes: [{ ...payout65, values: { ...payout65.values, payoutPct: '70' } }] }))).body.data.id;
    expect((await runToEnd(other)).status).toBe('DONE');
    const cmp = (await http.get(`/api/simulations/compare?a=${id}&b=${other}`)).body.data;
    // 9001 +500.00, 9002 6666.67 x 5 % = 333.3335 -> 4666.67 - 4333.34 = +333.33
    expect(cmp.items.find((x: { agentId: number }) => x.agentId === 1001)).toMatchObject({ grossA: '15080.01', grossB: '15913.34', diff: '833.33' });
  });

  it('deletes a finished simulation', async () => {
    const res = await ctx.app.inject({ method: 'DELETE', url: `/api/simulations/${id}`, headers: { authorization: `Bearer ${ctx.adminToken}` } });
    expect(res.statusCode).toBe(200);
    expect((await http.get(`/api/simulations/${id}`)).status).toBe(404);
  });
});
