import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHarness,
  insertContract,
  insertRaw,
  seedMaster,
  stepOf,
  type Harness,
  type MasterIds,
} from './helpers.js';

let h: Harness;
let ids: MasterIds;
const MONTH = '202501';

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
        transform_rule: 'TRIM|UPPER',
        sort_order: 1,
      },
      {
        company_code: 'L001',
        target_table: 'recruit_ledger',
        target_field: 'premium',
        source_field: 'PREM',
        transform_rule: 'DIVIDE:100',
        sort_order: 2,
      },
      {
        company_code: 'L001',
        target_table: 'recruit_ledger',
        target_field: 'company_amount',
        source_field: 'COMM',
        is_required: true,
        sort_order: 3,
      },
      {
        company_code: 'L001',
        target_table: 'recruit_ledger',
        target_field: 'insurance_type',
        source_field: 'TYPE',
        transform_rule: 'TRIM|CODE_MAP:INSURANCE_TYPE',
        sort_order: 4,
      },
      {
        company_code: 'L001',
        target_table: 'maintain_ledger',
        target_field: 'policy_no',
        source_field: 'POLICY',
        transform_rule: 'TRIM',
        sort_order: 1,
      },
      {
        company_code: 'L001',
        target_table: 'maintain_ledger',
        target_field: 'premium',
        source_field: 'PREM',
        transform_rule: 'DIVIDE:100',
        sort_order: 2,
      },
      {
        company_code: 'L001',
        target_table: 'maintain_ledger',
        target_field: 'company_amount',
        source_field: 'COMM',
        sort_order: 3,
      },
      // version 1 of a field is superseded by version 2 from 2025-01-01; version 3 starts later
      {
        company_code: 'L001',
        target_table: 'maintain_ledger',
        target_field: 'pay_method',
        source_field: 'OLD',
        version: 1,
        effective_from: '2020-01-01',
      },
      {
        company_code: 'L001',
        target_table: 'maintain_ledger',
        target_field: 'pay_method',
        source_field: 'CYCLE',
        version: 2,
        effective_from: '2025-01-01',
        transform_rule: 'UPPER',
      },
      {
        company_code: 'L001',
        target_table: 'maintain_ledger',
        target_field: 'pay_method',
        source_field: 'FUTURE',
        version: 3,
        effective_from: '2025-02-01',
        is_required: true,
      },
      // N002's only mapping is an inactive newest revision: no mapping at all
      {
        company_code: 'N002',
        target_table: 'recruit_ledger',
        target_field: 'policy_no',
        source_field: 'P',
        version: 1,
      },
      {
        company_code: 'N002',
        target_table: 'recruit_ledger',
        target_field: 'policy_no',
        source_field: 'P',
        version: 2,
        is_active: false,
      },
    ])
    .execute();
  await h.db
    .insertInto('code_mapping')
    .values([
      { company_code: 'L001', code_type: 'INSURANCE_TYPE', source_code: '01', target_code: 'LIFE' },
      {
        company_code: 'L001',
        code_type: 'INSURANCE_TYPE',
        source_code: '02',
        target_code: 'ANNUITY',
        is_active: false,
      },
    ])
    .execute();
});

afterAll(async () => {
  await h?.close();
});

async function errorRows(rawIds: number[]) {
  return h.db
    .selectFrom('parse_error_log')
    .select([
      'raw_id',
      'company_code',
      'settle_month',
      'error_type',
      'error_field',
      'error_value',
      'error_message',
      'resolve_status',
    ])
    .where('raw_id', 'in', rawIds)
    .orderBy('raw_id')
    .orderBy('error_id')
    .execute();
}

async function rawRow(rawId: number) {
  return h.db
    .selectFrom('raw_commission_data')
    .select(['parse_status', 'mapped_ledger_id', 'mapped_table', 'reported_amount', 'parsed_at'])
    .where('raw_id', '=', rawId)
    .executeTakeFirstOrThrow();
}

describe('transformData', () => {
  let recruitContract: number;
  let maintainContract: number;
  const raw: Record<string, number> = {};

  it('maps OK rows onto ledger rows and logs every error type with its exact parse_error_log row', async () => {
    recruitContract = await insertContract(h.db, ids, 'P-100', '2025-01-10', '100000.00');
    maintainContract = await insertContract(h.db, ids, 'P-200', '2023-06-15', '50000.00', ids.otherAgentId);
    raw.okRecruit = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', {
      POLICY: ' p-100 ',
      PREM: '10000000',
      COMM: '12000',
      TYPE: ' 01 ',
    });
    raw.okMaintain = await insertRaw(h.db, 'L001', MONTH, 'MAINTAIN', {
      POLICY: 'P-200',
      PREM: 5000000,
      COMM: '1500.5',
      CYCLE: 'quarterly',
      OLD: 'x',
    });
    raw.invalidInput = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', '[1,2,3]');
    raw.unknownType = await insertRaw(h.db, 'L001', MONTH, 'BONUS', { POLICY: 'P-100' });
    raw.noMapping = await insertRaw(h.db, 'N002', MONTH, 'RECRUIT', { P: 'P-100' });
    raw.jsonParse = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', '{"POLICY": "P-100",');
    raw.required = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', {
      POLICY: 'P-100',
      PREM: '100',
      COMM: '  ',
    });
    raw.transformFail = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', {
      POLICY: 'P-100',
      PREM: '12a',
      COMM: '10',
    });
    raw.noPolicy = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', { POLICY: '   ', COMM: '20' });
    raw.contractNotFound = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', { POLICY: 'P-999', COMM: '30' });
    raw.codeMapFail = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', {
      POLICY: 'P-100',
      COMM: '40',
      TYPE: '02',
    });
    raw.otherMonth = await insertRaw(h.db, 'L001', '202502', 'RECRUIT', { POLICY: 'P-100', COMM: '1' });

    const status = await h.runMonth(MONTH);
    expect(status.run.status).toBe('COMPLETED');
    expect(stepOf(status, 'transformData')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 11,
      successCount: 2,
      errorCount: 9,
      skippedCount: 0,
      chunkCount: 1,
      chunksCompleted: 1,
    });

    const recruit = await h.db
      .selectFrom('recruit_ledger')
      .selectAll()
      .where('contract_id', '=', recruitContract)
      .executeTakeFirstOrThrow();
    expect(recruit).toMatchObject({
      agent_id: ids.agentId,
      policy_no: 'P-100',
      company_code: 'L001',
      product_code: 'PR-1',
      insurance_type: 'LIFE',
      commission_year: 1,
      premium: '100000.00',
      pay_method: 'MONTHLY',
      reported_premium: '100000.00',
      reported_company_amount: '12000.00',
      reconcile_status: 'PENDING',
      reconcile_diff: null,
      company_amount: '0.00',
      agent_amount: '0.00',
      settle_month: MONTH,
      status: 'CALCULATED',
      raw_id: raw.okRecruit,
    });
    const maintain = await h.db
      .selectFrom('maintain_ledger')
      .selectAll()
      .where('contract_id', '=', maintainContract)
      .executeTakeFirstOrThrow();
    expect(maintain).toMatchObject({
      agent_id: ids.otherAgentId,
      policy_no: 'P-200',
      commission_year: 2,
      premium: '50000.00',
      pay_method: 'QUARTERLY',
      reported_premium: '50000.00',
      reported_company_amount: '1500.50',
      reconcile_status: 'PENDING',
      raw_id: raw.okMaintain,
      status: 'CALCULATED',
    });

    expect(await rawRow(raw.okRecruit!)).toMatchObject({
      parse_status: 'OK',
      mapped_ledger_id: recruit.ledger_id,
      mapped_table: 'recruit_ledger',
      reported_amount: '12000.00',
    });
    expect((await rawRow(raw.okRecruit!)).parsed_at).toBeInstanceOf(Date);
    expect(await rawRow(raw.okMaintain!)).toMatchObject({
      parse_status: 'OK',
      mapped_ledger_id: maintain.ledger_id,
      mapped_table: 'maintain_ledger',
    });
    expect(await rawRow(raw.otherMonth!)).toMatchObject({ parse_status: 'PENDING', parsed_at: null });

    const base = { settle_month: MONTH, resolve_status: 'OPEN', company_code: 'L001' };
    expect(await errorRows(Object.values(raw))).toEqual([
      {
        ...base,
        raw_id: raw.invalidInput,
        error_type: 'INVALID_INPUT',
        error_field: null,
        error_value: '[1,2,3]',
        error_message: 'raw content must be a JSON object',
      },
      {
        ...base,
        raw_id: raw.unknownType,
        error_type: 'UNKNOWN_TYPE',
        error_field: 'data_type',
        error_value: 'BONUS',
        error_message: "data type 'BONUS' is not RECRUIT or MAINTAIN",
      },
      {
        ...base,
        raw_id: raw.noMapping,
        company_code: 'N002',
        error_type: 'NO_MAPPING',
        error_field: null,
        error_value: null,
        error_message: 'no active field mapping of the company for recruit_ledger',
      },
      {
        ...base,
        raw_id: raw.jsonParse,
        error_type: 'JSON_PARSE',
        error_field: null,
        error_value: '{"POLICY": "P-100",',
        error_message: expect.stringMatching(/^raw content is not valid JSON: /),
      },
      {
        ...base,
        raw_id: raw.required,
        error_type: 'REQUIRED',
        error_field: 'company_amount',
        error_value: '  ',
        error_message: 'COMM is required for company_amount',
      },
      {
        ...base,
        raw_id: raw.transformFail,
        error_type: 'TRANSFORM_FAIL',
        error_field: 'premium',
        error_value: '12a',
        error_message: "DIVIDE:100: '12a' is not a number",
      },
      {
        ...base,
        raw_id: raw.noPolicy,
        error_type: 'NO_POLICY',
        error_field: 'policy_no',
        error_value: '',
        error_message: 'policy number is empty',
      },
      {
        ...base,
        raw_id: raw.contractNotFound,
        error_type: 'CONTRACT_NOT_FOUND',
        error_field: 'policy_no',
        error_value: 'P-999',
        error_message: 'no contract with policy number P-999',
      },
      {
        ...base,
        raw_id: raw.codeMapFail,
        error_type: 'CODE_MAP_FAIL',
        error_field: 'insurance_type',
        error_value: '02',
        error_message: "no active code mapping of type INSURANCE_TYPE for '02'",
      },
    ]);
    for (const key of ['invalidInput', 'unknownType', 'noMapping', 'jsonParse', 'required', 'noPolicy']) {
      expect(await rawRow(raw[key]!)).toMatchObject({
        parse_status: 'ERROR',
        mapped_ledger_id: null,
        mapped_table: null,
      });
    }
    // a failed row keeps the company amount it could parse (the expected side of reconcile)
    expect(await rawRow(raw.contractNotFound!)).toMatchObject({
      parse_status: 'ERROR',
      reported_amount: '30.00',
    });
    expect(await rawRow(raw.noPolicy!)).toMatchObject({ reported_amount: '20.00' });
    expect(await rawRow(raw.required!)).toMatchObject({ reported_amount: null });
  });

  it('takes only PENDING rows on a re-run: no duplicate error or ledger rows', async () => {
    const status = await h.runMonth(MONTH);
    expect(stepOf(status, 'transformData')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 0,
      chunkCount: 0,
    });
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM parse_error_log`.execute(h.db);
    expect(rows[0]!.n).toBe(9);
    const { rows: ledgers } = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM recruit_ledger) + (SELECT count(*) FROM maintain_ledger) AS n`.execute(
      h.db,
    );
    expect(Number(ledgers[0]!.n)).toBe(2);
  });

  it('replaces the OPEN error of a reprocessed row and keeps resolved history', async () => {
    await h.db
      .updateTable('parse_error_log')
      .set({ resolve_status: 'RESOLVED', resolve_note: 'contract registered' })
      .where('raw_id', '=', raw.transformFail!)
      .execute();
    await insertContract(h.db, ids, 'P-999', '2025-01-20');
    await h.db
      .updateTable('raw_commission_data')
      .set({ parse_status: 'PENDING' })
      .where('raw_id', 'in', [raw.contractNotFound!, raw.transformFail!])
      .execute();

    const status = await h.runMonth(MONTH);
    expect(stepOf(status, 'transformData')).toMatchObject({ totalCount: 2, successCount: 1, errorCount: 1 });
    expect(await rawRow(raw.contractNotFound!)).toMatchObject({
      parse_status: 'OK',
      mapped_table: 'recruit_ledger',
      reported_amount: '30.00',
    });
    expect(await errorRows([raw.contractNotFound!])).toEqual([]);
    expect((await errorRows([raw.transformFail!])).map((e) => [e.error_type, e.resolve_status])).toEqual([
      ['TRANSFORM_FAIL', 'RESOLVED'],
      ['TRANSFORM_FAIL', 'OPEN'],
    ]);
  });

  it('updates only the carrier figures of an existing CALCULATED row and leaves frozen rows and months alone', async () => {
    const computed = await insertContract(h.db, ids, 'P-300', '2025-01-05');
    const confirmed = await insertContract(h.db, ids, 'P-301', '2025-01-06');
    const lockedAgentContract = await insertContract(
      h.db,
      ids,
      'P-302',
      '2025-01-07',
      '100000.00',
      ids.otherAgentId,
    );
    await h.db
      .insertInto('recruit_ledger')
      .values([
        {
          contract_id: computed,
          agent_id: ids.agentId,
          commission_year: 1,
          settle_month: MONTH,
          premium: '100000.00',
          company_amount: '900.00',
          agent_amount: '540.00',
          reconcile_status: 'MATCHED',
          reconcile_diff: '0.00',
          reported_company_amount: '900.00',
        },
        {
          contract_id: confirmed,
          agent_id: ids.agentId,
          commission_year: 1,
          settle_month: MONTH,
          company_amount: '800.00',
          status: 'CONFIRMED',
          reported_company_amount: '800.00',
        },
      ])
      .execute();
    await h.db
      .insertInto('settle_master')
      .values({ agent_id: ids.otherAgentId, settle_month: MONTH, status: 'CONFIRMED' })
      .execute();

    const updated = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', {
      POLICY: 'P-300',
      PREM: '9000000',
      COMM: '950',
    });
    const frozen = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', { POLICY: 'P-301', COMM: '850' });
    const locked = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', { POLICY: 'P-302', COMM: '700' });

    const status = await h.runMonth(MONTH);
    expect(stepOf(status, 'transformData')).toMatchObject({
      totalCount: 3,
      successCount: 1,
      errorCount: 0,
      skippedCount: 2,
    });

    const rows = await h.db
      .selectFrom('recruit_ledger')
      .select([
        'contract_id',
        'premium',
        'company_amount',
        'agent_amount',
        'reported_premium',
        'reported_company_amount',
        'reconcile_status',
        'reconcile_diff',
        'raw_id',
        'status',
        'version',
      ])
      .where('contract_id', 'in', [computed, confirmed, lockedAgentContract])
      .orderBy('contract_id')
      .execute();
    expect(rows).toEqual([
      {
        contract_id: computed,
        premium: '100000.00',
        company_amount: '900.00',
        agent_amount: '540.00',
        reported_premium: '90000.00',
        reported_company_amount: '950.00',
        reconcile_status: 'PENDING',
        reconcile_diff: null,
        raw_id: updated,
        status: 'CALCULATED',
        version: 1,
      },
      {
        contract_id: confirmed,
        premium: '0.00',
        company_amount: '800.00',
        agent_amount: '0.00',
        reported_premium: null,
        reported_company_amount: '800.00',
        reconcile_status: 'PENDING',
        reconcile_diff: null,
        raw_id: null,
        status: 'CONFIRMED',
        version: 0,
      },
    ]);
    expect(await rawRow(updated)).toMatchObject({ parse_status: 'OK' });
    // left PENDING: taken again by a later run once the row or the month is released
    expect(await rawRow(frozen)).toMatchObject({ parse_status: 'PENDING', parsed_at: null });
    expect(await rawRow(locked)).toMatchObject({ parse_status: 'PENDING', parsed_at: null });
    expect(await errorRows([frozen, locked])).toEqual([]);
  });

  it('writes the last of several records of one ledger key and points all of them to that row', async () => {
    const c = await insertContract(h.db, ids, 'P-400', '2025-01-08');
    const first = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', { POLICY: 'P-400', COMM: '100' });
    const second = await insertRaw(h.db, 'L001', MONTH, 'RECRUIT', { POLICY: 'P-400', COMM: '200' });
    await h.runMonth(MONTH);
    const row = await h.db
      .selectFrom('recruit_ledger')
      .selectAll()
      .where('contract_id', '=', c)
      .executeTakeFirstOrThrow();
    expect([row.reported_company_amount, row.raw_id]).toEqual(['200.00', second]);
    expect(await rawRow(first)).toMatchObject({ parse_status: 'OK', mapped_ledger_id: row.ledger_id });
    expect(await rawRow(second)).toMatchObject({ parse_status: 'OK', mapped_ledger_id: row.ledger_id });
  });

  it('splits a month into chunks of 2,000 PENDING rows and restricts a company run to its carrier', async () => {
    const month = '202503';
    await sql`
      INSERT INTO contract (agent_id, product_id, policy_no, premium, contract_date)
      SELECT ${ids.agentId}, ${ids.productId}, 'BULK-' || g, 1000, DATE '2025-03-01'
      FROM generate_series(1, 4100) g`.execute(h.db);
    await sql`
      INSERT INTO raw_commission_data (company_code, settle_month, data_type, raw_content)
      SELECT 'L001', ${month}, 'RECRUIT', json_build_object('POLICY', 'BULK-' || g, 'PREM', '100000', 'COMM', '10.01')::text
      FROM generate_series(1, 4100) g`.execute(h.db);
    const other = await insertRaw(h.db, 'N002', month, 'RECRUIT', { P: 'x' });

    const status = await h.runMonth(month, 'L001');
    expect(stepOf(status, 'transformData')).toMatchObject({
      totalCount: 4100,
      successCount: 4100,
      errorCount: 0,
      chunkCount: 3,
      chunksCompleted: 3,
    });
    const { rows } = await sql<{ n: number; total: string }>`
      SELECT count(*)::int AS n, sum(reported_company_amount)::text AS total FROM recruit_ledger WHERE settle_month = ${month}`.execute(
      h.db,
    );
    expect(rows[0]).toEqual({ n: 4100, total: '41041.00' });
    expect(await rawRow(other)).toMatchObject({ parse_status: 'PENDING' });
  });
});
