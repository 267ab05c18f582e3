import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHarness,
  insertContract,
  insertRaw,
  seedMaster,
  setConfig,
  stepOf,
  type Harness,
  type MasterIds,
} from './helpers.js';

let h: Harness;
let ids: MasterIds;

beforeAll(async () => {
  h = await createHarness();
  ids = await seedMaster(h.db);
  await h.db
    .insertInto('company_field_mapping')
    .values([
      {
        company_code: 'L001',
        target_table: 'recruit_ledger',
        target_field: 'policy_no',
        source_field: 'POLICY',
      },
      {
        company_code: 'L001',
        target_table: 'recruit_ledger',
        target_field: 'company_amount',
        source_field: 'COMM',
      },
      {
        company_code: 'N002',
        target_table: 'recruit_ledger',
        target_field: 'policy_no',
        source_field: 'POLICY',
      },
      {
        company_code: 'N002',
        target_table: 'recruit_ledger',
        target_field: 'company_amount',
        source_field: 'COMM',
      },
    ])
    .execute();
});

afterAll(async () => {
  await h?.close();
});

async function reconRows(month: string) {
  return h.db
    .selectFrom('reconciliation')
    .select([
      'company_code',
      'expected_amount',
      'actual_amount',
      'diff_amount',
      'recon_status',
      'expected_count',
      'actual_count',
      'resolved_by',
    ])
    .where('settle_month', '=', month)
    .orderBy('company_code')
    .execute();
}

describe('reconcile', () => {
  const MONTH = '202502';

  it('compares the carrier-reported raw totals with the ledger totals per carrier (MATCHED / DIFF at threshold 0)', async () => {
    await insertContract(h.db, ids, 'R-1', '2025-02-03');
    await insertContract(h.db, ids, 'R-2', '2025-02-04');
    await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', { POLICY: 'R-1', COMM: '1000.10' });
    await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', { POLICY: 'R-2', COMM: '2000.20' });
    await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', { POLICY: 'R-404', COMM: '10.00' }); // CONTRACT_NOT_FOUND
    await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', '{broken'); // JSON_PARSE: no amount known, counts 0
    await insertRaw(h.db, 'N002', MONTH, 'RECRUIT', { POLICY: 'R-404', COMM: '5' }); // other carrier's policy: error

    const status = await h.runMonth(MONTH);
    expect(stepOf(status, 'reconcile')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 2,
      successCount: 0,
      errorCount: 2,
    });
    expect(await reconRows(MONTH)).toEqual([
      {
        company_code: 'L001',
        expected_amount: '3010.30',
        actual_amount: '3000.30',
        diff_amount: '10.00',
        recon_status: 'DIFF',
        expected_count: 4,
        actual_count: 2,
        resolved_by: null,
      },
      {
        company_code: 'N002',
        expected_amount: '5.00',
        actual_amount: '0.00',
        diff_amount: '5.00',
        recon_status: 'DIFF',
        expected_count: 1,
        actual_count: 0,
        resolved_by: null,
      },
    ]);
  });

  it('counts a difference up to RECON_DIFF_THRESHOLD as MATCHED and above it as DIFF', async () => {
    await setConfig(h.db, 'RECON_DIFF_THRESHOLD', '10');
    let status = await h.runMonth(MONTH);
    expect(stepOf(status, 'reconcile')).toMatchObject({ totalCount: 2, successCount: 2, errorCount: 0 });
    expect((await reconRows(MONTH)).map((r) => [r.company_code, r.diff_amount, r.recon_status])).toEqual([
      ['L001', '10.00', 'MATCHED'],
      ['N002', '5.00', 'MATCHED'],
    ]);

    await setConfig(h.db, 'RECON_DIFF_THRESHOLD', '9.99');
    status = await h.runMonth(MONTH);
    expect(stepOf(status, 'reconcile')).toMatchObject({ totalCount: 2, successCount: 1, errorCount: 1 });
    expect((await reconRows(MONTH)).map((r) => [r.company_code, r.diff_amount, r.recon_status])).toEqual([
      ['L001', '10.00', 'DIFF'],
      ['N002', '5.00', 'MATCHED'],
    ]);
  });

  it('keeps an accepted difference while the figures stay the same and clears it when they change', async () => {
    await h.db
      .updateTable('reconciliation')
      .set({ resolved_by: 1, resolved_at: new Date() })
      .where('settle_month', '=', MONTH)
      .execute();
    await h.runMonth(MONTH);
    expect((await reconRows(MONTH)).map((r) => r.resolved_by)).toEqual([1, 1]);

    await insertRaw(h.db, 'N002', MONTH, 'RECRUIT', { POLICY: 'R-405', COMM: '1' });
    await h.runMonth(MONTH, 'N002');
    expect((await reconRows(MONTH)).map((r) => [r.company_code, r.expected_amount, r.resolved_by])).toEqual([
      ['L001', '3010.30', 1],
      ['N002', '6.00', null],
    ]);
  });

  it('fails the run with a clear message when the threshold is not a number', async () => {
    await setConfig(h.db, 'RECON_DIFF_THRESHOLD', 'ten');
    const status = await h.runMonth(MONTH);
    expect(status.run).toMatchObject({
      status: 'FAILED',
      errorMessage: 'system_config RECON_DIFF_THRESHOLD is not a non-negative number',
    });
    await setConfig(h.db, 'RECON_DIFF_THRESHOLD', '0');
  });
});
