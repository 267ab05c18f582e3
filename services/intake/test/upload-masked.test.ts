import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanMaskedColumns } from '@csp/service-kit/testing';
import { startApi, xlsx, type Api } from './api-helpers.js';
import { seedMaster, type MasterIds } from './helpers.js';

// Issue 22: a masked value in an imported row is a row error naming the column (DECISIONS "write-only").
let api: Api;
let ids: MasterIds;

async function template(code: string, targetTable: string, columns: Array<Record<string, unknown>>) {
  const created = await api.call('POST', '/api/upload-templates', { templateCode: code, templateName: code, category: 'TEST', targetTable });
  expect(created.body).toMatchObject({ success: true });
  const cols = await api.call('PUT', `/api/upload-templates/${created.body.data.id}/columns`, { columns });
  expect(cols.body).toMatchObject({ success: true });
}

async function importRows(code: string, rows: unknown[][]) {
  const res = await api.upload(`/api/upload/${code}`, {}, { filename: `${code}.xlsx`, content: await xlsx(rows) });
  expect(res.body).toMatchObject({ success: true });
  return res.body.data as { successCount: number; errorCount: number; errors: Array<Record<string, unknown>> };
}

beforeAll(async () => {
  api = await startApi();
  ids = await seedMaster(api.db);
});
afterAll(async () => {
  await api?.close();
});

describe('imports refuse masked values', () => {
  it('agent rows with a masked phone, e-mail, resident or account number fail on that column; a full row is imported', async () => {
    await template('MASKED_AGENTS', 'agent', [
      { sourceColumn: 'A', targetField: 'agent_name', isRequired: true },
      { sourceColumn: 'B', targetField: 'org_id', transformRule: 'LOOKUP', transformArgs: 'ORG_BY_NAME' },
      { sourceColumn: 'C', targetField: 'grade_id', transformRule: 'LOOKUP', transformArgs: 'GRADE_BY_CODE' },
      { sourceColumn: 'D', targetField: 'phone' },
      { sourceColumn: 'E', targetField: 'email' },
      { sourceColumn: 'F', targetField: 'resident_no' },
      { sourceColumn: 'G', targetField: 'account_no' },
    ]);
    const result = await importRows('MASKED_AGENTS', [
      ['Name', 'Org', 'Grade', 'Phone', 'E-mail', 'Resident', 'Account'],
      ['Full Row', 'Seoul Branch', 'FC', '010-1111-2222', 'full@example.com', '900101-1234567', '110-222-333333'],
      ['Masked Phone', 'Seoul Branch', 'FC', '010-****-2222', '', '', ''],
      ['Masked Mail', 'Seoul Branch', 'FC', '', 'f***@example.com', '', ''],
      ['Masked Resident', 'Seoul Branch', 'FC', '', '', '900101-*******', ''],
      ['Masked Account', 'Seoul Branch', 'FC', '', '', '', '110-***-******'],
    ]);
    expect(result).toMatchObject({
      successCount: 1,
      errorCount: 4,
      errors: [
        { rowNumber: 3, field: 'phone', message: 'phone: send the full value or leave it out' },
        { rowNumber: 4, field: 'email', message: 'email: send the full value or leave it out' },
        { rowNumber: 5, field: 'resident_no', message: 'resident_no: send the full value or leave it out' },
        { rowNumber: 6, field: 'account_no', message: 'account_no: send the full value or leave it out' },
      ],
    });
  });

  it('a payment row with a masked account number fails on account_no', async () => {
    await template('MASKED_PAYMENTS', 'payment', [
      { sourceColumn: 'A', targetField: 'agent_id' },
      { sourceColumn: 'B', targetField: 'settle_month' },
      { sourceColumn: 'C', targetField: 'amount', targetType: 'AMOUNT' },
      { sourceColumn: 'D', targetField: 'account_no' },
    ]);
    const result = await importRows('MASKED_PAYMENTS', [
      ['Agent', 'Month', 'Amount', 'Account'],
      [String(ids.agentId), '202504', '1000.00', '110-***-******'],
    ]);
    expect(result).toMatchObject({
      successCount: 0,
      errorCount: 1,
      errors: [{ rowNumber: 2, field: 'account_no', message: 'account_no: send the full value or leave it out' }],
    });
  });

  it('after the imports, no agent or payment personal column holds the mask character', async () => {
    const scan = await scanMaskedColumns(api.ctx.app, [
      { table: 'agent', idColumn: 'agent_id', column: 'phone' },
      { table: 'agent', idColumn: 'agent_id', column: 'email' },
      { table: 'agent', idColumn: 'agent_id', column: 'resident_no', encrypted: true },
      { table: 'agent', idColumn: 'agent_id', column: 'account_no', encrypted: true },
      { table: 'payment', idColumn: 'payment_id', column: 'account_no', encrypted: true },
    ]);
    expect(scan.findings).toEqual([]);
    expect(await api.db.selectFrom('agent').select('agent_name').where('agent_name', '=', 'Full Row').execute()).toHaveLength(1);
  });
});
