import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { loadServiceConfig, signAccessToken, type ServiceApp } from '@csp/service-kit';
import { TEST_ENCRYPT_KEY, TEST_JWT_SECRET } from '@csp/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { csv, multipart, xlsx, type UploadFile } from './api-helpers.js';
import { createHarness, insertContract, seedMaster, stepOf, type Harness } from './helpers.js';

/**
 * The monthly run (BullMQ workers of steps 1-3) on carrier files received through the API: the
 * intake app and the batch harness share one database.
 */
let h: Harness;
let app: ServiceApp;
let redis: Redis;
let storage: string;
let token: string;
const MONTH = '202501';

async function call(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: res.statusCode, body: res.json() };
}

async function upload(fields: Record<string, string>, file: UploadFile) {
  const { payload, headers } = multipart(fields, file);
  const res = await app.inject({
    method: 'POST',
    url: '/api/receive/upload',
    headers: { ...headers, authorization: `Bearer ${token}` },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  h = await createHarness();
  storage = await mkdtemp(join(tmpdir(), 'intake-month-'));
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const config = loadServiceConfig(
    'intake',
    {},
    {
      NODE_ENV: 'test',
      DATABASE_URL: h.tdb.url,
      REDIS_URL: redisUrl,
      JWT_SECRET: TEST_JWT_SECRET,
      ENCRYPT_KEY: TEST_ENCRYPT_KEY,
      LOG_LEVEL: 'silent',
      FILE_STORAGE_DIR: storage,
    },
  );
  redis = new Redis(redisUrl, { keyPrefix: `intake-month-${randomBytes(4).toString('hex')}:` });
  app = await buildApp({ config, db: h.tdb.db, pool: h.tdb.pool, redis });
  await app.ready();
  const admin = await h.db
    .selectFrom('users')
    .select(['user_id', 'login_id', 'user_name'])
    .where('login_id', '=', 'admin')
    .executeTakeFirstOrThrow();
  token = await signAccessToken(app, {
    userId: admin.user_id,
    loginId: admin.login_id,
    userName: admin.user_name,
    roleCodes: ['SUPER_ADMIN'],
    agentId: null,
  });

  const ids = await seedMaster(h.db);
  await insertContract(h.db, ids, 'P-1', '2025-01-10');
  await insertContract(h.db, ids, 'P-2', '2022-05-20');
  for (const [table, field, source, order] of [
    ['recruit_ledger', 'policy_no', 'Policy', 1],
    ['recruit_ledger', 'company_amount', 'Commission', 2],
    ['maintain_ledger', 'policy_no', 'Policy', 1],
    ['maintain_ledger', 'company_amount', 'Commission', 2],
  ] as const) {
    await call('POST', '/api/mapping/L001/fields', {
      targetTable: table,
      targetField: field,
      sourceField: source,
      sortOrder: order,
    });
  }
});

afterAll(async () => {
  await app?.close();
  redis?.disconnect();
  await h?.close();
  await rm(storage, { recursive: true, force: true });
});

describe('the monthly run on received carrier files', () => {
  it('receives, transforms and reconciles an XLSX and a CSV file of one carrier', async () => {
    const first = await upload(
      { companyCode: 'L001', settleMonth: MONTH },
      {
        filename: 'L001-recruit.xlsx',
        content: await xlsx([
          ['Policy', 'Commission', 'DATA_TYPE'],
          ['P-1', 1500.25, 'RECRUIT'],
          ['P-404', 99.75, 'RECRUIT'],
        ]),
      },
    );
    expect(first.body.data).toMatchObject({ rowCount: 2, fileKind: 'XLSX' });
    const second = await upload(
      { companyCode: 'L001', settleMonth: MONTH, dataType: 'MAINTAIN' },
      {
        filename: 'L001-maintain.csv',
        content: Buffer.from(
          csv([
            ['Policy', 'Commission'],
            ['P-2', '300'],
          ]),
        ),
      },
    );
    expect(second.body.data).toMatchObject({ rowCount: 1, fileKind: 'CSV' });

    const status = await h.runMonth(MONTH, 'L001');
    expect(status.run.status).toBe('COMPLETED');
    expect(stepOf(status, 'receiveData')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 1,
      successCount: 1,
    });
    expect(stepOf(status, 'transformData')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 3,
      successCount: 2,
      errorCount: 1,
    });
    expect(stepOf(status, 'reconcile')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 1,
      successCount: 0,
      errorCount: 1,
    });

    const raws = await h.db
      .selectFrom('raw_commission_data')
      .select(['batch_id', 'parse_status'])
      .orderBy('raw_id')
      .execute();
    expect(raws).toEqual([
      { batch_id: `UPLOAD-${first.body.data.receiveFileId}`, parse_status: 'OK' },
      { batch_id: `UPLOAD-${first.body.data.receiveFileId}`, parse_status: 'ERROR' },
      { batch_id: `UPLOAD-${second.body.data.receiveFileId}`, parse_status: 'OK' },
    ]);
    const recruit = await h.db
      .selectFrom('recruit_ledger')
      .select(['policy_no', 'reported_company_amount'])
      .execute();
    const maintain = await h.db
      .selectFrom('maintain_ledger')
      .select(['policy_no', 'commission_year', 'reported_company_amount'])
      .execute();
    expect(recruit).toEqual([{ policy_no: 'P-1', reported_company_amount: '1500.25' }]);
    expect(maintain).toEqual([{ policy_no: 'P-2', commission_year: 3, reported_company_amount: '300.00' }]);
    const recon = await h.db
      .selectFrom('reconciliation')
      .select(['expected_amount', 'actual_amount', 'diff_amount', 'recon_status'])
      .executeTakeFirstOrThrow();
    expect(recon).toEqual({
      expected_amount: '1900.00',
      actual_amount: '1800.25',
      diff_amount: '99.75',
      recon_status: 'DIFF',
    });

    const errors = await call('GET', `/api/receive/errors?settleMonth=${MONTH}`);
    expect(
      errors.body.data.list.map((e: any) => [e.errorType, e.errorValue, e.fileName, e.rowNumber]),
    ).toEqual([['CONTRACT_NOT_FOUND', 'P-404', 'L001-recruit.xlsx', 3]]);
  });
});
