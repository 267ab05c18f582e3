import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatFuzzReport, fuzzOpenApi, type FuzzReport } from '@csp/service-kit/testing';
import { startContext, type Ctx } from './helpers.js';

const RUNS = 15;
let ctx: Ctx;
let report: FuzzReport;

beforeAll(async () => {
  ctx = await startContext();
  report = await fuzzOpenApi({ app: ctx.app, token: ctx.adminToken, runsPerOperation: RUNS });
  console.log(formatFuzzReport(report));
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe('OpenAPI fuzz (every operation, fixed seed)', () => {
  it(`sends ${RUNS} generated requests to every operation`, () => {
    expect(report.operations.length).toBeGreaterThan(0);
    expect(report.operations.filter((o) => o.runs !== RUNS)).toEqual([]);
  });

  it('never answers with a 5xx and always with the envelope', () => {
    expect(report.failures).toEqual([]);
    expect(report.serverErrors).toBe(0);
  });
});
