import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bearer, createDemoContext, DEMO_MENU, DEMO_ROLE, grant, LogSink } from './demo-app.js';
import type { TestContext } from '../src/testing.js';
import type { ServiceApp } from '../src/index.js';

const logSink = new LogSink();
let ctx: TestContext<ServiceApp>;
let token: string;

beforeAll(async () => {
  ctx = await createDemoContext({ logSink });
  await grant(ctx.db, DEMO_ROLE, DEMO_MENU, ['READ', 'CREATE', 'UPDATE', 'DELETE', 'EXPORT']);
  token = await ctx.tokenFor(DEMO_ROLE);
});
afterAll(async () => {
  await ctx?.close();
});

describe('envelope and validation', () => {
  it('wraps a success in the ApiResponse envelope', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/demo/validate',
      headers: bearer(token),
      payload: { name: 'x', items: [{ amount: 12.5, rate: '3.30' }, { amount: '7' }] },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      code: '0000',
      message: 'Success',
      data: { name: 'x', items: [{ amount: '12.50', rate: '3.3' }, { amount: '7.00' }] },
      timestamp: expect.any(String),
    });
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  });

  it('an invalid body gives HTTP 400 E411 with camelCase dotted field paths', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/demo/validate',
      headers: bearer(token),
      payload: { name: '', items: [{ amount: '1.00' }, { amount: '1.234' }] },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.code).toBe('E411');
    expect(body.data.errors.map((e: { field: string }) => e.field)).toEqual(['name', 'items.1.amount']);
    expect(body.data.errors[1].message).toBe('must have at most 2 decimal places');
  });

  it('an invalid query parameter gives E411 naming the parameter', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/demo/search?pageSize=5000&minAmount=abc', headers: bearer(token) });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('E411');
    expect(body.data.errors.map((e: { field: string }) => e.field).sort()).toEqual(['minAmount', 'pageSize']);
  });

  it('query numbers are coerced and defaults applied', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/demo/search?pageNum=2&sortField=amount&sortOrder=desc', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ pageNum: 2, pageSize: 20, sortField: 'amount', sortOrder: 'DESC' });
  });

  it('a sortField outside the documented list is E411', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/demo/search?sortField=item_code;drop', headers: bearer(token) });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('E411');
    expect(res.json().data.errors[0].field).toBe('sortField');
  });

  it('an unknown route is an enveloped E404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/nothing-here', headers: bearer(token) });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 'E404' });
  });

  it('malformed JSON is an enveloped E400', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/demo/validate',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'E400' });
  });
});

describe('errors', () => {
  it('a unique-key violation is B009 (HTTP 409)', async () => {
    const payload = { itemCode: 'DUP-1', itemName: 'one', amount: '1.00' };
    const first = await ctx.app.inject({ method: 'POST', url: '/api/demo-items', headers: bearer(token), payload });
    expect(first.statusCode).toBe(200);
    const second = await ctx.app.inject({ method: 'POST', url: '/api/demo-items', headers: bearer(token), payload });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ success: false, code: 'B009', message: 'Duplicate data' });
  });

  it('an unexpected error is E500 without its message, and is logged with the request id', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/demo/boom',
      headers: { ...bearer(token), 'x-request-id': 'req-boom-1' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ success: false, code: 'E500', message: 'Internal server error' });
    expect(res.body).not.toContain('secret internals');
    const logged = logSink.lines.find((l) => l.msg === 'unhandled error' && l.reqId === 'req-boom-1');
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('secret internals');
  });
});

describe('platform routes', () => {
  it('echoes x-request-id and generates one when absent', async () => {
    const given = await ctx.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const generated = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GET /api/health is public and reports db and redis', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ status: 'UP', service: 'demo-service', db: 'UP', redis: 'UP' });
  });

  it('serves the OpenAPI document publicly with the service name as title', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.title).toBe('demo-service');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/demo-items', '/api/demo-items/{id}']));
    expect(doc.paths['/api/demo-items'].get.tags).toEqual(['demo']);
    expect(doc.paths['/v3/api-docs']).toBeUndefined();
    expect(doc.paths['/api/health'].get.security).toEqual([]);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    // Update bodies carry an optional version (spec 2.1; a stale one is B002).
    const updateBody = doc.paths['/api/demo-items/{id}'].put.requestBody.content['application/json'].schema;
    expect(updateBody.required).toEqual(expect.arrayContaining(['itemCode']));
    expect(updateBody.required).not.toContain('version');
    expect(updateBody.properties.version).toBeDefined();
  });

  it('the authorization header never reaches the logs', async () => {
    await ctx.app.inject({ method: 'GET', url: '/api/demo/me', headers: bearer(token) });
    expect(logSink.text()).not.toContain(token);
  });

  it('the app exposes db, pool, redis, config and cipher', async () => {
    const { rows } = await ctx.app.pool.query<{ one: number }>('select 1 as one');
    expect(rows[0]!.one).toBe(1);
    const r = await sql<{ two: number }>`select 2 as two`.execute(ctx.app.db);
    expect(r.rows[0]!.two).toBe(2);
    expect(await ctx.app.redis.ping()).toBe('PONG');
    expect(ctx.app.config.SERVICE_NAME).toBe('demo-service');
    expect(ctx.app.cipher.decrypt(ctx.app.cipher.encrypt('x'))).toBe('x');
  });
});
