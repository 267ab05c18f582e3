import type { ServiceApp } from '@csp/service-kit';
import type { TestContext } from '@csp/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBook } from './book.js';
import { addAgent, addOrg, addSettle, createAnalyticsContext, getData, refreshKpi } from './helpers.js';

/**
 * Every part of gross is a figure of the monthly and organization KPI and of the agent and organization
 * reports, and the parts add up to gross to the cent (issue 23 item 2, DECISIONS "Settlement lifecycle"):
 * recruit + maintain + override + other + correction + exception plus - exception minus - chargeback.
 *
 * Book of 202407 (besides the KPI book of 202405/202406): branch P with team Q.
 *   p1 (Q): 1000.00 + 200.00 + 0 + 123.45 other + 10.01 correction + 5.00 plus - 2.50 minus - 300.00 = 1035.96
 *   p2 (Q): 0 + 0 + 77.70 override + 0.33 other - 50.00 correction + 0 - 0 - 0 = 28.03
 *   p3 (P): 400.00 + 0 + 0 + 0 + 0 + 0 - 0 - 900.00 chargeback = -500.00
 */
let ctx: TestContext<ServiceApp>;
const ids: Record<string, number> = {};

const get = (url: string) => getData(ctx, url);
const refresh = (month: string) => refreshKpi(ctx, month);

/** Money strings as integer cents (never a JS float). */
const cents = (s: string): bigint => {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(s);
  if (!m) throw new Error(`not a 2-place money string: ${s}`);
  const v = BigInt(m[2]!) * 100n + BigInt(m[3]!);
  return m[1] ? -v : v;
};

/** The signed parts of gross of a row, by the names the resource uses. */
function partsAddUp(row: Record<string, string>, names: { [part: string]: string }, gross: string): void {
  const sum =
    cents(row[names.recruit!]!) + cents(row[names.maintain!]!) + cents(row[names.override!]!) + cents(row[names.other!]!) +
    cents(row[names.correction!]!) + cents(row[names.plus!]!) - cents(row[names.minus!]!) - cents(row[names.chargeback!]!);
  expect(sum, JSON.stringify(row)).toBe(cents(row[gross]!));
}

const TOTALS = {
  recruit: 'recruitTotal', maintain: 'maintainTotal', override: 'overrideTotal', other: 'otherTotal', correction: 'correctionTotal',
  plus: 'exceptionPlusTotal', minus: 'exceptionMinusTotal', chargeback: 'chargebackTotal',
};
const AMOUNTS = {
  recruit: 'recruitAmount', maintain: 'maintainAmount', override: 'overrideAmount', other: 'otherAmount', correction: 'correctionAmount',
  plus: 'exceptionPlus', minus: 'exceptionMinus', chargeback: 'chargebackAmount',
};

beforeAll(async () => {
  ctx = await createAnalyticsContext();
  const book = await buildBook(ctx.db);
  ids.hq = book.hq;
  ids.p = await addOrg(ctx.db, 'Branch P', 'BR', book.hq, 2);
  ids.q = await addOrg(ctx.db, 'Team Q', 'TM', ids.p, 3);
  ids.p1 = await addAgent(ctx.db, 'p1', ids.q, 1);
  ids.p2 = await addAgent(ctx.db, 'p2', ids.q, 2);
  ids.p3 = await addAgent(ctx.db, 'p3', ids.p, 4);
  await addSettle(ctx.db, ids.p1, '202407', {
    recruit: '1000.00', maintain: '200.00', other: '123.45', correction: '10.01', plus: '5.00', minus: '2.50', chargeback: '300.00',
    gross: '1035.96', tax: '34.19', net: '1001.77',
  });
  await addSettle(ctx.db, ids.p2, '202407', { override: '77.70', other: '0.33', correction: '-50.00', gross: '28.03', tax: '0.92', net: '27.11' });
  await addSettle(ctx.db, ids.p3, '202407', { recruit: '400.00', chargeback: '900.00', gross: '-500.00', tax: '0', net: '-500.00' });
  for (const month of ['202405', '202406', '202407']) await refresh(month);
});

afterAll(async () => {
  await ctx?.close();
});

describe('the parts of gross in the KPI and reports', () => {
  it('shows other commission and corrections in the monthly KPI: 202407 by hand', async () => {
    const [row] = (await get('/api/kpi/monthly?settleMonthFrom=202407&settleMonthTo=202407')).list;
    expect(row).toMatchObject({
      recruitTotal: '1400.00',
      maintainTotal: '200.00',
      overrideTotal: '77.70',
      otherTotal: '123.78',
      correctionTotal: '-39.99',
      exceptionPlusTotal: '5.00',
      exceptionMinusTotal: '2.50',
      chargebackTotal: '1200.00',
      grossTotal: '563.99', // 1035.96 + 28.03 - 500.00
    });
  });

  it('rolls other commission and corrections up the organization tree: team Q, branch P, HQ', async () => {
    const list = (await get('/api/kpi/organization?settleMonthFrom=202407&settleMonthTo=202407&pageSize=100')).list;
    const of = (orgId: number) => list.find((r: any) => r.orgId === orgId);
    expect(of(ids.q!)).toMatchObject({ otherTotal: '123.78', correctionTotal: '-39.99', grossTotal: '1063.99' });
    expect(of(ids.p!)).toMatchObject({ otherTotal: '123.78', correctionTotal: '-39.99', grossTotal: '563.99' });
    expect(of(ids.hq!)).toMatchObject({ otherTotal: '123.78', correctionTotal: '-39.99', grossTotal: '563.99' });
  });

  it('shows them per agent in the agent summary', async () => {
    const list = (await get(`/api/reports/agent-summary?settleMonthFrom=202407&settleMonthTo=202407&pageSize=100`)).list;
    const p2 = list.find((r: any) => r.agentId === ids.p2);
    expect(p2).toMatchObject({ overrideAmount: '77.70', otherAmount: '0.33', correctionAmount: '-50.00', grossAmount: '28.03' });
  });

  it('carries other commission, corrections and exceptions in the cumulative KPI: p1, p2 and team Q up to 202407 by hand', async () => {
    const agents = (await get('/api/kpi/cumulative?settleMonth=202407&scope=AGENT&pageSize=500')).list;
    const of = (agentId: number) => agents.find((r: any) => r.agentId === agentId);
    expect(of(ids.p1!)).toMatchObject({
      monthsCount: 1, recruitTotal: '1000.00', maintainTotal: '200.00', overrideTotal: '0.00', otherTotal: '123.45',
      correctionTotal: '10.01', exceptionPlusTotal: '5.00', exceptionMinusTotal: '2.50', chargebackTotal: '300.00', grossTotal: '1035.96',
    });
    expect(of(ids.p2!)).toMatchObject({ overrideTotal: '77.70', otherTotal: '0.33', correctionTotal: '-50.00', grossTotal: '28.03' });
    const orgs = (await get('/api/kpi/cumulative?settleMonth=202407&scope=ORG&pageSize=500')).list;
    // Team Q = p1 + p2: 1000.00 + 200.00 + 77.70 + 123.78 - 39.99 + 5.00 - 2.50 - 300.00 = 1063.99
    expect(orgs.find((r: any) => r.orgId === ids.q)).toMatchObject({
      recruitTotal: '1000.00', maintainTotal: '200.00', overrideTotal: '77.70', otherTotal: '123.78', correctionTotal: '-39.99',
      exceptionPlusTotal: '5.00', exceptionMinusTotal: '2.50', chargebackTotal: '300.00', grossTotal: '1063.99',
    });
  });

  it('adds the parts up to gross, to the cent, on every monthly, organization, agent and organization report row of the books', async () => {
    const monthly = (await get('/api/kpi/monthly?pageSize=100')).list;
    const orgKpi = (await get('/api/kpi/organization?pageSize=500')).list;
    const agents = (await get('/api/reports/agent-summary?pageSize=500')).list;
    const orgs = (await get('/api/reports/org-summary?pageSize=500')).list;
    expect(monthly.map((r: any) => r.settleMonth)).toEqual(['202407', '202406', '202405']);
    expect(orgKpi.length).toBeGreaterThanOrEqual(3 * 6);
    expect(orgs).toHaveLength(orgKpi.length);
    expect(agents.filter((r: any) => r.settled).length).toBe(2 + 5 + 3);
    for (const r of monthly) partsAddUp(r, TOTALS, 'grossTotal');
    for (const r of orgKpi) partsAddUp(r, TOTALS, 'grossTotal');
    for (const r of orgs) partsAddUp(r, TOTALS, 'grossTotal');
    for (const r of agents) partsAddUp(r, AMOUNTS, 'grossAmount');
  });

  it('adds the parts up to gross, to the cent, on every cumulative row (agent and organization) of every month of the books', async () => {
    const rows = (await get('/api/kpi/cumulative?pageSize=1000')).list;
    const months = new Set(rows.map((r: any) => r.settleMonth));
    expect([...months].sort()).toEqual(['202405', '202406', '202407']);
    const orgKpi = (await get('/api/kpi/organization?settleMonthFrom=202407&settleMonthTo=202407&pageSize=500')).list;
    expect(rows.filter((r: any) => r.settleMonth === '202407' && r.scope === 'ORG')).toHaveLength(orgKpi.length);
    expect(rows.filter((r: any) => r.settleMonth === '202407' && r.scope === 'AGENT').length).toBeGreaterThanOrEqual(3);
    for (const r of rows) partsAddUp(r, TOTALS, 'grossTotal');
  });
});
