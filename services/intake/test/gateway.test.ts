import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildGatewayApp } from '@csp/gateway/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv, startApi, xlsx, type Api } from './api-helpers.js';
import { insertContract, seedMaster } from './helpers.js';

let api: Api;
let gateway: FastifyInstance;
let base: string;

function urlOf(app: FastifyInstance): string {
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${api.ctx.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

async function upload(
  path: string,
  fields: Record<string, string>,
  name: string,
  content: Buffer,
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(content)]), name);
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.ctx.adminToken}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  api = await startApi();
  const ids = await seedMaster(api.db);
  await insertContract(api.db, ids, 'G-1', '2025-06-03');
  await api.ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const unused = 'http://127.0.0.1:9';
  gateway = await buildGatewayApp({
    nodeEnv: 'test',
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    trustProxy: false,
    upstreams: {
      'auth-platform': unused,
      'master-data': unused,
      intake: urlOf(api.ctx.app),
      'ledger-settlement': unused,
      'payment-tax': unused,
      analytics: unused,
    },
    loginRateLimit: { max: 100, windowMs: 60_000 },
    connectTimeoutMs: 3_000,
    responseTimeoutMs: 60_000,
    connectionsPerUpstream: 8,
    healthTimeoutMs: 1_500,
    openApiCacheMs: 30_000,
  });
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  base = urlOf(gateway);
});

afterAll(async () => {
  await gateway?.close();
  await api?.close();
});

describe('intake through the gateway', () => {
  it('receives a carrier file, processes the month and reports the status', async () => {
    expect(
      (await call('POST', '/api/mapping/profiles', { companyCode: 'L001', dataFormat: 'CSV' })).status,
    ).toBe(200);
    await call('POST', '/api/mapping/L001/fields', {
      targetTable: 'recruit_ledger',
      targetField: 'policy_no',
      sourceField: 'POLICY',
      sortOrder: 1,
    });
    await call('POST', '/api/mapping/L001/fields', {
      targetTable: 'recruit_ledger',
      targetField: 'company_amount',
      sourceField: 'COMM',
      sortOrder: 2,
    });
    const up = await upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: '202506', dataType: 'RECRUIT' },
      'g.csv',
      Buffer.from(
        csv([
          ['POLICY', 'COMM'],
          ['G-1', '777.70'],
        ]),
      ),
    );
    expect(up).toMatchObject({ status: 200, body: { success: true, data: { rowCount: 1 } } });
    const dup = await upload(
      '/api/receive/upload',
      { companyCode: 'L001', settleMonth: '202506', dataType: 'RECRUIT' },
      'g.csv',
      Buffer.from(
        csv([
          ['POLICY', 'COMM'],
          ['G-1', '777.70'],
        ]),
      ),
    );
    expect(dup).toMatchObject({ status: 409, body: { code: 'B009' } });
    const processed = await call('POST', '/api/receive/process', {
      companyCode: 'L001',
      settleMonth: '202506',
    });
    expect(processed.body.data.steps[0]).toMatchObject({ total: 1, success: 1 });
    const status = await call('GET', '/api/receive/status?settleMonth=202506&companyCode=L001');
    expect(status.body.data.carriers[0]).toMatchObject({
      okCount: 1,
      reportedAmount: '777.70',
      reconStatus: 'MATCHED',
    });
  });

  it('imports a spreadsheet through a template and refuses a target outside the whitelist', async () => {
    const refused = await call('POST', '/api/upload-templates', {
      templateCode: 'X',
      templateName: 'x',
      category: 'X',
      targetTable: 'settle_master',
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { code: 'E411', message: expect.stringMatching(/^target table 'settle_master' is not allowed/) },
    });
    const created = await call('POST', '/api/upload-templates', {
      templateCode: 'GW_RATES',
      templateName: 'rates',
      category: 'RULE',
      targetTable: 'commission_rate',
      companyCode: 'L001',
    });
    await call('PUT', `/api/upload-templates/${created.body.data.id}/columns`, {
      columns: [
        { sourceColumn: 'A', targetField: 'product_code' },
        { sourceColumn: 'B', targetField: 'commission_year' },
        { sourceColumn: 'C', targetField: 'rate_pct' },
        { sourceColumn: 'D', targetField: 'effective_from' },
      ],
    });
    const content = await xlsx([
      ['Product', 'Year', 'Rate', 'From'],
      ['PR-1', 1, 4.25, '2025-01-01'],
      ['PR-404', 1, 1, '2025-01-01'],
    ]);
    const res = await upload('/api/upload/GW_RATES', {}, 'rates.xlsx', content);
    expect(res.body.data).toMatchObject({
      totalCount: 2,
      successCount: 1,
      errorCount: 1,
      errors: [{ rowNumber: 3, message: 'product_code: product PR-404 does not exist' }],
    });
    const preview = await upload('/api/upload/GW_RATES/preview?limit=500', {}, 'rates.xlsx', content);
    expect(preview).toMatchObject({ status: 400, body: { code: 'E411' } });
  });
});
