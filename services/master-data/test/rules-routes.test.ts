import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAllRoutesGuarded, createServiceApp, type ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { registerRuleAreas } from '../src/areas.js';
import { closeContext } from './rules-fixtures.js';

const seen: Array<{ route: string; access: string }> = [];
let ctx: TestContext<ServiceApp>;

beforeAll(async () => {
  ctx = await createTestContext({
    serviceName: 'master-data',
    buildApp: async (deps) => {
      const app = await createServiceApp({ name: 'master-data', ...deps });
      app.addHook('onRoute', (r) => {
        const methods = Array.isArray(r.method) ? r.method : [r.method];
        for (const m of methods) {
          if (m === 'HEAD' || !r.url.startsWith('/api/') || r.url === '/api/health' || r.url === '/api/meta/resources') continue;
          const p = r.config?.permission;
          seen.push({ route: `${m} ${r.url}`, access: p ? `${p.menu} ${p.perm}` : String(r.config?.access) });
        }
      });
      await registerRuleAreas(app);
      return app;
    },
  });
});
afterAll(async () => {
  await closeContext(ctx);
});

/** List, /excel (READ: none of these menus has EXPORT), detail, create, update and optionally delete. */
function crud(base: string, menu: string, del = false): Record<string, string> {
  const routes: Record<string, string> = {
    [`GET ${base}`]: `${menu} READ`,
    [`GET ${base}/excel`]: `${menu} READ`,
    [`GET ${base}/:id`]: `${menu} READ`,
    [`POST ${base}`]: `${menu} CREATE`,
    [`PUT ${base}/:id`]: `${menu} UPDATE`,
  };
  if (del) routes[`DELETE ${base}/:id`] = `${menu} DELETE`;
  return routes;
}

/** CRUD with delete plus the revision (POST and PUT, CREATE like the commission rates'). */
function revisable(base: string, menu: string): Record<string, string> {
  return { ...crud(base, menu, true), [`POST ${base}/:id/revise`]: `${menu} CREATE`, [`PUT ${base}/:id/revise`]: `${menu} CREATE` };
}

const EXPECTED: Record<string, string> = {
  ...crud('/api/rules/commission-rates', 'RULE_COMMISSION', true),
  'GET /api/rules/commission-rates/lookup': 'RULE_COMMISSION READ',
  'POST /api/rules/commission-rates/:id/revise': 'RULE_COMMISSION CREATE',
  'PUT /api/rules/commission-rates/:id/revise': 'RULE_COMMISSION CREATE',
  ...crud('/api/rules/payout', 'RULE_PAYOUT', true),
  'GET /api/rules/payout/lookup': 'RULE_PAYOUT READ',
  'POST /api/rules/payout/:id/revise': 'RULE_PAYOUT CREATE',
  'PUT /api/rules/payout/:id/revise': 'RULE_PAYOUT CREATE',
  ...revisable('/api/rules/override', 'RULE_OVERRIDE'),
  ...revisable('/api/rules/chargeback', 'RULE_CHARGEBACK'),
  ...crud('/api/exception-codes', 'RULE_EXCEPTION'),
  ...crud('/api/regulatory-limits', 'REGULATORY_LIMIT'),
  'PUT /api/regulatory-limits/:id/deactivate': 'REGULATORY_LIMIT UPDATE',
  'POST /api/regulatory-limits/:id/deactivate': 'REGULATORY_LIMIT UPDATE',
  'POST /api/regulatory-limits/check-contract': 'REGULATORY_LIMIT READ',
  ...crud('/api/chargeback-grades', 'CHARGEBACK_GRADE'),
  'POST /api/chargeback-grades/calculate': 'CHARGEBACK_GRADE READ',
  // INSTALLMENT_RATIO is READ/CREATE only: the resource registers no PUT.
  'GET /api/installment-ratios': 'INSTALLMENT_RATIO READ',
  'GET /api/installment-ratios/excel': 'INSTALLMENT_RATIO READ',
  'GET /api/installment-ratios/:id': 'INSTALLMENT_RATIO READ',
  'POST /api/installment-ratios': 'INSTALLMENT_RATIO CREATE',
  'GET /api/installment-plans': 'INSTALLMENT_PLAN READ',
  'GET /api/installment-plans/excel': 'INSTALLMENT_PLAN READ',
  'GET /api/installment-plans/:id': 'INSTALLMENT_PLAN READ',
  'POST /api/installment-plans/generate': 'INSTALLMENT_PLAN CREATE',
  'PUT /api/installment-plans/:id/status': 'INSTALLMENT_PLAN UPDATE',
  'POST /api/installment-plans/:id/status': 'INSTALLMENT_PLAN UPDATE',
  // commission types beyond recruit, maintain and override (issue 16): CRUD + revise, like commission rates
  ...revisable('/api/rules/collection', 'COLLECT_COMM'),
  ...revisable('/api/rules/renewal', 'RENEWAL_COMM'),
  ...revisable('/api/rules/reinstatement', 'REINSTATE_COMM'),
  ...revisable('/api/rules/persistency', 'PERSIST_BONUS'),
  ...revisable('/api/rules/appointment', 'COMM_TYPE'),
};

describe('routes of the rule areas', () => {
  it('every route declares the (menu, perm) pair of docs/menus-and-routing.md, and nothing else is exposed', () => {
    expect(Object.fromEntries(seen.map((s) => [s.route, s.access]))).toEqual(EXPECTED);
    assertAllRoutesGuarded(ctx.app);
  });

  it('the OpenAPI document builds and lists the rule paths', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/rules/commission-rates/{id}/revise',
        '/api/rules/payout/lookup',
        '/api/regulatory-limits/check-contract',
        '/api/chargeback-grades/calculate',
        '/api/installment-plans/generate',
        '/api/installment-plans/{id}/status',
      ]),
    );
  });

  it('every route needs a token (E401 without one)', async () => {
    for (const route of Object.keys(EXPECTED)) {
      const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
      const res = await ctx.app.inject({ method, url: url.replace(':id', '1') });
      expect(res.statusCode, route).toBe(401);
    }
  });
});
