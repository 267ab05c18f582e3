import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTransaction, type Db } from '@csp/db';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { loadCompanyRules } from '../src/batch/mappings.js';
import { intakeDb, type IntakeDb } from '../src/db.js';
import { setBasedPass } from '../src/steps/transform-set.js';
import { transformChunk } from '../src/steps/transform-data.js';
import { insertContract, insertProduct, insertRaw, seedMaster, type MasterIds } from './helpers.js';

/**
 * Step 2's set-based pass must give exactly what the JS mapper gives: the same chunk of raw rows is
 * transformed once through the JS mapper alone and once through the set-based pass plus the JS
 * mapper for what the SQL leaves, each in a transaction that is rolled back; ledger rows, raw row
 * outcomes and parse errors must be identical, and the SQL must have taken the plain rows.
 */
let tdb: TestDatabase;
let db: IntakeDb;
let ids: MasterIds;
const MONTH = '202501';
const raws: Record<string, number> = {};
let from = 0;
let to = 0;

class Rollback extends Error {}

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = intakeDb(tdb.db);
  ids = await seedMaster(db);
  const m = (
    target_table: 'recruit_ledger' | 'maintain_ledger',
    target_field: string,
    source_field: string,
    sort_order: number,
    extra: { transform_rule?: string; is_required?: boolean; default_value?: string } = {},
  ) => ({ company_code: 'L001', target_table, target_field, source_field, sort_order, ...extra });
  await db
    .insertInto('company_field_mapping')
    .values([
      m('recruit_ledger', 'policy_no', 'POLICY', 1, { transform_rule: 'TRIM|UPPER' }),
      m('recruit_ledger', 'premium', 'PREM', 2, { transform_rule: 'DIVIDE:100' }),
      m('recruit_ledger', 'company_amount', 'COMM', 3, { is_required: true }),
      m('recruit_ledger', 'insurance_type', 'TYPE', 4, { transform_rule: 'TRIM|CODE_MAP:INSURANCE_TYPE' }),
      m('recruit_ledger', 'pay_method', 'PAY', 5, { default_value: 'MONTHLY' }),
      m('maintain_ledger', 'policy_no', 'POLICY', 1, { transform_rule: 'TRIM' }),
      m('maintain_ledger', 'premium', 'PREM', 2, { transform_rule: 'MULTIPLY:0.5' }),
      m('maintain_ledger', 'company_amount', 'COMM', 3),
      m('maintain_ledger', 'commission_year', 'YEAR', 4),
      m('maintain_ledger', 'settle_month', 'MONTH', 5),
    ])
    .execute();
  await db
    .insertInto('code_mapping')
    .values([
      { company_code: 'L001', code_type: 'INSURANCE_TYPE', source_code: '01', target_code: 'LIFE' },
      { company_code: 'L001', code_type: 'INSURANCE_TYPE', source_code: '02', target_code: 'ANNUITY', is_active: false },
    ])
    .execute();
  for (let i = 1; i <= 9; i++) await insertContract(db, ids, `P-${i}`, '2025-01-08');
  await insertContract(db, ids, 'E-1', '2025-01-09');
  await insertContract(db, ids, 'M-1', '2023-03-15'); // month 22 at 2025-01-31: year 2
  await insertContract(db, ids, 'M-2', '2024-06-01'); // year 1: not a maintain year
  await insertContract(db, ids, 'M-3', '2021-01-31'); // month 48: year 5
  const otherProduct = await insertProduct(db, 'N002', 'NP-1');
  await db
    .insertInto('contract')
    .values({ agent_id: ids.agentId, product_id: otherProduct, policy_no: 'N-1', premium: '5000.00', contract_date: '2025-01-02' })
    .execute();

  const rows: [string, string, unknown][] = [
    ['plain', 'RECRUIT', { POLICY: ' p-1 ', PREM: '12345', COMM: '1500.5', TYPE: ' 01 ' }],
    ['numbers', 'RECRUIT', '{"POLICY":"P-2","PREM":12345,"COMM":1500.5,"PAY":null}'],
    ['trailingZero', 'RECRUIT', '{"POLICY":"P-3","COMM":1500.50}'],
    ['halfUp', 'RECRUIT', { POLICY: 'P-4', PREM: '12345.678', COMM: '0.125', PAY: 'YEARLY' }],
    ['commas', 'RECRUIT', { POLICY: 'P-5', COMM: '1,500.00' }],
    ['tooLarge', 'RECRUIT', { POLICY: 'P-6', COMM: '10000000000000' }],
    ['negative', 'RECRUIT', { POLICY: 'P-6', COMM: '-1' }],
    ['required', 'RECRUIT', { POLICY: 'P-6', COMM: '  ' }],
    ['requiredNull', 'RECRUIT', '{"POLICY":"P-6","COMM":null}'],
    ['notNumber', 'RECRUIT', { POLICY: 'P-6', PREM: 'x', COMM: '10' }],
    ['codeMapFail', 'RECRUIT', { POLICY: 'P-6', COMM: '10', TYPE: '02' }],
    ['unicode', 'RECRUIT', { POLICY: 'P-７', COMM: '10' }],
    ['tab', 'RECRUIT', { POLICY: '\tp-7', COMM: '10' }],
    ['escaped', 'RECRUIT', '{"POLICY":"P-\\"8","COMM":"10"}'],
    ['unicodeEscape', 'RECRUIT', '{"POLICY":"E-\\u0031","COMM":"5"}'],
    ['boolean', 'RECRUIT', { POLICY: 'P-8', COMM: true }],
    ['structured', 'RECRUIT', { POLICY: ['P-8'], COMM: '1' }],
    ['noPolicy', 'RECRUIT', { POLICY: '   ', COMM: '1' }],
    ['unknownPolicy', 'RECRUIT', { POLICY: 'P-404', COMM: '1' }],
    ['otherCarrier', 'RECRUIT', { POLICY: 'N-1', COMM: '1' }],
    ['badJson', 'RECRUIT', '{not json'],
    ['array', 'RECRUIT', '[1,2]'],
    ['unknownType', 'BONUS', { POLICY: 'P-8' }],
    ['dupKeys', 'RECRUIT', '{"POLICY":"P-8","COMM":"1","COMM":"2.5"}'],
    // one ledger key three times: the highest raw_id wins whichever path maps it
    ['keyFirst', 'RECRUIT', { POLICY: 'P-9', COMM: '1,000.00' }],
    ['keySecond', 'RECRUIT', { POLICY: 'P-9', COMM: '2000' }],
    ['keyThird', 'RECRUIT', { POLICY: 'P-9', COMM: '3,000.00' }],
    ['maintainDerived', 'MAINTAIN', { POLICY: 'M-1', PREM: '333.33', COMM: '40', MONTH: '202501' }],
    ['maintainYear1', 'MAINTAIN', { POLICY: 'M-2', COMM: '40' }],
    ['maintainMapped', 'MAINTAIN', { POLICY: 'M-2', COMM: '41', YEAR: ' 3 ' }],
    ['maintainYear6', 'MAINTAIN', { POLICY: 'M-2', COMM: '42', YEAR: '6' }],
    ['maintainYear5', 'MAINTAIN', { POLICY: 'M-3', COMM: '43' }],
    ['maintainWrongMonth', 'MAINTAIN', { POLICY: 'M-3', COMM: '44', MONTH: '202502' }],
    ['recruitOfMaintained', 'RECRUIT', '{"POLICY":"M-1","COMM":"1","YEAR":"2"}'],
  ];
  for (const [name, type, content] of rows) raws[name] = await insertRaw(db, 'L001', MONTH, type, content);
  from = Math.min(...Object.values(raws));
  to = Math.max(...Object.values(raws));
});

afterAll(async () => {
  await tdb?.drop();
});

interface Snapshot {
  counts: unknown;
  raw: unknown[];
  ledger: unknown[];
  errors: unknown[];
}

async function snapshot(trx: Db): Promise<Omit<Snapshot, 'counts'>> {
  const { rows: raw } = await sql`
    SELECT r.raw_id, r.parse_status, r.mapped_table, r.reported_amount::text,
           coalesce(rl.contract_id, ml.contract_id) AS contract_id, coalesce(rl.commission_year, ml.commission_year) AS year
    FROM raw_commission_data r
    LEFT JOIN recruit_ledger rl ON r.mapped_table = 'recruit_ledger' AND rl.ledger_id = r.mapped_ledger_id
    LEFT JOIN maintain_ledger ml ON r.mapped_table = 'maintain_ledger' AND ml.ledger_id = r.mapped_ledger_id
    ORDER BY r.raw_id`.execute(trx);
  const { rows: ledger } = await sql`
    SELECT 'R' AS t, contract_id, commission_year, policy_no, company_code, product_code, insurance_type, premium::text,
           pay_method, reported_premium::text, reported_company_amount::text, raw_id, reconcile_status
    FROM recruit_ledger
    UNION ALL
    SELECT 'M', contract_id, commission_year, policy_no, company_code, product_code, insurance_type, premium::text,
           pay_method, reported_premium::text, reported_company_amount::text, raw_id, reconcile_status
    FROM maintain_ledger
    ORDER BY 1, 2, 3`.execute(trx);
  const { rows: errors } = await sql`
    SELECT raw_id, error_type, error_field, error_value, error_message, resolve_status
    FROM parse_error_log ORDER BY raw_id, error_id`.execute(trx);
  return { raw, ledger, errors };
}

/** Runs the chunk in a transaction that is rolled back; returns what it wrote. */
async function transformed(setBased: boolean): Promise<Snapshot> {
  let result: Snapshot | undefined;
  await clientTransaction(tdb.db, async ({ db: trx }) => {
    const scope = { settleMonth: MONTH, companyCode: 'L001', progress: () => undefined };
    const counts = await transformChunk(scope, trx, { from, to }, { setBased });
    result = { counts, ...(await snapshot(trx)) };
    throw new Rollback();
  }).catch((err: unknown) => {
    if (!(err instanceof Rollback)) throw err;
  });
  return result!;
}

describe('transformData set-based pass', () => {
  it('writes exactly what the JS mapper writes: ledger rows, raw outcomes, parse errors', async () => {
    const js = await transformed(false);
    const set = await transformed(true);
    expect(set).toEqual(js);
    // 34 rows: 15 OK (three of them one ledger key), 19 errors
    expect(js.counts).toEqual({ total: 34, success: 15, error: 19, skipped: 0 });
    const types = (js.errors as { error_type: string }[]).map((e) => e.error_type);
    const count = (t: string) => types.filter((x) => x === t).length;
    expect(
      ['INVALID_INPUT', 'CONTRACT_NOT_FOUND', 'REQUIRED', 'TRANSFORM_FAIL', 'CODE_MAP_FAIL', 'NO_POLICY', 'JSON_PARSE', 'UNKNOWN_TYPE'].map(count),
    ).toEqual([8, 4, 2, 1, 1, 1, 1, 1]);
  });

  it('maps the plain rows in SQL and leaves errors and unusual values to the JS mapper', async () => {
    await clientTransaction(tdb.db, async ({ db: trx }) => {
      const rules = await loadCompanyRules(intakeDb(trx), ['L001'], '2025-01-01');
      const pass = await setBasedPass(trx, MONTH, 'L001', { from, to }, rules);
      const sqlTaken = Object.entries(raws)
        .filter(([, id]) => !pass.rest.some((r) => r.raw_id === id))
        .map(([name]) => name)
        .sort();
      expect(sqlTaken).toEqual(
        ['dupKeys', 'halfUp', 'keySecond', 'maintainDerived', 'maintainMapped', 'maintainYear5', 'numbers', 'plain', 'recruitOfMaintained'].sort(),
      );
      expect([pass.total, pass.ok]).toEqual([34, 9]);
      // keySecond's ledger row is known to the JS mapper, which then writes keyThird over it
      expect([...pass.written.values()].find((k) => k.rawId === raws.keySecond)).toMatchObject({ commissionYear: 1 });
      throw new Rollback();
    }).catch((err: unknown) => {
      if (!(err instanceof Rollback)) throw err;
    });
  });

  it('gives the hand-computed figures', async () => {
    const set = await transformed(true);
    const ledger = set.ledger as { policy_no: string; commission_year: number; reported_premium: string | null; reported_company_amount: string; raw_id: number; insurance_type: string; pay_method: string }[];
    const byPolicy = Object.fromEntries(ledger.map((l) => [`${l.policy_no}/${l.commission_year}`, l]));
    // 12345 / 100 = 123.45; 1500.5 -> 1500.50; ' 01 ' -> LIFE; PAY blank -> default MONTHLY
    expect(byPolicy['P-1/1']).toMatchObject({ reported_premium: '123.45', reported_company_amount: '1500.50', insurance_type: 'LIFE', pay_method: 'MONTHLY' });
    // 12345.678 / 100 = 123.45678 -> 123.46; 0.125 -> 0.13 (half up)
    expect(byPolicy['P-4/1']).toMatchObject({ reported_premium: '123.46', reported_company_amount: '0.13', pay_method: 'YEARLY' });
    expect(byPolicy['P-5/1']).toMatchObject({ reported_company_amount: '1500.00' });
    expect(byPolicy['E-1/1']).toMatchObject({ reported_company_amount: '5.00', raw_id: raws.unicodeEscape });
    expect(byPolicy['P-8/1']).toMatchObject({ reported_company_amount: '2.50' });
    expect(byPolicy['P-9/1']).toMatchObject({ reported_company_amount: '3000.00', raw_id: raws.keyThird });
    // 333.33 x 0.5 = 166.665 -> 166.67
    expect(byPolicy['M-1/2']).toMatchObject({ reported_premium: '166.67', reported_company_amount: '40.00' });
    expect(byPolicy['M-2/3']).toMatchObject({ reported_company_amount: '41.00' });
    expect(byPolicy['M-3/5']).toMatchObject({ reported_company_amount: '43.00' });
    expect(Object.keys(byPolicy).sort()).toEqual(
      ['E-1/1', 'M-1/1', 'M-1/2', 'M-2/3', 'M-3/5', 'P-1/1', 'P-2/1', 'P-3/1', 'P-4/1', 'P-5/1', 'P-7/1', 'P-8/1', 'P-9/1'],
    );
  });
});
