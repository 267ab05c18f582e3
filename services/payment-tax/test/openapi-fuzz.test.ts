import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceApp } from '@csp/service-kit';
import { createTestContext, formatFuzzReport, fuzzOpenApi, type FuzzReport, type TestContext } from '@csp/service-kit/testing';
import { buildApp, SERVICE_NAME } from '../src/app.js';

const RUNS = 15;
let ctx: TestContext<ServiceApp>;
let report: FuzzReport;
let filesDir: string;

beforeAll(async () => {
  filesDir = await mkdtemp(join(tmpdir(), 'payment-tax-fuzz-'));
  ctx = await createTestContext({ buildApp, serviceName: SERVICE_NAME, env: { FILE_STORAGE_DIR: filesDir } });
  report = await fuzzOpenApi({ app: ctx.app, token: ctx.adminToken, runsPerOperation: RUNS });
  console.log(formatFuzzReport(report));
}, 180_000);
afterAll(async () => {
  await ctx?.close();
  await rm(filesDir, { recursive: true, force: true });
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
