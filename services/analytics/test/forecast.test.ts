import type { ServiceApp } from '@csp/service-kit';
import type { TestContext } from '@csp/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshMonth } from '../src/refresh/refresh.service.js';
import { addAgent, addOrg, addSettle, bearer, createAnalyticsContext } from './helpers.js';

let ctx: TestContext<ServiceApp>;
let x: number;
let y: number;

/** Branch X's gross, January to December 2024. */
const SERIES = ['1000.00', '1200.00', '900.00', '1100.00', '1300.00', '1000.00', '1400.00', '1200.00', '1500.00', '1300.00', '1600.00', '1400.00'];
const month = (i: number) => `2024${String(i + 1).padStart(2, '0')}`;

async function generate(payload: object) {
  return ctx.app.inject({ method: 'POST', url: '/api/forecast-kpi/generate', headers: bearer(ctx.adminToken), payload });
}

beforeAll(async () => {
  ctx = await createAnalyticsContext();
  x = await addOrg(ctx.db, 'Branch X', 'BR', null, 1);
  y = await addOrg(ctx.db, 'Branch Y', 'BR', null, 1);
  const ax = await addAgent(ctx.db, 'X agent', x, 1);
  const ay = await addAgent(ctx.db, 'Y agent', y, 1);
  for (let i = 0; i < 12; i++) {
    await addSettle(ctx.db, ax, month(i), { recruit: SERIES[i], gross: SERIES[i]!, tax: '0.00', net: SERIES[i]! });
    await addSettle(ctx.db, ay, month(i), { recruit: '500.00', gross: '500.00', tax: '0.00', net: '500.00' });
  }
  for (let i = 0; i < 11; i++) await refreshMonth(ctx.db, { settleMonth: month(i), trigger: 'MANUAL' });
});

afterAll(async () => {
  await ctx?.close();
});

describe('forecast', () => {
  it('base 202411, MA3 and NAIVE, before December is known', async () => {
    const naive = await generate({ baseMonth: '202411', method: 'NAIVE', orgId: x });
    expect(naive.statusCode, naive.body).toBe(200);
    // NAIVE: November's 1600.00. Backtest 202406..202411: forecasts 1300, 1000, 1400, 1200, 1500, 1300 against
    // 1000, 1400, 1200, 1500, 1300, 1600: APEs 30, 28.5714, 16.6667, 20, 15.3846, 18.75 -> mean 21.5621
    expect(naive.json().data).toEqual({
      forecastMonth: '202412',
      method: 'NAIVE',
      count: 1,
      list: [expect.objectContaining({ orgId: x, orgName: 'Branch X', baseMonth: '202411', forecastMonth: '202412', method: 'NAIVE', windowMonths: 1, monthsUsed: ['202411'], forecastGross: '1600.00', actualGross: null, backtestMape: '21.5621', backtestMonths: 6 })],
    });
    const ma3 = await generate({ baseMonth: '202411', method: 'MA3', orgId: x });
    // MA3: (1500 + 1300 + 1600) / 3 = 1466.666.. -> 1466.67
    expect(ma3.json().data.list[0]).toMatchObject({ windowMonths: 3, monthsUsed: ['202409', '202410', '202411'], forecastGross: '1466.67', backtestMape: '12.2701' });
  });

  it('the refresh of the forecast month records its actual on the forecasts', async () => {
    await refreshMonth(ctx.db, { settleMonth: '202412', trigger: 'MANUAL' });
    const res = await ctx.app.inject({ method: 'GET', url: `/api/forecast-kpi?forecastMonthFrom=202412&forecastMonthTo=202412&orgId=${x}&sortField=forecastGross`, headers: bearer(ctx.adminToken) });
    expect(res.json().data.list.map((r: { method: string; actualGross: string }) => [r.method, r.actualGross])).toEqual([
      ['MA3', '1400.00'],
      ['NAIVE', '1400.00'],
    ]);
  });

  it('MA3 vs NAIVE vs MA6 on the whole year (base 202412), every organization', async () => {
    const naive = (await generate({ baseMonth: '202412', method: 'NAIVE' })).json().data;
    expect(naive.count).toBe(2);
    const nx = naive.list.find((r: { orgId: number }) => r.orgId === x);
    // Backtest 202407..202412: APEs |1400-1000|/1400 = 28.5714, 16.6667, 20, 15.3846, 18.75, 14.2857 -> 18.9431
    expect(nx).toMatchObject({ forecastMonth: '202501', monthsUsed: ['202412'], forecastGross: '1400.00', backtestMape: '18.9431', backtestMonths: 6 });
    // A flat series is forecast exactly.
    expect(naive.list.find((r: { orgId: number }) => r.orgId === y)).toMatchObject({ forecastGross: '500.00', backtestMape: '0' });

    const ma3 = (await generate({ baseMonth: '202412', method: 'MA3', orgId: x })).json().data.list[0];
    // (1300 + 1600 + 1400) / 3 = 1433.33; backtest forecasts 1133.33, 1233.33, 1200, 1366.67, 1333.33, 1466.67:
    // APEs 19.0479, 2.7775, 20, 5.1285, 16.6669, 4.7621 -> 11.3971: MA3 beat NAIVE on this series
    expect(ma3).toMatchObject({ monthsUsed: ['202410', '202411', '202412'], forecastGross: '1433.33', backtestMape: '11.3971' });

    const ma6 = (await generate({ baseMonth: '202412', method: 'MA6', orgId: x })).json().data.list[0];
    // (1400 + 1200 + 1500 + 1300 + 1600 + 1400) / 6 = 1400.00; backtest -> 13.0866
    expect(ma6).toMatchObject({ windowMonths: 6, monthsUsed: ['202407', '202408', '202409', '202410', '202411', '202412'], forecastGross: '1400.00', backtestMape: '13.0866' });
  });

  it('regenerating replaces the row of the same organization, month and method', async () => {
    const first = (await generate({ baseMonth: '202412', method: 'MA3', orgId: x })).json().data.list[0];
    const second = (await generate({ baseMonth: '202412', method: 'MA3', orgId: x })).json().data.list[0];
    expect(second.forecastId).toBe(first.forecastId);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/forecast-kpi?forecastMonthFrom=202501&method=MA3&orgId=${x}`, headers: bearer(ctx.adminToken) });
    expect(res.json().data.total).toBe(1);
  });

  it('refuses a base month without KPIs', async () => {
    const res = await generate({ baseMonth: '202501', method: 'MA3' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'E411', data: { errors: [{ field: 'baseMonth' }] } });
    const bad = await generate({ baseMonth: '202412', method: 'MA12' });
    expect(bad.statusCode).toBe(400);
  });
});
