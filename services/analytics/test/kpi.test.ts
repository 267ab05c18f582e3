import type { ServiceApp } from '@csp/service-kit';
import type { TestContext } from '@csp/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBook, type Book } from './book.js';
import { bearer, createAnalyticsContext, getData, refreshKpi } from './helpers.js';

let ctx: TestContext<ServiceApp>;
let book: Book;

const get = (url: string) => getData(ctx, url);
const refresh = (month: string) => refreshKpi(ctx, month);

/** The month's row of an organization, by id. */
function byOrg(list: Array<Record<string, unknown>>, orgId: number) {
  return list.find((r) => r.orgId === orgId)!;
}

beforeAll(async () => {
  ctx = await createAnalyticsContext();
  book = await buildBook(ctx.db);
  await refresh('202405');
  await refresh('202406');
});

afterAll(async () => {
  await ctx?.close();
});

describe('monthly KPI', () => {
  it('sums the settled month: 5 settled, 4 paid (a5 grossed 0), new business of June, average net per agent', async () => {
    const page = await get('/api/kpi/monthly?settleMonthFrom=202406&settleMonthTo=202406');
    expect(page.total).toBe(1);
    // net 1063.70 + 483.50 + 338.45 + 87.03 + 0 = 1972.68; / 5 agents = 394.536 -> 394.54
    expect(page.list[0]).toMatchObject({
      settleMonth: '202406',
      agentsSettled: 5,
      agentsPaid: 4,
      newContracts: 5,
      newPremium: '200100.00', // 100000 + 50000 + 100 (a1) + 30000 (a3) + 20000 (a6)
      recruitTotal: '1500.00',
      maintainTotal: '500.00',
      overrideTotal: '90.00',
      exceptionPlusTotal: '50.00',
      exceptionMinusTotal: '0.00',
      chargebackTotal: '100.00',
      grossTotal: '2040.00',
      taxTotal: '67.32',
      netTotal: '1972.68',
      avgNetPerAgent: '394.54',
    });
  });

  it('keeps each month on its own row, newest first', async () => {
    const page = await get('/api/kpi/monthly');
    expect(page.list.map((r: { settleMonth: string }) => r.settleMonth)).toEqual(['202406', '202405']);
    // 202405: 386.80 + 96.70 = 483.50 / 2 = 241.75
    expect(page.list[1]).toMatchObject({ agentsSettled: 2, agentsPaid: 2, newContracts: 0, grossTotal: '500.00', netTotal: '483.50', avgNetPerAgent: '241.75' });
  });
});

describe('organization KPI', () => {
  it('rolls a branch up from its two teams and its own manager', async () => {
    const { list } = await get('/api/kpi/organization?settleMonthFrom=202406&settleMonthTo=202406&pageSize=100');
    expect(list).toHaveLength(5);
    // T1 = a1 + a2: 1100 + 500; net 1063.70 + 483.50 = 1547.20 / 2 = 773.60
    expect(byOrg(list, book.t1)).toMatchObject({
      orgType: 'TM', parentOrgId: book.b, agentsSettled: 2, agentsPaid: 2, newContracts: 3, newPremium: '150100.00',
      recruitTotal: '1500.00', maintainTotal: '200.00', chargebackTotal: '100.00', grossTotal: '1600.00', taxTotal: '52.80',
      netTotal: '1547.20', avgNetPerAgent: '773.60',
    });
    // T2 = a3 (a6 is not settled but has a new contract)
    expect(byOrg(list, book.t2)).toMatchObject({
      agentsSettled: 1, agentsPaid: 1, newContracts: 2, newPremium: '50000.00', maintainTotal: '300.00', exceptionPlusTotal: '50.00',
      grossTotal: '350.00', taxTotal: '11.55', netTotal: '338.45', avgNetPerAgent: '338.45',
    });
    // B = T1 + T2 + a4: gross 1600 + 350 + 90 = 2040; net 1547.20 + 338.45 + 87.03 = 1972.68 / 4 = 493.17
    expect(byOrg(list, book.b)).toMatchObject({
      orgType: 'BR', agentsSettled: 4, agentsPaid: 4, newContracts: 5, newPremium: '200100.00', recruitTotal: '1500.00',
      maintainTotal: '500.00', overrideTotal: '90.00', exceptionPlusTotal: '50.00', chargebackTotal: '100.00',
      grossTotal: '2040.00', taxTotal: '67.32', netTotal: '1972.68', avgNetPerAgent: '493.17',
    });
    expect(byOrg(list, book.c)).toMatchObject({ agentsSettled: 1, agentsPaid: 0, newContracts: 0, grossTotal: '0.00', avgNetPerAgent: '0.00' });
    // HQ = B + C: equals the monthly KPI
    expect(byOrg(list, book.hq)).toMatchObject({ agentsSettled: 5, agentsPaid: 4, grossTotal: '2040.00', netTotal: '1972.68', avgNetPerAgent: '394.54' });
  });

  it('filters by organization including its subtree', async () => {
    const { list } = await get(`/api/kpi/organization?settleMonthFrom=202406&orgId=${book.b}`);
    expect(list.map((r: { orgId: number }) => r.orgId).sort()).toEqual([book.b, book.t1, book.t2].sort());
  });
});

describe('cumulative KPI', () => {
  it('sums January to the month per agent', async () => {
    const { list } = await get(`/api/kpi/cumulative?settleMonth=202406&scope=AGENT&agentId=${book.a1}`);
    // a1: 202405 gross 400.00 (net 386.80) + 202406 gross 1100.00 (net 1063.70)
    expect(list).toEqual([
      expect.objectContaining({
        scope: 'AGENT', agentId: book.a1, agentName: 'Agent One', orgId: book.t1, gradeId: 1, monthsCount: 2, newContracts: 3,
        newPremium: '150100.00', recruitTotal: '1400.00', maintainTotal: '200.00', chargebackTotal: '100.00',
        grossTotal: '1500.00', taxTotal: '49.50', netTotal: '1450.50',
      }),
    ]);
  });

  it('sums January to the month per organization, rolled up', async () => {
    const { list } = await get(`/api/kpi/cumulative?settleMonth=202406&scope=ORG&pageSize=100`);
    const org = (id: number) => list.find((r: { orgId: number }) => r.orgId === id);
    expect(org(book.t1)).toMatchObject({ monthsCount: 2, grossTotal: '2000.00', netTotal: '1934.00' }); // 386.80 + 1547.20
    expect(org(book.t2)).toMatchObject({ grossTotal: '450.00', netTotal: '435.15' }); // 96.70 + 338.45
    expect(org(book.b)).toMatchObject({ grossTotal: '2540.00', netTotal: '2456.18' }); // 483.50 + 1972.68
    expect(org(book.hq)).toMatchObject({ grossTotal: '2540.00', netTotal: '2456.18' });
    expect(org(book.c)).toMatchObject({ monthsCount: 2, grossTotal: '0.00' });
  });
});

describe('reports', () => {
  it('agent summary filters by organization subtree, grade and month range', async () => {
    const june = await get(`/api/reports/agent-summary?settleMonthFrom=202406&settleMonthTo=202406&orgId=${book.b}&pageSize=100`);
    expect(june.list.map((r: { agentId: number }) => r.agentId).sort()).toEqual([book.a1, book.a2, book.a3, book.a4, book.a6].sort());
    const fc = await get(`/api/reports/agent-summary?settleMonthFrom=202406&orgId=${book.b}&gradeId=1`);
    expect(fc.list.map((r: { agentId: number }) => r.agentId).sort()).toEqual([book.a1, book.a3, book.a6].sort());
    const range = await get(`/api/reports/agent-summary?settleMonthFrom=202405&settleMonthTo=202406&agentId=${book.a1}`);
    expect(range.list).toEqual([
      expect.objectContaining({ settleMonth: '202406', orgName: 'Team T1', gradeName: 'Financial Consultant', settled: true, settleStatus: 'CALCULATED', newContracts: 3, grossAmount: '1100.00', netAmount: '1063.70' }),
      expect.objectContaining({ settleMonth: '202405', newContracts: 0, grossAmount: '400.00', netAmount: '386.80' }),
    ]);
    const a6 = await get(`/api/reports/agent-summary?settleMonthFrom=202406&agentId=${book.a6}`);
    expect(a6.list[0]).toMatchObject({ settled: false, settleStatus: null, newContracts: 1, newPremium: '20000.00', grossAmount: '0.00' });
  });

  it('organization summary sorts by gross', async () => {
    const { list } = await get('/api/reports/org-summary?settleMonthFrom=202406&sortField=grossTotal&sortOrder=DESC&pageSize=2');
    expect(list.map((r: { grossTotal: string }) => r.grossTotal)).toEqual(['2040.00', '2040.00']);
  });

  it('exports a report as xlsx with the same filters', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/reports/agent-summary/excel?settleMonthFrom=202406&orgId=${book.t1}`,
      headers: bearer(ctx.adminToken),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('rejects a sort field that is not a field of the report', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/reports/org-summary?sortField=drop_table', headers: bearer(ctx.adminToken) });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('E411');
  });
});

describe('chargeback risk', () => {
  it('per agent: rule 7 bands on the commission paid on in-force contracts, plus installments still due', async () => {
    const { list } = await get('/api/reports/chargeback-risk?settleMonthFrom=202406&settleMonthTo=202406&sortField=agentId&sortOrder=ASC');
    expect(list).toEqual([
      // e1 0 months: no band, 0; e2 5 months 100 %: 333.33 -> 333; e3 16 months LIFE 60 %: (500.01 + 101.00) x 60 % = 360.606 -> 361;
      // e4 lapsed: out. Installments of e4 due in 202407 and 202408: 100.00 + 100.01 (the cancelled one and July's lapse do not count).
      expect.objectContaining({
        agentId: book.a1, asOfDate: '2024-06-30', inForceContracts: 3, paidCommission: '1934.34', exposureAmount: '694.00',
        installmentsDueCount: 2, installmentsDueAmount: '200.01', totalRisk: '894.01', orgName: 'Team T1',
      }),
      // e5 36 months 25 %: 250.50 -> 62.625 -> 63; e6 60 months 10 %: 800.00 -> 80
      expect.objectContaining({ agentId: book.a3, inForceContracts: 2, paidCommission: '1050.50', exposureAmount: '143.00', installmentsDueCount: 0, installmentsDueAmount: '0.00', totalRisk: '143.00' }),
      // a4 was paid maintain on e6 as successor: 200.00 x 10 %
      expect.objectContaining({ agentId: book.a4, inForceContracts: 1, paidCommission: '200.00', exposureAmount: '20.00' }),
      // e7 2024-01-31 -> 2024-06-30 is 5 months (clamped anniversary reached): 10.50 x 100 % -> 11 (HALF_UP)
      expect.objectContaining({ agentId: book.a5, inForceContracts: 1, paidCommission: '10.50', exposureAmount: '11.00' }),
    ].sort((x, y) => (x as { agentId: number }).agentId - (y as { agentId: number }).agentId));
  });

  it('per organization, rolled up', async () => {
    const { list } = await get('/api/reports/chargeback-risk/orgs?settleMonthFrom=202406&pageSize=100');
    expect(byOrg(list, book.t1)).toMatchObject({ exposureAmount: '694.00', installmentsDueCount: 2, installmentsDueAmount: '200.01', totalRisk: '894.01' });
    expect(byOrg(list, book.t2)).toMatchObject({ exposureAmount: '143.00', installmentsDueAmount: '0.00' });
    expect(byOrg(list, book.b)).toMatchObject({ exposureAmount: '857.00', totalRisk: '1057.01' });
    expect(byOrg(list, book.c)).toMatchObject({ exposureAmount: '11.00' });
    expect(byOrg(list, book.hq)).toMatchObject({ exposureAmount: '868.00', installmentsDueAmount: '200.01', totalRisk: '1068.01' });
  });

  it('filters by grade and organization', async () => {
    const { list } = await get(`/api/reports/chargeback-risk?settleMonthFrom=202406&orgId=${book.b}&gradeId=1`);
    expect(list.map((r: { agentId: number }) => r.agentId).sort()).toEqual([book.a1, book.a3].sort());
  });
});

describe('refresh', () => {
  it('replaces only the refreshed month, and recomputes the year-to-date rows of later months', async () => {
    const before = await get('/api/kpi/monthly?settleMonthFrom=202406&settleMonthTo=202406');
    await ctx.db.updateTable('settle_master').set({ recruit_total: '600.00', gross_amount: '600.00', tax_amount: '19.80', net_amount: '580.20' })
      .where('agent_id', '=', book.a1).where('settle_month', '=', '202405').execute();
    await ctx.db.updateTable('settle_master').set({ gross_amount: '9999.00' }).where('agent_id', '=', book.a1).where('settle_month', '=', '202406').execute();

    const result = await refresh('202405');
    expect(result).toMatchObject({ settleMonth: '202405', agentRows: 2, cumulativeMonths: ['202406'] });
    const may = await get('/api/kpi/monthly?settleMonthFrom=202405&settleMonthTo=202405');
    expect(may.list[0]).toMatchObject({ grossTotal: '700.00', netTotal: '676.90' });
    const june = await get('/api/kpi/monthly?settleMonthFrom=202406&settleMonthTo=202406');
    expect(june.list[0]).toEqual(before.list[0]); // June's figures are untouched (its 9999.00 is not read)
    const ytd = await get(`/api/kpi/cumulative?settleMonth=202406&scope=AGENT&agentId=${book.a1}`);
    expect(ytd.list[0]).toMatchObject({ grossTotal: '1700.00', netTotal: '1643.90' }); // 600 + 1100 (stored June)

    // put the book back for the other tests
    await ctx.db.updateTable('settle_master').set({ recruit_total: '400.00', gross_amount: '400.00', tax_amount: '13.20', net_amount: '386.80' })
      .where('agent_id', '=', book.a1).where('settle_month', '=', '202405').execute();
    await ctx.db.updateTable('settle_master').set({ gross_amount: '1100.00' }).where('agent_id', '=', book.a1).where('settle_month', '=', '202406').execute();
    await refresh('202405');
  });

  it('keeps row ids of a month stable across refreshes and logs each refresh', async () => {
    const first = await get('/api/reports/agent-summary?settleMonthFrom=202406&settleMonthTo=202406&pageSize=100');
    await refresh('202406');
    const second = await get('/api/reports/agent-summary?settleMonthFrom=202406&settleMonthTo=202406&pageSize=100');
    expect(second.list).toEqual(first.list);
    const log = await get('/api/kpi/refreshes?settleMonth=202406');
    expect(log.list[0]).toMatchObject({ settleMonth: '202406', triggerType: 'MANUAL', status: 'COMPLETED', agentRows: 6, orgRows: 5 });
  });

  it('rejects a malformed month', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/kpi/refresh?settleMonth=2024-06', headers: bearer(ctx.adminToken) });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('E411');
  });
});
