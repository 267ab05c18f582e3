import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareOpenApi } from '@csp/service-kit/testing';
import { setup, type Ctx } from './helpers.js';

/** The OpenAPI document as it was before service kit v2 (issue 9). */
const before: unknown = JSON.parse(readFileSync(new URL('./__snapshots__/openapi.before.json', import.meta.url), 'utf8'));

/** Intended breaking changes, by message (none so far). */
const ALLOWED: string[] = [];

let ctx: Ctx;

beforeAll(async () => {
  ctx = await setup();
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

  it('defines every component it refers to (recursive trees are named components, not a dangling schema0)', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' })).json() as { components?: { schemas?: Record<string, unknown> } };
    const refs = new Set([...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!));
    expect([...refs].filter((name) => !(name in (doc.components?.schemas ?? {})))).toEqual([]);
    expect(refs.size).toBeGreaterThan(0);
  });
});
