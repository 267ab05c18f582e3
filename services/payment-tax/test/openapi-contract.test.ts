import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceApp } from '@csp/service-kit';
import { compareOpenApi, createTestContext, type TestContext } from '@csp/service-kit/testing';
import { buildApp, SERVICE_NAME } from '../src/app.js';

/** The OpenAPI document as it was before service kit v2 (issue 9): only the health check then. */
const before: unknown = JSON.parse(readFileSync(new URL('./__snapshots__/openapi.before.json', import.meta.url), 'utf8'));

let ctx: TestContext<ServiceApp>;

beforeAll(async () => {
  ctx = await createTestContext({ buildApp, serviceName: SERVICE_NAME });
});
afterAll(async () => {
  await ctx?.close();
});

describe('wire contract', () => {
  it('keeps every operation a client of the old API relies on', async () => {
    const current: unknown = (await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' })).json();
    expect(compareOpenApi(before, current).map((change) => change.message)).toEqual([]);
  });

  it('gives every operation an operationId and its permission', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' })).json() as {
      paths: Record<string, Record<string, { operationId?: string; 'x-permission'?: unknown; security?: unknown[] }>>;
    };
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op.operationId) missing.push(`${method} ${path}: operationId`);
        if (path.startsWith('/api/') && path !== '/api/health' && path !== '/api/meta/resources' && !op['x-permission']) {
          missing.push(`${method} ${path}: x-permission`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
  });
});
