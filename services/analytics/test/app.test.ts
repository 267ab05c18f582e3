import { assertAllRoutesGuarded, type ServiceApp } from '@csp/service-kit';
import { formatFuzzReport, fuzzOpenApi, type TestContext } from '@csp/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createAnalyticsContext } from './helpers.js';

let ctx: TestContext<ServiceApp>;

beforeAll(async () => {
  ctx = await createAnalyticsContext();
});

afterAll(async () => {
  await ctx?.close();
});

const status = async (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
  (await ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) })).statusCode;

describe('analytics app', () => {
  it('answers the public health check with its service name', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, code: '0000', data: { status: 'UP', service: 'analytics', db: 'UP', redis: 'UP' } });
  });

  it('guards every route', () => {
    expect(() => assertAllRoutesGuarded(ctx.app)).not.toThrow();
  });

  it('serves every gateway prefix of analytics (reports, kpi, retention-anomalies, forecast-kpi)', () => {
    const routes = ctx.app.printRoutes({ commonPrefix: false });
    for (const path of [
      '/api/reports/agent-summary',
      '/api/reports/org-summary',
      '/api/reports/chargeback-risk',
      '/api/kpi/monthly',
      '/api/kpi/organization',
      '/api/kpi/retention',
      '/api/kpi/cumulative',
      '/api/kpi/refresh',
      '/api/retention-anomalies',
      '/api/forecast-kpi',
    ]) {
      expect(routes).toContain(path);
    }
  });

  it('a MANAGER reads KPIs and reports and exports reports, but cannot refresh (BATCH_RUN APPROVE)', async () => {
    const manager = await ctx.tokenFor('MANAGER');
    expect(await status('GET', '/api/kpi/monthly', manager)).toBe(200);
    expect(await status('GET', '/api/kpi/cumulative', manager)).toBe(200);
    expect(await status('GET', '/api/reports/chargeback-risk', manager)).toBe(200);
    expect(await status('GET', '/api/reports/org-summary/excel', manager)).toBe(200);
    expect(await status('GET', '/api/retention-anomalies', manager)).toBe(200);
    expect(await status('POST', '/api/kpi/refresh?settleMonth=202406', manager)).toBe(403);
    expect(await status('POST', '/api/kpi/refresh?settleMonth=202406', ctx.adminToken)).toBe(200);
    expect(await status('PUT', '/api/kpi/refresh?settleMonth=202406', ctx.adminToken)).toBe(200);
  });

  it('an AGENT sees no analytics', async () => {
    const agent = await ctx.tokenFor('AGENT');
    expect(await status('GET', '/api/kpi/monthly', agent)).toBe(403);
    expect(await status('GET', '/api/reports/agent-summary', agent)).toBe(403);
    expect(await status('POST', '/api/forecast-kpi/generate', agent, { baseMonth: '202406', method: 'MA3' })).toBe(403);
  });

  it('needs a token', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/kpi/monthly' });
    expect(res.statusCode).toBe(401);
  });

  it('publishes the metadata of its read-only resources', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/meta/resources', headers: bearer(ctx.adminToken) });
    expect(res.statusCode).toBe(200);
    const resources = res.json().data.resources as Array<{ path: string; permissions: Record<string, unknown> }>;
    expect(resources.map((r) => r.path).sort()).toEqual([
      '/api/forecast-kpi',
      '/api/kpi/cumulative',
      '/api/kpi/monthly',
      '/api/kpi/organization',
      '/api/kpi/refreshes',
      '/api/kpi/retention',
      '/api/reports/agent-summary',
      '/api/reports/chargeback-risk',
      '/api/reports/chargeback-risk/orgs',
      '/api/reports/org-summary',
      '/api/retention-anomalies',
    ]);
    for (const r of resources) expect(r.permissions).toMatchObject({ create: null, update: null, delete: null });
  });
});

describe('OpenAPI fuzz (every operation, fixed seed)', () => {
  it('never answers with a 5xx and always with the envelope', async () => {
    const report = await fuzzOpenApi({ app: ctx.app, token: ctx.adminToken, runsPerOperation: 10 });
    if (report.failures.length) console.log(formatFuzzReport(report));
    expect(report.operations.length).toBeGreaterThan(20);
    expect(report.failures).toEqual([]);
    expect(report.serverErrors).toBe(0);
  }, 120_000);
});
