import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import iconv from 'iconv-lite';
import { buildGatewayApp } from '@csp/gateway/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csv, startApi, xlsx, type Api } from './api-helpers.js';
import { insertContract, insertProduct, seedMaster } from './helpers.js';

/**
 * Carrier files for a month that was already calculated (its ledger rows exist with the system's
 * figures), received and processed (steps 2-3) through the gateway: per carrier MATCHED or DIFF
 * with the differences worked out by hand, and the reported figures on the existing ledger rows.
 */
let api: Api;
let gateway: FastifyInstance;
let base: string;
const MONTH = '202506';

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
  companyCode: string,
  name: string,
  content: Buffer,
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('companyCode', companyCode);
  form.append('settleMonth', MONTH);
  form.append('file', new Blob([new Uint8Array(content)]), name);
  const res = await fetch(`${base}/api/receive/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.ctx.adminToken}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

/** The system's figures of a calculated month: one CALCULATED ledger row per contract. */
async function calculatedRow(
  table: 'recruit_ledger' | 'maintain_ledger',
  contractId: number,
  companyAmount: string,
  commissionYear: number,
) {
  const c = await api.db
    .selectFrom('contract as c')
    .innerJoin('product as p', 'p.product_id', 'c.product_id')
    .innerJoin('insurance_company as ic', 'ic.company_id', 'p.company_id')
    .select([
      'c.agent_id',
      'c.policy_no',
      'c.premium',
      'p.product_code',
      'p.insurance_type',
      'ic.company_code',
    ])
    .where('c.contract_id', '=', contractId)
    .executeTakeFirstOrThrow();
  await api.db
    .insertInto(table)
    .values({
      contract_id: contractId,
      agent_id: c.agent_id,
      policy_no: c.policy_no,
      company_code: c.company_code,
      product_code: c.product_code,
      insurance_type: c.insurance_type,
      commission_year: commissionYear,
      premium: c.premium,
      pay_method: 'MONTHLY',
      company_rate: '1',
      company_amount: companyAmount,
      settle_month: MONTH,
    })
    .execute();
}

beforeAll(async () => {
  api = await startApi();
  const ids = await seedMaster(api.db);
  const n002 = { ...ids, productId: await insertProduct(api.db, 'N002', 'NP-1') };
  const f003 = { ...ids, productId: await insertProduct(api.db, 'F003', 'FP-1') };
  // L001: two recruits and two maintains; N002: one of each; F003: one maintain
  const l1 = await insertContract(api.db, ids, 'L-1', '2025-06-03', '100000.00');
  const l2 = await insertContract(api.db, ids, 'L-2', '2025-06-20', '50000.00');
  const l3 = await insertContract(api.db, ids, 'L-3', '2023-03-10', '30000.00');
  const l4 = await insertContract(api.db, ids, 'L-4', '2024-01-15', '25050.00');
  const n1 = await insertContract(api.db, n002, 'N-1', '2025-06-11', '70000.00');
  const n2 = await insertContract(api.db, n002, 'N-2', '2022-09-01', '40000.00');
  const f1 = await insertContract(api.db, f003, 'F-1', '2023-02-01', '60000.00');
  await calculatedRow('recruit_ledger', l1, '1000.00', 1);
  await calculatedRow('recruit_ledger', l2, '500.00', 1);
  await calculatedRow('maintain_ledger', l3, '300.00', 3);
  await calculatedRow('maintain_ledger', l4, '250.50', 2);
  await calculatedRow('recruit_ledger', n1, '700.00', 1);
  await calculatedRow('maintain_ledger', n2, '120.00', 3);
  await calculatedRow('maintain_ledger', f1, '180.00', 3);

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

  // profiles and mappings (both ledgers, one data type per row) through the gateway
  for (const [company, profile, names] of [
    ['L001', { dataFormat: 'CSV' }, ['POLICY', 'PREM', 'COMM', 'YEAR']],
    ['N002', { dataFormat: 'CSV', fileEncoding: 'CP949' }, ['증권번호', '보험료', '수수료', '차년도']],
    ['F003', { dataFormat: 'EXCEL' }, ['Policy', 'Premium', 'Commission', 'Year']],
  ] as const) {
    expect((await call('POST', '/api/mapping/profiles', { companyCode: company, ...profile })).status).toBe(
      200,
    );
    for (const table of ['recruit_ledger', 'maintain_ledger']) {
      for (const [i, target] of ['policy_no', 'premium', 'company_amount', 'commission_year'].entries()) {
        const saved = await call('POST', `/api/mapping/${company}/fields`, {
          targetTable: table,
          targetField: target,
          sourceField: names[i],
          isRequired: target === 'policy_no' || target === 'company_amount',
          sortOrder: i + 1,
        });
        expect(saved.status).toBe(200);
      }
    }
  }
});

afterAll(async () => {
  await gateway?.close();
  await api?.close();
});

describe('carrier files on a calculated month, through the gateway', () => {
  it('processes three carriers: one MATCHED, two DIFF with the differences worked out by hand', async () => {
    // L001 (CSV): L-2 and L-4 differ from the system's figures; P-404 is no contract of ours
    const l001 = await upload(
      'L001',
      'l001-202506.csv',
      Buffer.from(
        csv([
          ['POLICY', 'DATA_TYPE', 'YEAR', 'PREM', 'COMM'],
          ['L-1', 'RECRUIT', '1', '100000', '1000.00'],
          ['L-2', 'RECRUIT', '1', '50000', '480.00'],
          ['L-3', 'MAINTAIN', '3', '30000', '300.00'],
          ['L-4', 'MAINTAIN', '2', '25050', '260.50'],
          ['P-404', 'MAINTAIN', '2', '1000', '99.99'],
        ]),
      ),
    );
    expect(l001.body).toMatchObject({ success: true, data: { rowCount: 5, fileKind: 'CSV' } });
    // N002 (CP949 CSV): all as calculated
    const n002 = await upload(
      'N002',
      'n002-202506.csv',
      iconv.encode(
        csv([
          ['증권번호', 'DATA_TYPE', '차년도', '보험료', '수수료'],
          ['N-1', 'RECRUIT', '1', '70000', '700.00'],
          ['N-2', 'MAINTAIN', '3', '40000', '120.00'],
        ]),
        'cp949',
      ),
    );
    expect(n002.body).toMatchObject({ success: true, data: { rowCount: 2, fileKind: 'CSV' } });
    // F003 (XLSX): F-1 reported twice (a correction line): the later figure replaces the first on the row
    const f003 = await upload(
      'F003',
      'f003-202506.xlsx',
      await xlsx([
        ['Policy', 'DATA_TYPE', 'Year', 'Premium', 'Commission'],
        ['F-1', 'MAINTAIN', 3, 60000, 100],
        ['F-1', 'MAINTAIN', 3, 60000, 180],
      ]),
    );
    expect(f003.body).toMatchObject({ success: true, data: { rowCount: 2, fileKind: 'XLSX' } });

    const outcomes = [];
    for (const company of ['L001', 'N002', 'F003']) {
      const res = await call('POST', '/api/receive/process', { companyCode: company, settleMonth: MONTH });
      expect(res.status).toBe(200);
      outcomes.push([company, ...res.body.data.steps.map((s: any) => [s.step, s.total, s.success, s.error])]);
    }
    expect(outcomes).toEqual([
      ['L001', ['transformData', 5, 4, 1], ['reconcile', 1, 0, 1]],
      ['N002', ['transformData', 2, 2, 0], ['reconcile', 1, 1, 0]],
      ['F003', ['transformData', 2, 2, 0], ['reconcile', 1, 0, 1]],
    ]);

    const status = await call('GET', `/api/receive/status?settleMonth=${MONTH}`);
    const carriers = status.body.data.carriers.map((c: any) => [
      c.companyCode,
      c.reconStatus,
      c.expectedAmount,
      c.actualAmount,
      c.diffAmount,
      c.okCount,
      c.errorCount,
    ]);
    // L001: expected 1000 + 480 + 300 + 260.50 + 99.99 = 2140.49, actual (the 4 matched rows) 2040.50
    // N002: 700 + 120 = 820.00 on both sides
    // F003: expected 100 + 180 = 280.00, actual the one ledger row's 180.00
    expect(carriers).toEqual([
      ['F003', 'DIFF', '280.00', '180.00', '100.00', 2, 0],
      ['L001', 'DIFF', '2140.49', '2040.50', '99.99', 4, 1],
      ['N002', 'MATCHED', '820.00', '820.00', '0.00', 2, 0],
    ]);
    expect(carriers.filter((c: string[]) => c[1] === 'MATCHED')).toHaveLength(1);
    expect(carriers.filter((c: string[]) => c[1] === 'DIFF')).toHaveLength(2);

    // The existing rows carry the reported figures next to the system's, untouched; per DECISIONS their
    // row-level MATCHED/DIFF is the next calcRecruit/calcMaintain's (reported - system: L-2 -20.00, L-4 +10.00)
    const rows = await api.db
      .selectFrom('recruit_ledger')
      .select(['policy_no', 'company_amount', 'reported_company_amount', 'reconcile_status', 'version'])
      .union(
        api.db
          .selectFrom('maintain_ledger')
          .select(['policy_no', 'company_amount', 'reported_company_amount', 'reconcile_status', 'version']),
      )
      .orderBy('policy_no')
      .execute();
    expect(
      rows.map((r) => [r.policy_no, r.company_amount, r.reported_company_amount, r.reconcile_status]),
    ).toEqual([
      ['F-1', '180.00', '180.00', 'PENDING'],
      ['L-1', '1000.00', '1000.00', 'PENDING'],
      ['L-2', '500.00', '480.00', 'PENDING'],
      ['L-3', '300.00', '300.00', 'PENDING'],
      ['L-4', '250.50', '260.50', 'PENDING'],
      ['N-1', '700.00', '700.00', 'PENDING'],
      ['N-2', '120.00', '120.00', 'PENDING'],
    ]);
    expect(
      await api.db
        .selectFrom('recruit_ledger')
        .select('ledger_id')
        .where('settle_month', '=', MONTH)
        .execute(),
    ).toHaveLength(3);

    const errors = await call('GET', `/api/receive/errors?settleMonth=${MONTH}`);
    expect(errors.body.data.list.map((e: any) => [e.companyCode, e.errorType, e.errorValue])).toEqual([
      ['L001', 'CONTRACT_NOT_FOUND', 'P-404'],
    ]);
  });
});
