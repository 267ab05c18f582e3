import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type Ctx } from './helpers.js';

let ctx: Ctx;

beforeAll(async () => {
  ctx = await setup();
});
afterAll(async () => {
  await ctx?.close();
});

describe('OpenAPI document', () => {
  it('is served publicly and lists every endpoint of the service', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.0.3');
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(operations).toMatchSnapshot();
    // Public operations carry no security requirement; everything else needs the bearer token.
    expect(doc.paths['/api/auth/login'].post.security).toEqual([]);
    // Every non-public operation names its scheme itself (kit v2: client generators need it per operation).
    expect(doc.paths['/api/users'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });
});
