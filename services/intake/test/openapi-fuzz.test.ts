import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceApp } from '@csp/service-kit';
import { createTestContext, formatFuzzReport, fuzzOpenApi, type FuzzReport, type TestContext } from '@csp/service-kit/testing';
import { buildApp, SERVICE_NAME } from '../src/app.js';

const RUNS = 15;
let ctx: TestContext<ServiceApp>;
let report: FuzzReport;

beforeAll(async () => {
  ctx = await createTestContext({ buildApp, serviceName: SERVICE_NAME });
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

describe('multipart text (the fuzzer sends JSON only)', () => {
  function multipart(fields: Record<string, string>, fileNameStar: string) {
    const boundary = 'fuzzBoundary42';
    const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''${fileNameStar}\r\nContent-Type: text/csv\r\n\r\npolicy_no,premium\nP1,100\r\n--${boundary}--\r\n`);
    return { payload: Buffer.from(parts.join(''), 'utf8'), 'content-type': `multipart/form-data; boundary=${boundary}` };
  }

  it('a NUL in an uploaded file name or a text field is E411 naming it, not a 500', async () => {
    const outcomes = [];
    for (const [fields, name] of [
      [{ companyCode: 'L001', settleMonth: '202501' }, 'a%00b.csv'],
      [{ companyCode: 'L001', settleMonth: '202501', note: 'x\u0000' }, 'ok.csv'],
    ] as const) {
      const body = multipart(fields, name);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/receive/upload',
        headers: { authorization: `Bearer ${ctx.adminToken}`, 'content-type': body['content-type'] },
        payload: body.payload,
      });
      outcomes.push([res.statusCode, res.json().code, res.json().data?.errors]);
    }
    expect(outcomes).toEqual([
      [400, 'E411', [{ field: 'file', message: 'name must not contain NUL characters' }]],
      [400, 'E411', [{ field: 'note', message: 'must not contain NUL characters' }]],
    ]);
  });
});
