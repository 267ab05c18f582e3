import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceApp } from '@csp/service-kit';
import { compareOpenApi, createTestContext, type TestContext } from '@csp/service-kit/testing';
import { buildApp, SERVICE_NAME } from '../src/app.js';

type Ctx = TestContext<ServiceApp>;

/** The OpenAPI document as it was before service kit v2 (issue 9). */
const before: unknown = JSON.parse(readFileSync(new URL('./__snapshots__/openapi.before.json', import.meta.url), 'utf8'));

/** Intended breaking changes, by message (none so far). */
const ALLOWED: string[] = [];

let ctx: Ctx;

beforeAll(async () => {
  ctx = await createTestContext({ buildApp, serviceName: SERVICE_NAME });
});
afterAll(async () => {
  await ctx?.close();
});

describe('wire contract', () => {
  it('keeps every operation, parameter, body field and response field a client of the old API relies on', async () => {
    const current: unknown = (await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' })).json();
    const breaking = compareOpenApi(before, current).map((change) => change.message);
    expect(breaking.filter((message) => !ALLOWED.includes(message))).toEqual([]);
  });
});
