import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceApp } from '../src/index.js';
import { formatFuzzReport, fuzzOpenApi, type FuzzRequest, type TestContext } from '../src/testing.js';
import { createHardeningContext, HARD_ROLE } from './hardening-app.js';

let ctx: TestContext<ServiceApp>;
let token: string;

beforeAll(async () => {
  ctx = await createHardeningContext({ withBug: true });
  token = await ctx.tokenFor(HARD_ROLE);
});
afterAll(async () => {
  await ctx?.close();
});

describe('fuzzOpenApi', () => {
  it('sends the given number of requests to every operation, except the skipped ones', async () => {
    const report = await fuzzOpenApi({
      app: ctx.app,
      token,
      runsPerOperation: 10,
      skip: { 'GET /api/kit/buggy': 'tested below', 'GET /api/kit/things/excel': 'fails mid-stream on purpose' },
    });
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v3/api-docs' })).json();
    const all = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(report.operations.map((o) => o.operation).sort()).toEqual(all.filter((k) => !k.startsWith('GET /api/kit/buggy') && k !== 'GET /api/kit/things/excel').sort());
    expect(report.operations.every((o) => o.runs === 10)).toBe(true);
    expect(report.skipped).toEqual([
      { operation: 'GET /api/kit/things/excel', reason: 'fails mid-stream on purpose' },
      { operation: 'GET /api/kit/buggy', reason: 'tested below' },
    ]);
    expect(report.runs).toBe(10 * report.operations.length);
    expect(report.failures).toEqual([]);
    expect(report.serverErrors).toBe(0);
    expect(formatFuzzReport(report)).toContain(`${report.operations.length} operations, ${report.runs} requests, 0 x 5xx, 0 failures`);
  });

  it('is deterministic for a seed', async () => {
    const seen: string[][] = [[], []];
    for (const i of [0, 1]) {
      await fuzzOpenApi({
        app: ctx.app,
        token,
        runsPerOperation: 5,
        seed: 7,
        skip: { 'GET /api/kit/buggy': 'not here', 'GET /api/kit/things/excel': 'fails mid-stream on purpose' },
        onResponse: (op, request) => {
          if (op === 'POST /api/kit/things') seen[i]!.push(`${request.url} ${request.payload ?? ''}`);
        },
      });
    }
    expect(seen[0]).toHaveLength(5);
    expect(seen[1]).toEqual(seen[0]);
  });

  it('mixes valid requests (reaching the handler) with NUL, lone surrogates and broken JSON', async () => {
    const requests: FuzzRequest[] = [];
    const statuses: number[] = [];
    await fuzzOpenApi({
      app: ctx.app,
      token,
      runsPerOperation: 60,
      skip: { 'GET /api/kit/buggy': 'not here', 'GET /api/kit/things/excel': 'fails mid-stream on purpose' },
      onResponse: (op, request, res) => {
        if (op !== 'POST /api/kit/things') return;
        requests.push(request);
        statuses.push(res.statusCode);
      },
    });
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(5);
    const text = requests.map((r) => `${r.url} ${r.payload ?? ''}`).join('\n');
    expect(text).toContain('\\u0000');
    expect(text).toMatch(/\\ud[89ab]/i);
  });

  it('reports a download destroyed after its first byte as aborted, not as a 5xx', async () => {
    const report = await fuzzOpenApi({
      app: ctx.app,
      token,
      runsPerOperation: 1,
      document: {
        paths: {
          '/api/kit/things/excel': {
            get: { parameters: [{ in: 'query', name: 'rows', required: true, schema: { type: 'integer', enum: [20000] } }, { in: 'query', name: 'failAfter', required: true, schema: { type: 'integer', enum: [5000] } }] },
          },
        },
      },
    });
    expect(report.serverErrors).toBe(0);
    expect(report.failures.map((f) => [f.operation, f.reason])).toEqual([['GET /api/kit/things/excel', 'aborted']]);
    expect(report.operations[0]!.statuses).toEqual({ aborted: 1 });
  });

  it('finds a route that answers 500 and reports the request', async () => {
    const report = await fuzzOpenApi({ app: ctx.app, token, runsPerOperation: 60, skip: { 'GET /api/kit/things/excel': 'fails on purpose' } });
    expect(report.serverErrors).toBeGreaterThan(0);
    expect(report.failures.length).toBe(report.serverErrors);
    expect(report.failures[0]).toMatchObject({ operation: 'GET /api/kit/buggy', status: 500, reason: 'server-error' });
    expect(report.failures[0]!.request.url).toMatch(/[?&]n=(1\d|20)(&|$)/);
  });
});
