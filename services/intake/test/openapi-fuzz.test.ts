import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceApp } from '@csp/service-kit';
import { createTestContext, formatFuzzReport, fuzzOpenApi, type FuzzReport, type TestContext } from '@csp/service-kit/testing';
import { buildApp, SERVICE_NAME } from '../src/app.js';
import { intakeDb } from '../src/db.js';

const RUNS = 15;
const MULTIPART_RUNS = 30;
let ctx: TestContext<ServiceApp>;
let report: FuzzReport;
let multipartReport: FuzzReport;
let peakRssGrowthMb = 0;

/** Carriers of every format with mappings, and a template, so uploads reach their readers. */
async function seedUploadTargets(): Promise<void> {
  await intakeDb(ctx.db)
    .insertInto('insurance_company')
    .values(['FZ1', 'FZ2', 'FZ3'].map((code) => ({ company_code: code, company_name: `Fuzz ${code}`, company_type: 'LIFE' })))
    .execute();
  const call = async (url: string, payload: object, method: 'POST' | 'PUT' = 'POST') => {
    const res = await ctx.app.inject({ method, url, headers: { authorization: `Bearer ${ctx.adminToken}` }, payload });
    expect(res.json()).toMatchObject({ success: true });
    return res.json().data as { id: number };
  };
  await call('/api/mapping/profiles', { companyCode: 'FZ1', dataFormat: 'CSV' });
  await call('/api/mapping/profiles', { companyCode: 'FZ3', dataFormat: 'JSON' });
  for (const [company, source] of [['FZ1', 'POLICY'], ['FZ2', 'POLICY'], ['FZ3', 'policy']] as const) {
    await call(`/api/mapping/${company}/fields`, { targetTable: 'recruit_ledger', targetField: 'policy_no', sourceField: source, sortOrder: 1 });
  }
  const template = await call('/api/upload-templates', {
    templateCode: 'FZRATES',
    templateName: 'fuzz',
    category: 'TEST',
    targetTable: 'commission_rate',
    companyCode: 'FZ1',
  });
  await call(
    `/api/upload-templates/${template.id}/columns`,
    { columns: [{ sourceColumn: 'A', targetField: 'product_code' }, { sourceColumn: 'B', targetField: 'commission_year' }, { sourceColumn: 'C', targetField: 'rate_pct' }, { sourceColumn: 'D', targetField: 'effective_from', targetType: 'DATE' }] },
    'PUT',
  );
}

const months = ['202501', '202412'];
const MULTIPART = {
  'POST /api/receive/upload': {
    fields: { companyCode: ['FZ1', 'FZ2', 'FZ3'], settleMonth: months, dataType: ['RECRUIT', 'MAINTAIN'], replace: ['true', 'false'] },
  },
  'POST /api/mapping/{companyCode}/test-parse': {
    params: { companyCode: ['FZ1', 'FZ2', 'FZ3'] },
    fields: { settleMonth: months, dataType: ['RECRUIT'], limit: ['10'] },
  },
  'POST /api/upload-templates/excel-headers': {
    fields: { headerRow: ['1', '0', '2'], sheetIndex: ['0', '1'], previewRows: ['5'], encoding: ['UTF-8', 'CP949', 'UTF-16LE'] },
  },
  'POST /api/upload/{templateCode}': { params: { templateCode: ['FZRATES'] }, fields: { encoding: ['UTF-8', 'CP949'] } },
  'POST /api/upload/{templateCode}/preview': {
    params: { templateCode: ['FZRATES'] },
    query: { limit: ['5', '100'] },
    fields: { encoding: ['UTF-8'] },
  },
};

beforeAll(async () => {
  ctx = await createTestContext({ buildApp, serviceName: SERVICE_NAME });
  report = await fuzzOpenApi({ app: ctx.app, token: ctx.adminToken, runsPerOperation: RUNS });
  console.log(formatFuzzReport(report));

  await seedUploadTargets();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    // only the upload operations: an empty document, the forms listed above
    multipartReport = await fuzzOpenApi({
      app: ctx.app,
      token: ctx.adminToken,
      document: { paths: {} },
      multipart: MULTIPART,
      multipartRuns: MULTIPART_RUNS,
    });
  } finally {
    clearInterval(sampler);
  }
  peakRssGrowthMb = Math.round((peak - baseline) / (1024 * 1024));
  console.log(formatFuzzReport(multipartReport));
  console.log(`multipart fuzz: peak RSS growth ${peakRssGrowthMb} MB`);
}, 900_000);
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

describe('OpenAPI fuzz of the upload operations (multipart, hostile files)', () => {
  it(`sends ${MULTIPART_RUNS} generated forms to each of the ${Object.keys(MULTIPART).length} upload operations`, () => {
    expect(multipartReport.operations.map((o) => [o.operation, o.runs])).toEqual(
      Object.keys(MULTIPART).map((key) => [`${key} [multipart]`, MULTIPART_RUNS]),
    );
    expect(multipartReport.runs).toBe(Object.keys(MULTIPART).length * MULTIPART_RUNS);
  });

  it('never answers with a 5xx and always with the envelope; zip bombs are refused without inflating them', () => {
    expect(multipartReport.failures).toEqual([]);
    expect(multipartReport.serverErrors).toBe(0);
    // a 1 GiB shared-strings bomb read into memory would add over 2 GB (UTF-16 strings)
    expect(peakRssGrowthMb).toBeLessThan(400);
  });
});

describe('multipart text (file names and form fields)', () => {
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
