import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceApp } from '@csp/service-kit';
import { compareOpenApi, type TestContext } from '@csp/service-kit/testing';
import { createAnalyticsContext } from './helpers.js';

/** The first analytics API (issue 14). `UPDATE_OPENAPI_SNAPSHOT=1` rewrites it after a deliberate change. */
const SNAPSHOT = new URL('./__snapshots__/openapi.json', import.meta.url);

let ctx: TestContext<ServiceApp>;
let current: { paths: Record<string, Record<string, { operationId?: string; 'x-permission'?: unknown }>> };

beforeAll(async () => {
  ctx = await createAnalyticsContext();
  current = (await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' })).json();
  if (process.env.UPDATE_OPENAPI_SNAPSHOT === '1' || !existsSync(SNAPSHOT)) writeFileSync(SNAPSHOT, `${JSON.stringify(current, null, 1)}\n`);
});
afterAll(async () => {
  await ctx?.close();
});

describe('wire contract', () => {
  it('keeps every operation a client of the snapshot relies on', () => {
    const before: unknown = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    expect(compareOpenApi(before, current).map((change) => change.message)).toEqual([]);
  });

  it('gives every operation an operationId and its permission', () => {
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(current.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op.operationId) missing.push(`${method} ${path}: operationId`);
        if (path.startsWith('/api/') && path !== '/api/health' && path !== '/api/meta/resources' && !op['x-permission']) {
          missing.push(`${method} ${path}: x-permission`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(Object.keys(current.paths).length).toBeGreaterThan(25);
  });
});
