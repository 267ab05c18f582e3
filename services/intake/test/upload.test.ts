import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx, startApi, xlsx, type Api } from './api-helpers.js';
import { insertContract, seedMaster, type MasterIds } from './helpers.js';

let api: Api;
let ids: MasterIds;

interface ColumnSpec {
  sourceColumn: string;
  sourceHeader?: string;
  targetField: string;
  targetType?: string;
  transformRule?: string;
  transformArgs?: string;
  isRequired?: boolean;
  defaultValue?: string;
}

async function template(
  code: string,
  targetTable: string,
  columns: ColumnSpec[],
  extra: Record<string, unknown> = {},
): Promise<number> {
  const created = await api.call('POST', '/api/upload-templates', {
    templateCode: code,
    templateName: code,
    category: 'TEST',
    targetTable,
    ...extra,
  });
  expect(created.body).toMatchObject({ success: true });
  const id = created.body.data.id as number;
  const cols = await api.call('PUT', `/api/upload-templates/${id}/columns`, { columns });
  expect(cols.body).toMatchObject({ success: true, data: { count: columns.length } });
  return id;
}

async function importRows(code: string, rows: unknown[][]) {
  const res = await api.upload(
    `/api/upload/${code}`,
    {},
    { filename: `${code}.xlsx`, content: await xlsx(rows) },
  );
  expect(res.body).toMatchObject({ success: true });
  return res.body.data as {
    historyId: number;
    totalCount: number;
    successCount: number;
    errorCount: number;
    errorFileId: number | null;
    errors: any[];
  };
}

async function errorFile(fileId: number | null): Promise<string[][]> {
  expect(fileId).not.toBeNull();
  return readXlsx(await api.storedFile(fileId!));
}

beforeAll(async () => {
  api = await startApi();
  ids = await seedMaster(api.db);
  await api.db
    .updateTable('agent')
    .set({ license_no: 'LIC-1' })
    .where('agent_id', '=', ids.agentId)
    .execute();
  await insertContract(api.db, ids, 'P-1', '2025-04-02');
  await insertContract(api.db, ids, 'P-OLD', '2023-01-15');
});

afterAll(async () => {
  await api?.close();
});

describe('upload templates', () => {
  it('lists the 9 target tables and the fields of one', async () => {
    const tables = await api.call('GET', '/api/upload-templates/target-tables');
    expect(tables.body.data.map((t: any) => t.targetTable)).toEqual([
      'recruit_ledger',
      'maintain_ledger',
      'contract',
      'agent',
      'commission_rate',
      'payout_rule',
      'chargeback_rule',
      'exception_ledger',
      'payment',
    ]);
    const fields = await api.call('GET', '/api/upload-templates/target-fields/payment');
    expect(fields.body.data).toEqual([
      { field: 'agent_id', label: 'Agent ID', type: 'INTEGER', required: true, description: null },
      { field: 'settle_month', label: 'Settle month', type: 'STRING', required: true, description: 'YYYYMM' },
      { field: 'amount', label: 'Amount', type: 'AMOUNT', required: true, description: null },
      {
        field: 'bank_code',
        label: 'Bank code',
        type: 'STRING',
        required: false,
        description: "default the agent's",
      },
      {
        field: 'account_no',
        label: 'Account number',
        type: 'STRING',
        required: false,
        description: "stored encrypted; default the agent's",
      },
      { field: 'transfer_date', label: 'Transfer date', type: 'DATE', required: false, description: null },
    ]);
  });

  it('refuses a target table outside the whitelist (spec 7 rule 10)', async () => {
    const message =
      "target table 'users' is not allowed (allowed: recruit_ledger, maintain_ledger, contract, agent, commission_rate, payout_rule, chargeback_rule, exception_ledger, payment)";
    const created = await api.call('POST', '/api/upload-templates', {
      templateCode: 'BAD',
      templateName: 'bad',
      category: 'X',
      targetTable: 'users',
    });
    expect(created).toMatchObject({
      status: 400,
      body: { code: 'E411', message, data: { errors: [{ field: 'targetTable', message }] } },
    });
    const fields = await api.call('GET', '/api/upload-templates/target-fields/users');
    expect(fields).toMatchObject({ status: 400, body: { code: 'E411', message } });
  });

  it('validates columns: target field of the table, rule arguments', async () => {
    const id = await template('COLS', 'payment', [{ sourceColumn: 'A', targetField: 'agent_id' }]);
    const field = await api.call('POST', `/api/upload-templates/${id}/columns`, {
      sourceColumn: 'B',
      targetField: 'premium',
    });
    expect(field.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'targetField' }] } });
    const rule = await api.call('POST', `/api/upload-templates/${id}/columns`, {
      sourceColumn: 'B',
      targetField: 'amount',
      transformRule: 'DIVIDE',
      transformArgs: 'x',
    });
    expect(rule.body).toMatchObject({
      data: {
        errors: [{ field: 'transformArgs', message: "rule DIVIDE needs a number in transformArgs, got 'x'" }],
      },
    });
    const letter = await api.call('POST', `/api/upload-templates/${id}/columns`, {
      sourceColumn: 'b1',
      targetField: 'amount',
    });
    expect(letter.body).toMatchObject({ data: { errors: [{ field: 'sourceColumn' }] } });
    const ok = await api.call('POST', `/api/upload-templates/${id}/columns`, {
      sourceColumn: 'B',
      targetField: 'amount',
    });
    expect(ok.status).toBe(200);
    const list = await api.call('GET', `/api/upload-templates/${id}/columns`);
    expect(list.body.data.list.map((c: any) => [c.sourceColumn, c.targetField, c.targetType])).toEqual([
      ['A', 'agent_id', 'INTEGER'],
      ['B', 'amount', 'AMOUNT'],
    ]);
    const dup = await api.call('POST', `/api/upload-templates/${id}/columns`, {
      sourceColumn: 'C',
      targetField: 'amount',
    });
    expect(dup).toMatchObject({ status: 409, body: { code: 'B009' } });
    const detail = await api.call('GET', `/api/upload-templates/${id}`);
    expect(detail.body.data).toMatchObject({
      templateCode: 'COLS',
      targetTable: 'payment',
      columnCount: 2,
      headerRow: 1,
      dataStartRow: 2,
      isActive: true,
    });
  });

  it('reads the headers of a sample file with column letters and preview rows', async () => {
    const content = await xlsx([
      ['Policy', '', 'Amount'],
      ['P-1', 'x', 10],
      ['P-2', '', 20],
      ['P-3', '', 30],
    ]);
    const res = await api.upload(
      '/api/upload-templates/excel-headers',
      { previewRows: '2' },
      { filename: 's.xlsx', content },
    );
    expect(res.body.data).toEqual({
      kind: 'XLSX',
      sheetNames: ['Sheet1'],
      sheetIndex: 0,
      headerRow: 1,
      headers: [
        { column: 'A', index: 0, header: 'Policy' },
        { column: 'B', index: 1, header: '' },
        { column: 'C', index: 2, header: 'Amount' },
      ],
      rows: [
        { rowNumber: 2, cells: { A: 'P-1', B: 'x', C: '10' } },
        { rowNumber: 3, cells: { A: 'P-2', B: '', C: '20' } },
      ],
    });
  });
});

describe('import into each of the 9 target tables, one bad row each', () => {
  it('recruit_ledger: the policy must match a contract', async () => {
    await template(
      'RECRUIT_L001',
      'recruit_ledger',
      [
        { sourceColumn: 'A', sourceHeader: 'Policy', targetField: 'policy_no', transformRule: 'TRIM' },
        { sourceColumn: 'B', targetField: 'settle_month' },
        { sourceColumn: 'C', targetField: 'company_amount' },
        { sourceColumn: 'D', targetField: 'reported_company_amount' },
      ],
      { companyCode: 'L001' },
    );
    const result = await importRows('RECRUIT_L001', [
      ['Policy', 'Month', 'Amount', 'Reported'],
      [' P-1 ', '202504', 1000.5, 1000.5],
      ['P-NONE', '202504', 5, 5],
    ]);
    expect(result).toMatchObject({
      totalCount: 2,
      successCount: 1,
      errorCount: 1,
      errors: [
        {
          rowNumber: 3,
          field: 'policy_no',
          value: 'P-NONE',
          message: 'policy_no: no contract with policy number P-NONE',
        },
      ],
    });
    const rows = await api.db
      .selectFrom('recruit_ledger')
      .select([
        'policy_no',
        'settle_month',
        'commission_year',
        'company_amount',
        'reported_company_amount',
        'company_code',
        'agent_id',
        'status',
      ])
      .execute();
    expect(rows).toEqual([
      {
        policy_no: 'P-1',
        settle_month: '202504',
        commission_year: 1,
        company_amount: '1000.50',
        reported_company_amount: '1000.50',
        company_code: 'L001',
        agent_id: ids.agentId,
        status: 'CALCULATED',
      },
    ]);
    expect(await errorFile(result.errorFileId)).toEqual([
      ['Policy', 'Month', 'Amount', 'Reported', 'Row', 'Field', 'Reason'],
      ['P-NONE', '202504', '5', '5', '3', 'policy_no', 'policy_no: no contract with policy number P-NONE'],
    ]);
  });

  it('maintain_ledger: years 2-5 only; a duplicate key fails alone', async () => {
    await template('MAINTAIN', 'maintain_ledger', [
      { sourceColumn: 'A', targetField: 'policy_no' },
      { sourceColumn: 'B', targetField: 'settle_month' },
      { sourceColumn: 'C', targetField: 'commission_year' },
      { sourceColumn: 'D', targetField: 'agent_amount' },
    ]);
    const result = await importRows('MAINTAIN', [
      ['Policy', 'Month', 'Year', 'Agent'],
      ['P-OLD', '202504', 3, 700],
      ['P-OLD', '202504', 7, 1],
      ['P-OLD', '202504', 3, 800],
    ]);
    expect(result).toMatchObject({ totalCount: 3, successCount: 1, errorCount: 2 });
    expect(result.errors).toEqual([
      {
        rowNumber: 3,
        field: 'commission_year',
        value: '7',
        message: 'commission_year: must be 2-5 in the maintain ledger, is 7',
      },
      {
        rowNumber: 4,
        field: null,
        value: null,
        message: 'duplicate: the row already exists (maintain_ledger_key_uq)',
      },
    ]);
    const rows = await api.db
      .selectFrom('maintain_ledger')
      .select(['commission_year', 'agent_amount'])
      .execute();
    expect(rows).toEqual([{ commission_year: 3, agent_amount: '700.00' }]);
    expect((await errorFile(result.errorFileId)).map((r) => r.at(-1))).toEqual([
      'Reason',
      'commission_year: must be 2-5 in the maintain ledger, is 7',
      'duplicate: the row already exists (maintain_ledger_key_uq)',
    ]);
  });

  it("contract: LOOKUP, UPPER, DATE, FIXED, CONCAT; a premium that is no number and one the owner's schema refuses", async () => {
    await template(
      'CONTRACTS',
      'contract',
      [
        { sourceColumn: 'A', targetField: 'policy_no', transformRule: 'UPPER' },
        {
          sourceColumn: 'B',
          targetField: 'agent_id',
          transformRule: 'LOOKUP',
          transformArgs: 'AGENT_BY_LICENSE',
        },
        { sourceColumn: 'C', targetField: 'product_code' },
        { sourceColumn: 'D', targetField: 'premium', targetType: 'AMOUNT' },
        { sourceColumn: 'E', targetField: 'contract_date', transformRule: 'DATE', transformArgs: 'yyyyMMdd' },
        { sourceColumn: 'F', targetField: 'pay_cycle', transformRule: 'FIXED', transformArgs: 'ANNUAL' },
        {
          sourceColumn: 'G',
          targetField: 'contractor_name',
          transformRule: 'CONCAT',
          transformArgs: '{G} {H}',
        },
      ],
      { companyCode: 'L001' },
    );
    const result = await importRows('CONTRACTS', [
      ['Policy', 'License', 'Product', 'Premium', 'Date', '', 'First', 'Last'],
      ['c-1', 'LIC-1', 'PR-1', '55,000', '20250401', '', 'Gil-dong', 'Hong'],
      ['c-2', 'LIC-1', 'PR-1', 'free', '20250401', '', 'A', 'B'],
      ['c-3', 'LIC-1', 'PR-1', '-5', '20250401', '', 'A', 'B'],
    ]);
    // row 4: contractFields' premium (money().refine(nonNegative)) of POST /api/contracts
    expect(result).toMatchObject({
      successCount: 1,
      errorCount: 2,
      errors: [
        { rowNumber: 3, field: 'premium', value: 'free', message: "premium: 'free' is not a number" },
        { rowNumber: 4, field: 'premium', value: '-5.00', message: 'premium: must not be negative' },
      ],
    });
    const c = await api.db
      .selectFrom('contract')
      .select([
        'agent_id',
        'product_id',
        'premium',
        'contract_date',
        'pay_cycle',
        'contractor_name',
        'status',
      ])
      .where('policy_no', '=', 'C-1')
      .executeTakeFirstOrThrow();
    expect(c).toEqual({
      agent_id: ids.agentId,
      product_id: ids.productId,
      premium: '55000.00',
      contract_date: '2025-04-01',
      pay_cycle: 'ANNUAL',
      contractor_name: 'Gil-dong Hong',
      status: 'ACTIVE',
    });
    expect((await errorFile(result.errorFileId))[1]).toEqual([
      'c-2',
      'LIC-1',
      'PR-1',
      'free',
      '20250401',
      '',
      'A',
      'B',
      '3',
      'premium',
      "premium: 'free' is not a number",
    ]);
  });

  it('agent: LOOKUPs of organization and grade, REPLACE, encrypted numbers, JOIN history; a bad phone is refused', async () => {
    await template('AGENTS', 'agent', [
      { sourceColumn: 'A', targetField: 'agent_name', transformRule: 'TRIM', isRequired: true },
      { sourceColumn: 'B', targetField: 'org_id', transformRule: 'LOOKUP', transformArgs: 'ORG_BY_NAME' },
      { sourceColumn: 'C', targetField: 'grade_id', transformRule: 'LOOKUP', transformArgs: 'GRADE_BY_CODE' },
      { sourceColumn: 'D', targetField: 'phone', transformRule: 'REPLACE', transformArgs: '.=>-' },
      { sourceColumn: 'E', targetField: 'resident_no' },
      { sourceColumn: 'F', targetField: 'account_no' },
      { sourceColumn: 'G', targetField: 'join_date', targetType: 'DATE' },
    ]);
    const result = await importRows('AGENTS', [
      ['Name', 'Org', 'Grade', 'Phone', 'Resident', 'Account', 'Joined'],
      [
        ' Kim Min ',
        'Seoul Branch',
        'SFC',
        '010.1234.5678',
        '900101-1234567',
        '110-222-333333',
        new Date(Date.UTC(2025, 3, 1)),
      ],
      ['Lee', 'Seoul Branch', 'FC', 'call me', '', '', ''],
    ]);
    expect(result).toMatchObject({
      successCount: 1,
      errorCount: 1,
      errors: [{ rowNumber: 3, field: 'phone', message: 'phone: must be a phone number' }],
    });
    const agent = await api.db
      .selectFrom('agent')
      .selectAll()
      .where('agent_name', '=', 'Kim Min')
      .executeTakeFirstOrThrow();
    expect(agent).toMatchObject({
      org_id: ids.orgId,
      grade_id: 2,
      phone: '010-1234-5678',
      join_date: '2025-04-01',
      tax_type: 'BUSINESS_INCOME',
      vat_type: 'NONE',
    });
    expect(agent.resident_no).not.toBe('900101-1234567');
    expect(api.ctx.app.cipher.decrypt(agent.resident_no!)).toBe('900101-1234567');
    expect(api.ctx.app.cipher.decrypt(agent.account_no!)).toBe('110-222-333333');
    const history = await api.db
      .selectFrom('agent_org_history')
      .select(['change_type', 'to_org_id', 'to_grade_id', 'change_date'])
      .where('agent_id', '=', agent.agent_id)
      .execute();
    expect(history).toEqual([
      { change_type: 'JOIN', to_org_id: ids.orgId, to_grade_id: 2, change_date: '2025-04-01' },
    ]);
    expect((await errorFile(result.errorFileId))[1]!.slice(-2)).toEqual([
      'phone',
      'phone: must be a phone number',
    ]);
  });

  it('commission_rate: MULTIPLY a fraction into a rate; a period ending before it starts is refused', async () => {
    await template(
      'RATES',
      'commission_rate',
      [
        { sourceColumn: 'A', targetField: 'product_code' },
        { sourceColumn: 'B', targetField: 'commission_year' },
        { sourceColumn: 'C', targetField: 'rate_pct', transformRule: 'MULTIPLY', transformArgs: '100' },
        { sourceColumn: 'D', targetField: 'effective_from', targetType: 'DATE' },
        { sourceColumn: 'E', targetField: 'effective_to', targetType: 'DATE' },
      ],
      { companyCode: 'L001' },
    );
    const result = await importRows('RATES', [
      ['Product', 'Year', 'Rate', 'From', 'To'],
      ['PR-1', 1, 0.035, '2025-01-01', ''],
      ['PR-1', 2, 0.01, '2025-01-01', '2024-12-31'],
    ]);
    expect(result).toMatchObject({
      successCount: 1,
      errorCount: 1,
      errors: [
        { rowNumber: 3, field: 'effective_to', message: 'effective_to: must be after effective_from' },
      ],
    });
    const rows = await api.db
      .selectFrom('commission_rate')
      .select(['product_id', 'commission_year', 'rate_pct', 'effective_from', 'effective_to'])
      .execute();
    expect(rows).toEqual([
      {
        product_id: ids.productId,
        commission_year: 1,
        rate_pct: '3.5000',
        effective_from: '2025-01-01',
        effective_to: null,
      },
    ]);
    expect((await errorFile(result.errorFileId)).length).toBe(2);
  });

  it('payout_rule: GRADE_BY_NAME and a common-code CODE_MAP; an unknown grade is refused', async () => {
    await template('PAYOUT', 'payout_rule', [
      { sourceColumn: 'A', targetField: 'grade_id', transformRule: 'LOOKUP', transformArgs: 'GRADE_BY_NAME' },
      {
        sourceColumn: 'B',
        targetField: 'insurance_type',
        transformRule: 'CODE_MAP',
        transformArgs: 'INSURANCE_TYPE',
      },
      { sourceColumn: 'C', targetField: 'commission_year' },
      { sourceColumn: 'D', targetField: 'payout_pct' },
      { sourceColumn: 'E', targetField: 'effective_from', transformRule: 'SUBSTRING', transformArgs: '0,10' },
    ]);
    const result = await importRows('PAYOUT', [
      ['Grade', 'Type', 'Year', 'Pct', 'From'],
      ['Financial Consultant', 'Life', 1, 60, '2025-01-01T00:00'],
      ['Nobody', 'Life', 1, 60, '2025-01-01T00:00'],
    ]);
    expect(result).toMatchObject({
      successCount: 1,
      errorCount: 1,
      errors: [
        {
          rowNumber: 3,
          field: 'grade_id',
          value: 'Nobody',
          message: "grade_id: GRADE_BY_NAME: nothing found for 'Nobody'",
        },
      ],
    });
    const rows = await api.db
      .selectFrom('payout_rule')
      .select(['grade_id', 'insurance_type', 'payout_pct', 'effective_from'])
      .execute();
    expect(rows).toEqual([
      { grade_id: 1, insurance_type: 'LIFE', payout_pct: '60.0000', effective_from: '2025-01-01' },
    ]);
    expect((await errorFile(result.errorFileId))[1]).toEqual([
      'Nobody',
      'Life',
      '1',
      '60',
      '2025-01-01T00:00',
      '3',
      'grade_id',
      "grade_id: GRADE_BY_NAME: nothing found for 'Nobody'",
    ]);
  });

  it('payout_rule: a common-code CODE_MAP also takes the Korean code name (V110); a partial name is refused', async () => {
    await template('PAYOUT_KO', 'payout_rule', [
      { sourceColumn: 'A', targetField: 'grade_id', transformRule: 'LOOKUP', transformArgs: 'GRADE_BY_NAME' },
      { sourceColumn: 'B', targetField: 'insurance_type', transformRule: 'CODE_MAP', transformArgs: 'INSURANCE_TYPE' },
      { sourceColumn: 'C', targetField: 'commission_year' },
      { sourceColumn: 'D', targetField: 'payout_pct' },
      { sourceColumn: 'E', targetField: 'effective_from' },
    ]);
    const result = await importRows('PAYOUT_KO', [
      ['Grade', 'Type', 'Year', 'Pct', 'From'],
      ['Financial Consultant', '생명보험', 2, 40, '2025-02-01'],
      ['Financial Consultant', 'ANNUITY', 2, 30, '2025-02-01'],
      ['Financial Consultant', '생명', 2, 20, '2025-02-01'],
    ]);
    expect(result).toMatchObject({
      successCount: 2,
      errorCount: 1,
      errors: [
        {
          rowNumber: 4,
          field: 'insurance_type',
          value: '생명',
          message: "insurance_type: no code mapping of type INSURANCE_TYPE for '생명'",
        },
      ],
    });
    const rows = await api.db
      .selectFrom('payout_rule')
      .select(['grade_id', 'insurance_type', 'payout_pct', 'effective_from'])
      .where('commission_year', '=', 2)
      .orderBy('rule_id')
      .execute();
    expect(rows).toEqual([
      { grade_id: 1, insurance_type: 'LIFE', payout_pct: '40.0000', effective_from: '2025-02-01' },
      { grade_id: 1, insurance_type: 'ANNUITY', payout_pct: '30.0000', effective_from: '2025-02-01' },
    ]);
  });

  it("chargeback_rule: the template's carrier, DEFAULT and BOOLEAN; installments without permission are refused", async () => {
    await template(
      'CHARGEBACK',
      'chargeback_rule',
      [
        { sourceColumn: 'A', targetField: 'insurance_type' },
        { sourceColumn: 'B', targetField: 'lapse_month_from' },
        { sourceColumn: 'C', targetField: 'lapse_month_to' },
        { sourceColumn: 'D', targetField: 'cb_rate' },
        {
          sourceColumn: 'E',
          targetField: 'installment_allowed',
          targetType: 'BOOLEAN',
          transformRule: 'DEFAULT',
          transformArgs: 'N',
        },
        { sourceColumn: 'F', targetField: 'max_installments' },
        { sourceColumn: 'G', targetField: 'effective_from' },
      ],
      { companyCode: 'L001' },
    );
    const result = await importRows('CHARGEBACK', [
      ['Type', 'From', 'To', 'Rate', 'Inst', 'Max', 'Effective'],
      ['LIFE', 1, 12, 100, '', 1, '2025-01-01'],
      ['LIFE', 13, 24, 50, 'N', 3, '2025-01-01'],
    ]);
    expect(result).toMatchObject({
      successCount: 1,
      errorCount: 1,
      errors: [
        {
          rowNumber: 3,
          field: 'max_installments',
          message: 'max_installments: must be 1 unless installment_allowed',
        },
      ],
    });
    const rows = await api.db
      .selectFrom('chargeback_rule')
      .select(['company_code', 'lapse_month_from', 'lapse_month_to', 'cb_rate', 'installment_allowed'])
      .execute();
    expect(rows).toEqual([
      {
        company_code: 'L001',
        lapse_month_from: 1,
        lapse_month_to: 12,
        cb_rate: '100.0000',
        installment_allowed: false,
      },
    ]);
    expect((await errorFile(result.errorFileId))[1]!.at(-1)).toBe(
      'max_installments: must be 1 unless installment_allowed',
    );
  });

  it('exception_ledger: the code gives the direction; an unknown code is refused', async () => {
    await template('EXCEPTIONS', 'exception_ledger', [
      { sourceColumn: 'A', targetField: 'agent_id' },
      { sourceColumn: 'B', targetField: 'settle_month' },
      { sourceColumn: 'C', targetField: 'exception_code', transformRule: 'UPPER' },
      { sourceColumn: 'D', targetField: 'amount' },
      { sourceColumn: 'E', targetField: 'policy_no' },
      { sourceColumn: 'F', targetField: 'reason', transformRule: 'DEFAULT', transformArgs: 'imported' },
    ]);
    const result = await importRows('EXCEPTIONS', [
      ['Agent', 'Month', 'Code', 'Amount', 'Policy', 'Reason'],
      [ids.agentId, '202504', 'penalty', 30000, 'P-1', ''],
      [ids.agentId, '202504', 'nope', 1, '', ''],
    ]);
    expect(result).toMatchObject({
      successCount: 1,
      errorCount: 1,
      errors: [
        {
          rowNumber: 3,
          field: 'exception_code',
          value: 'NOPE',
          message: 'exception_code: exception code NOPE does not exist',
        },
      ],
    });
    const rows = await api.db
      .selectFrom('exception_ledger')
      .select([
        'agent_id',
        'direction',
        'amount',
        'contract_id',
        'reason',
        'approve_status',
        'status',
        'source',
      ])
      .execute();
    expect(rows).toEqual([
      {
        agent_id: ids.agentId,
        direction: 'MINUS',
        amount: '30000.00',
        contract_id: expect.any(Number),
        reason: 'imported',
        approve_status: 'PENDING',
        status: 'NEW',
        source: 'MANUAL',
      },
    ]);
    expect((await errorFile(result.errorFileId))[1]!.at(-1)).toBe(
      'exception_code: exception code NOPE does not exist',
    );
  });

  it('payment: encrypted account, net = amount; an unknown agent is refused', async () => {
    await template('PAYMENTS', 'payment', [
      { sourceColumn: 'A', targetField: 'agent_id' },
      { sourceColumn: 'B', targetField: 'settle_month' },
      { sourceColumn: 'C', targetField: 'amount' },
      { sourceColumn: 'D', targetField: 'account_no' },
    ]);
    const result = await importRows('PAYMENTS', [
      ['Agent', 'Month', 'Amount', 'Account'],
      [ids.agentId, '202504', 123456.78, '110-222-333333'],
      [999999, '202504', 1, ''],
    ]);
    expect(result).toMatchObject({
      successCount: 1,
      errorCount: 1,
      errors: [
        {
          rowNumber: 3,
          field: 'agent_id',
          value: '999999',
          message: 'agent_id: agent 999999 does not exist',
        },
      ],
    });
    const p = await api.db
      .selectFrom('payment')
      .select(['agent_id', 'amount', 'net_amount', 'status', 'account_no'])
      .executeTakeFirstOrThrow();
    expect(p).toMatchObject({
      agent_id: ids.agentId,
      amount: '123456.78',
      net_amount: '123456.78',
      status: 'PENDING',
    });
    expect(api.ctx.app.cipher.decrypt(p.account_no!)).toBe('110-222-333333');
    expect((await errorFile(result.errorFileId))[1]!.at(-1)).toBe('agent_id: agent 999999 does not exist');
  });
});

describe('import mechanics', () => {
  it('writes the history row with counts, error file and sample', async () => {
    const templates = await api.call('GET', '/api/upload-templates?templateCode=PAYMENTS');
    const templateId = templates.body.data.list[0].templateId;
    const history = await api.call('GET', `/api/upload-templates/${templateId}/history`);
    expect(history.body.data.list).toEqual([
      expect.objectContaining({
        templateCode: 'PAYMENTS',
        targetTable: 'payment',
        fileName: 'PAYMENTS.xlsx',
        status: 'COMPLETED',
        totalCount: 2,
        processedCount: 2,
        successCount: 1,
        errorCount: 1,
        errorFileId: expect.any(Number),
        fileId: expect.any(Number),
        errorSample: [
          {
            rowNumber: 3,
            field: 'agent_id',
            value: '999999',
            message: 'agent_id: agent 999999 does not exist',
          },
        ],
      }),
    ]);
    const one = await api.call('GET', `/api/upload-templates/history/${history.body.data.list[0].historyId}`);
    expect(one.body.data).toMatchObject({ status: 'COMPLETED', processedCount: 2 });
  });

  it('previews transformed rows without writing, at most 100', async () => {
    const content = await xlsx([
      ['Agent', 'Month', 'Amount', 'Account'],
      [ids.agentId, '202505', 10, ''],
      ['x', '202505', 10, ''],
    ]);
    const res = await api.upload('/api/upload/PAYMENTS/preview?limit=5', {}, { filename: 'p.xlsx', content });
    expect(res.body.data).toMatchObject({
      templateCode: 'PAYMENTS',
      targetTable: 'payment',
      rows: [
        {
          rowNumber: 2,
          ok: true,
          values: {
            agent_id: String(ids.agentId),
            settle_month: '202505',
            amount: '10.00',
            account_no: null,
          },
          error: null,
        },
        {
          rowNumber: 3,
          ok: false,
          error: { field: 'agent_id', value: 'x', message: "agent_id: 'x' is not a number" },
        },
      ],
    });
    expect(
      await api.db.selectFrom('payment').select('payment_id').where('settle_month', '=', '202505').execute(),
    ).toEqual([]);
    const tooMany = await api.upload(
      '/api/upload/PAYMENTS/preview?limit=101',
      {},
      { filename: 'p.xlsx', content },
    );
    expect(tooMany).toMatchObject({
      status: 400,
      body: { code: 'E411', data: { errors: [{ field: 'limit' }] } },
    });
  });

  it('refuses a file whose headers differ from the template', async () => {
    const content = await xlsx([
      ['Contract', 'Month', 'Amount', 'Reported'],
      ['P-1', '202505', 1, 1],
    ]);
    const res = await api.upload('/api/upload/RECRUIT_L001', {}, { filename: 'x.xlsx', content });
    expect(res.body).toMatchObject({
      code: 'E411',
      message:
        "the file does not match upload template RECRUIT_L001: column A is 'Contract', expected 'Policy'",
    });
  });

  it("needs the target table's own permission besides the upload route's", async () => {
    const managerToken = await api.ctx.tokenFor('ADMIN');
    const user = await api.ctx.userFor('ADMIN');
    // ADMIN holds SYSTEM_UPLOAD_TEMPLATE; take away its PAYMENT UPDATE grant
    const menu = await api.db
      .selectFrom('menu')
      .select('menu_id')
      .where('menu_code', '=', 'PAYMENT')
      .executeTakeFirstOrThrow();
    const role = await api.db
      .selectFrom('role')
      .select('role_id')
      .where('role_code', '=', 'ADMIN')
      .executeTakeFirstOrThrow();
    await api.db
      .deleteFrom('role_menu_permission')
      .where('role_id', '=', role.role_id)
      .where('menu_id', '=', menu.menu_id)
      .where('perm_code', '=', 'UPDATE')
      .execute();
    const content = await xlsx([
      ['Agent', 'Month', 'Amount', 'Account'],
      [ids.agentId, '202506', 10, ''],
    ]);
    const { payload, headers } = (await import('./api-helpers.js')).multipart(
      {},
      { filename: 'p.xlsx', content },
    );
    const res = await api.ctx.app.inject({
      method: 'POST',
      url: '/api/upload/PAYMENTS',
      headers: { ...headers, authorization: `Bearer ${managerToken}` },
      payload,
    });
    expect(res.statusCode).toBe(403);
    expect(user.roleCodes).toEqual(['ADMIN']);
  });

  it('takes the corrected error file back through the same template', async () => {
    const result = await importRows('PAYMENTS', [
      ['Agent', 'Month', 'Amount', 'Account'],
      [888888, '202507', 50, ''],
    ]);
    expect(result).toMatchObject({ successCount: 0, errorCount: 1 });
    const rows = await errorFile(result.errorFileId);
    expect(rows).toEqual([
      ['Agent', 'Month', 'Amount', 'Account', 'Row', 'Field', 'Reason'],
      ['888888', '202507', '50', '', '2', 'agent_id', 'agent_id: agent 888888 does not exist'],
    ]);
    const corrected = rows.map((r, i) => (i === 0 ? r : [ids.agentId, ...r.slice(1)]));
    const again = await importRows('PAYMENTS', corrected);
    expect(again).toMatchObject({
      totalCount: 1,
      successCount: 1,
      errorCount: 0,
      errorFileId: null,
      errors: [],
    });
  });

  it('refuses an unknown template and an inactive one', async () => {
    const content = await xlsx([['A'], ['1']]);
    expect((await api.upload('/api/upload/NOPE', {}, { filename: 'x.xlsx', content })).body).toMatchObject({
      code: 'E404',
      message: 'Upload template NOPE not found',
    });
    await api.db
      .updateTable('upload_template')
      .set({ is_active: false })
      .where('template_code', '=', 'COLS')
      .execute();
    expect((await api.upload('/api/upload/COLS', {}, { filename: 'x.xlsx', content })).body).toMatchObject({
      code: 'E400',
      message: 'upload template COLS is inactive',
    });
  });
});

describe("imports validated by the owning resources' save schemas (@csp/field-tables)", () => {
  /** Imports rows that all fail and returns [field, reason] of each error-file row, in row order. */
  async function refused(code: string, rows: unknown[][]): Promise<string[][]> {
    const result = await importRows(code, rows);
    expect(result, JSON.stringify(result.errors)).toMatchObject({
      successCount: 0,
      errorCount: rows.length - 1,
    });
    return (await errorFile(result.errorFileId))
      .slice(1)
      .sort((a, b) => Number(a.at(-3)) - Number(b.at(-3)))
      .map((r) => r.slice(-2));
  }

  it('agent: the phone, name and personal numbers of AgentSaveReq', async () => {
    expect(
      await refused('AGENTS', [
        ['Name', 'Org', 'Grade', 'Phone', 'Resident', 'Account', 'Joined'],
        ['Park', 'Seoul Branch', 'FC', '010-1234-567890', '', '', ''],
        ['', 'Seoul Branch', 'FC', '', '', '', ''],
        ['Choi', 'Seoul Branch', 'FC', '', '90010-11234567', '', ''],
        ['Yoon', 'Seoul Branch', 'FC', '', '', '12-34', ''],
      ]),
    ).toEqual([
      ['phone', 'phone: must be a phone number'],
      ['agent_name', 'agent_name: is required'],
      ['resident_no', 'resident_no: must be a resident number like 900101-1234567'],
      ['account_no', 'account_no: must be an account number (digits and dashes)'],
    ]);
  });

  it("contract: the owner's checks of status and dates", async () => {
    await template('CONTRACT_STATUS', 'contract', [
      { sourceColumn: 'A', targetField: 'policy_no' },
      { sourceColumn: 'B', targetField: 'agent_id' },
      { sourceColumn: 'C', targetField: 'product_code' },
      { sourceColumn: 'D', targetField: 'premium' },
      { sourceColumn: 'E', targetField: 'status' },
      { sourceColumn: 'F', targetField: 'pay_period' },
    ]);
    expect(
      await refused('CONTRACT_STATUS', [
        ['Policy', 'Agent', 'Product', 'Premium', 'Status', 'Years'],
        ['S-1', ids.agentId, 'PR-1', 100, 'LAPSE', 10],
        ['S-2', ids.agentId, 'PR-1', 100, 'GONE', 10],
        ['S-3', ids.agentId, 'PR-1', 100, 'ACTIVE', 101],
      ]),
    ).toEqual([
      ['lapse_date', 'lapse_date: is required when status is LAPSE'],
      ['status', 'status: Invalid option: expected one of "ACTIVE"|"LAPSE"|"REVIVE"|"TERMINATE"'],
      ['pay_period', 'pay_period: Too big: expected number to be <=100'],
    ]);
  });

  it('payout_rule: an insurance type that is no code', async () => {
    await template('PAYOUT_PLAIN', 'payout_rule', [
      { sourceColumn: 'A', targetField: 'grade_id' },
      { sourceColumn: 'B', targetField: 'insurance_type' },
      { sourceColumn: 'C', targetField: 'commission_year' },
      { sourceColumn: 'D', targetField: 'payout_pct' },
      { sourceColumn: 'E', targetField: 'effective_from', targetType: 'DATE' },
    ]);
    expect(
      await refused('PAYOUT_PLAIN', [
        ['Grade', 'Type', 'Year', 'Pct', 'From'],
        [1, 'life', 1, 60, '2025-01-01'],
        [1, 'LIFE', 100, 60, '2025-01-01'],
      ]),
    ).toEqual([
      ['insurance_type', 'insurance_type: must be an insurance type code'],
      ['commission_year', 'commission_year: Too big: expected number to be <=99'],
    ]);
  });

  it('exception_ledger: the register body (amount > 0, recurring needs an end)', async () => {
    await template('EXCEPTIONS_RECURRING', 'exception_ledger', [
      { sourceColumn: 'A', targetField: 'agent_id' },
      { sourceColumn: 'B', targetField: 'settle_month' },
      { sourceColumn: 'C', targetField: 'exception_code' },
      { sourceColumn: 'D', targetField: 'amount' },
      { sourceColumn: 'E', targetField: 'reason' },
      { sourceColumn: 'F', targetField: 'recurring_yn', targetType: 'BOOLEAN' },
      { sourceColumn: 'G', targetField: 'recurring_until' },
    ]);
    expect(
      await refused('EXCEPTIONS_RECURRING', [
        ['Agent', 'Month', 'Code', 'Amount', 'Reason', 'Recurring', 'Until'],
        [ids.agentId, '202504', 'PENALTY', 0, 'x', 'N', ''],
        [ids.agentId, '202504', 'PENALTY', 10, 'x', 'Y', ''],
        [ids.agentId, '202504', 'PENALTY', 10, 'x', 'Y', '202503'],
        [ids.agentId, '202504', 'PENALTY', 10, '', 'N', ''],
      ]),
    ).toEqual([
      ['amount', 'amount: must be greater than 0'],
      ['recurring_until', 'recurring_until: is required when recurringYn is Y'],
      ['recurring_until', 'recurring_until: must not be before settleMonth'],
      ['reason', 'reason: is required'],
    ]);
  });

  it('commission_rate and chargeback_rule: negative rates and a lapse range above the limit', async () => {
    expect(
      await refused('RATES', [
        ['Product', 'Year', 'Rate', 'From', 'To'],
        ['PR-1', 3, -0.01, '2025-01-01', ''],
      ]),
    ).toEqual([['rate_pct', 'rate_pct: must not be negative']]);
    expect(
      await refused('CHARGEBACK', [
        ['Type', 'From', 'To', 'Rate', 'Inst', 'Max', 'Effective'],
        ['LIFE', 1, 1201, 100, '', 1, '2025-01-01'],
        ['LIFE', 1, 12, -1, '', 1, '2025-01-01'],
      ]),
    ).toEqual([
      ['lapse_month_to', 'lapse_month_to: Too big: expected number to be <=1200'],
      ['cb_rate', 'cb_rate: must not be negative'],
    ]);
  });
});
