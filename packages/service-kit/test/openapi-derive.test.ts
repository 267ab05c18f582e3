import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIdOf, type ServiceApp } from '../src/index.js';
import type { TestContext } from '../src/testing.js';
import { bearer, createHardeningContext, HARD_MENU, HARD_ROLE } from './hardening-app.js';

let ctx: TestContext<ServiceApp>;
let token: string;
type Operation = { operationId?: string; security?: unknown; 'x-permission'?: unknown; summary?: string };
let doc: { paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  ctx = await createHardeningContext();
  token = await ctx.tokenFor(HARD_ROLE);
  doc = (await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' })).json();
});
afterAll(async () => {
  await ctx?.close();
});

function operations() {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));
}

describe('operationIdOf', () => {
  it('is the method plus every path segment, params as By<Name>, without the /api prefix', () => {
    expect(operationIdOf('GET', '/api/companies')).toBe('getCompanies');
    expect(operationIdOf('get', '/api/companies/{id}')).toBe('getCompaniesById');
    expect(operationIdOf('PUT', '/api/settle/{id}/confirm')).toBe('putSettleByIdConfirm');
    expect(operationIdOf('POST', '/api/settle/:id/confirm')).toBe('postSettleByIdConfirm');
    expect(operationIdOf('DELETE', '/api/common/codes/groups/{groupCode}/codes/{code}')).toBe('deleteCommonCodesGroupsByGroupCodeCodesByCode');
    expect(operationIdOf('GET', '/api/chargeback-grades/excel')).toBe('getChargebackGradesExcel');
    expect(operationIdOf('GET', '/v3/api-docs')).toBe('getV3ApiDocs');
  });
});

describe('OpenAPI for client generators', () => {
  it('gives every operation a unique operationId', () => {
    const ids = operations().map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/kit/things']!.get!.operationId).toBe('getKitThings');
    expect(doc.paths['/api/kit/things/{id}']!.put!.operationId).toBe('putKitThingsById');
  });

  it('serves a POST+PUT action as two operations with distinct ids and the same description', () => {
    const item = doc.paths['/api/kit/things/{id}/approve']!;
    expect(Object.keys(item).sort()).toEqual(['post', 'put']);
    expect(item.post!.operationId).toBe('postKitThingsByIdApprove');
    expect(item.put!.operationId).toBe('putKitThingsByIdApprove');
    expect(item.post!.summary).toBe('Approve a thing');
    expect(item.put!['x-permission']).toEqual({ menu: HARD_MENU, perm: 'APPROVE' });
    // An explicit operationId on such a route is kept, told apart by the method.
    expect(doc.paths['/api/kit/things/{id}/hold']!.post!.operationId).toBe('holdKitThingPost');
    expect(doc.paths['/api/kit/things/{id}/hold']!.put!.operationId).toBe('holdKitThingPut');
  });

  it('marks public operations with security [] and every other with bearerAuth', () => {
    expect(doc.paths['/api/health']!.get!.security).toEqual([]);
    expect(doc.paths['/api/kit/public']!.get!.security).toEqual([]);
    expect(doc.paths['/api/kit/me']!.get!.security).toEqual([{ bearerAuth: [] }]);
    const others = operations().filter((o) => !['GET /api/health', 'GET /api/kit/public'].includes(o.key));
    expect(others.filter((o) => JSON.stringify(o.op.security) !== JSON.stringify([{ bearerAuth: [] }])).map((o) => o.key)).toEqual([]);
  });

  it('carries x-permission on every perm() operation and only there', () => {
    expect(doc.paths['/api/kit/things']!.post!['x-permission']).toEqual({ menu: HARD_MENU, perm: 'CREATE' });
    expect(doc.paths['/api/kit/things/excel']!.get!['x-permission']).toEqual({ menu: HARD_MENU, perm: 'EXPORT' });
    expect(doc.paths['/api/kit/me']!.get!['x-permission']).toBeUndefined();
    expect(doc.paths['/api/health']!.get!['x-permission']).toBeUndefined();
    const withoutPermission = operations().filter((o) => o.key.startsWith('GET /api/kit/things') || o.key.includes('/api/kit/things')).filter((o) => !o.op['x-permission']);
    expect(withoutPermission.map((o) => o.key)).toEqual([]);
  });
});

describe('action(): one definition, POST and PUT', () => {
  it('answers both verbs with the same handler, typed params and body', async () => {
    for (const method of ['POST', 'PUT'] as const) {
      const res = await ctx.app.inject({ method, url: '/api/kit/things/7/approve', headers: bearer(token), payload: { note: 'fine' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ id: 7, note: 'fine', method });
    }
  });

  it('validates and guards both verbs alike', async () => {
    const bad = await ctx.app.inject({ method: 'POST', url: '/api/kit/things/0/approve', headers: bearer(token), payload: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.errors).toEqual([{ field: 'id', message: expect.any(String) }]);
    const anonymous = await ctx.app.inject({ method: 'PUT', url: '/api/kit/things/7/approve', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });
});
