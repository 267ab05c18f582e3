import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertAllRoutesGuarded, createServiceApp, type ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { registerPeopleAndContractAreas } from '../src/areas.js';

interface Seen {
  route: string;
  access: string;
}

let seen: Seen[] = [];
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
      await registerPeopleAndContractAreas(app);
      return app;
    },
  });
});
afterAll(async () => {
  await ctx?.close();
});

/** (method path -> menu perm) of docs/menus-and-routing.md; /excel: EXPORT where the menu has it. */
function crud(base: string, menu: string, opts: { del?: boolean; excel?: string } = {}): Record<string, string> {
  const routes: Record<string, string> = {
    [`GET ${base}`]: `${menu} READ`,
    [`GET ${base}/excel`]: `${menu} ${opts.excel ?? 'READ'}`,
    [`GET ${base}/:id`]: `${menu} READ`,
    [`POST ${base}`]: `${menu} CREATE`,
    [`PUT ${base}/:id`]: `${menu} UPDATE`,
  };
  if (opts.del) routes[`DELETE ${base}/:id`] = `${menu} DELETE`;
  return routes;
}

const EXPECTED: Record<string, string> = {
  'GET /api/orgs': 'ORG_TREE READ',
  'GET /api/orgs/list': 'ORG_TREE READ',
  'GET /api/orgs/excel': 'ORG_TREE READ',
  'GET /api/orgs/:id': 'ORG_TREE READ',
  'POST /api/orgs': 'ORG_TREE CREATE',
  'PUT /api/orgs/:id': 'ORG_TREE UPDATE',
  'DELETE /api/orgs/:id': 'ORG_TREE DELETE',
  'GET /api/grades': 'ORG_AGENT READ',
  'GET /api/grades/excel': 'ORG_AGENT EXPORT',
  ...crud('/api/agents', 'ORG_AGENT', { excel: 'EXPORT' }),
  'GET /api/agents/:id/history': 'ORG_AGENT READ',
  'PUT /api/agents/:id/move': 'ORG_AGENT UPDATE',
  'POST /api/agents/:id/move': 'ORG_AGENT UPDATE',
  'PUT /api/agents/:id/retire': 'ORG_AGENT UPDATE',
  'POST /api/agents/:id/retire': 'ORG_AGENT UPDATE',
  ...crud('/api/companies', 'COMPANY'),
  'PUT /api/companies/:id/deactivate': 'COMPANY UPDATE',
  'POST /api/companies/:id/deactivate': 'COMPANY UPDATE',
  ...crud('/api/products', 'PRODUCT', { del: true }),
  ...crud('/api/contracts', 'CONTRACT_LIST'),
  ...crud('/api/contract-successions', 'CONTRACT_SUCCESSION', { del: true }),
  'PUT /api/contract-successions/:id/cancel': 'CONTRACT_SUCCESSION UPDATE',
  'POST /api/contract-successions/:id/cancel': 'CONTRACT_SUCCESSION UPDATE',
  ...crud('/api/agent-contracts', 'AGENT_CONTRACT', { del: true }),
  ...crud('/api/agent-licenses', 'AGENT_LICENSE', { del: true }),
  ...crud('/api/agent-trainings', 'AGENT_TRAINING', { del: true }),
  ...crud('/api/contract-endorsements', 'ENDORSE', { del: true }),
  ...crud('/api/contract-complaints', 'COMPLAINT', { del: true }),
};

describe('routes of organization, people, products and contracts', () => {
  it('every route declares the (menu, perm) pair of docs/menus-and-routing.md, and nothing else is exposed', () => {
    const actual = Object.fromEntries(seen.map((s) => [s.route, s.access]));
    expect(actual).toEqual(EXPECTED);
    assertAllRoutesGuarded(ctx.app);
  });

  it('the OpenAPI document builds and lists the paths', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/orgs', '/api/agents/{id}/history', '/api/contract-successions/{id}/cancel']));
  });

  it('every route needs a token (E401 without one)', async () => {
    for (const route of Object.keys(EXPECTED)) {
      const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
      const res = await ctx.app.inject({ method, url: url.replace(':id', '1') });
      expect(res.statusCode, route).toBe(401);
    }
  });
});
