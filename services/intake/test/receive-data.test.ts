import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, insertRaw, seedMaster, stepOf, type Harness } from './helpers.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
  await seedMaster(h.db);
  await h.db
    .insertInto('insurance_company')
    .values([
      { company_code: 'X004', company_name: 'Inactive Carrier', is_active: false },
      { company_code: 'P005', company_name: 'Paused Profile' },
    ])
    .execute();
  await h.db
    .insertInto('company_profile')
    .values([
      { company_code: 'L001', receive_method: 'MANUAL', data_format: 'EXCEL' },
      { company_code: 'N002', receive_method: 'FTP', ftp_host: 'ftp.example.com', ftp_path: '/out' },
      { company_code: 'P005', receive_method: 'MANUAL', is_active: false },
      // F003 has no profile: manual upload
    ])
    .execute();
});

afterAll(async () => {
  await h?.close();
});

describe('receiveData', () => {
  it('receives manual carriers, counts an unsupported method as an error and lets the run go on', async () => {
    const uploaded = await insertRaw(h.db, 'L001', '202504', 'RECRUIT', { POLICY: 'A' });
    const tagged = await insertRaw(h.db, 'F003', '202504', 'RECRUIT', { POLICY: 'B' });
    await h.db
      .updateTable('raw_commission_data')
      .set({ batch_id: 'UPLOAD-7' })
      .where('raw_id', '=', tagged)
      .execute();
    const ftpRow = await insertRaw(h.db, 'N002', '202504', 'RECRUIT', { POLICY: 'C' });

    const status = await h.runMonth('202504');
    expect(status.run.status).toBe('COMPLETED');
    // active carriers F003, L001, N002, P005: two received, FTP not supported, P005's profile inactive
    expect(stepOf(status, 'receiveData')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 4,
      successCount: 2,
      errorCount: 1,
      skippedCount: 1,
    });
    expect(stepOf(status, 'transformData').status).toBe('COMPLETED');
    expect(stepOf(status, 'reconcile').status).toBe('COMPLETED');

    const rows = await h.db
      .selectFrom('raw_commission_data')
      .select(['raw_id', 'batch_id'])
      .where('raw_id', 'in', [uploaded, tagged, ftpRow])
      .orderBy('raw_id')
      .execute();
    expect(rows).toEqual([
      { raw_id: uploaded, batch_id: `RUN-${status.run.jobLogId}` },
      { raw_id: tagged, batch_id: 'UPLOAD-7' },
      { raw_id: ftpRow, batch_id: null },
    ]);
  });

  it('receives only the run company; an inactive carrier asked for explicitly is skipped', async () => {
    let status = await h.runMonth('202505', 'N002');
    expect(stepOf(status, 'receiveData')).toMatchObject({
      totalCount: 1,
      successCount: 0,
      errorCount: 1,
      skippedCount: 0,
    });
    status = await h.runMonth('202505', 'X004');
    expect(stepOf(status, 'receiveData')).toMatchObject({
      totalCount: 1,
      successCount: 0,
      errorCount: 0,
      skippedCount: 1,
    });
  });

  it('fails the run when the run company does not exist', async () => {
    const status = await h.runMonth('202505', 'NOPE');
    expect(status.run).toMatchObject({
      status: 'FAILED',
      errorMessage: 'insurance company NOPE does not exist',
    });
    expect(stepOf(status, 'receiveData').status).toBe('FAILED');
  });
});
