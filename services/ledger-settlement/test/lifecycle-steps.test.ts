import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveCorrection, createRecalcCorrection } from '../src/corrections/correction.service.js';
import { holdSettlement } from '../src/holds/hold.service.js';
import { closeMonth } from '../src/period-closes/period-close.service.js';
import { moveSettlement } from '../src/settle/settle.service.js';
import { allSteps, createHarness, stepCounts, type Harness } from './steps-harness.js';

/**
 * The lifecycle inside the monthly run (issue 15): holds released by their condition, RETRO_PLUS and
 * RETRO_MINUS from retroactive rule revisions (idempotent), corrections counted by the aggregate, a closed
 * month's run refused. Amounts by hand: pct(x, r) = x * r / 100 HALF_UP, TAX_RATE 3.3.
 *
 * Book: agents 2001 and 2002 (FC, grade 1), product 601 (LIFE); commission_rate 11: year 1 10 %;
 * payout_rule 21: FC LIFE year 1 60 %. Contracts 9101 (2001, 100000.00, 2025-01-10), 9102 (2002, 50000.00,
 * 2025-01-20), 9103 (2001, 30000.00, 2025-02-05).
 */
let h: Harness;

async function seed(): Promise<void> {
  await h.tdb.pool.query(`
    INSERT INTO organization (org_id, parent_org_id, org_name, org_type, org_level) VALUES (100, NULL, 'HQ', 'HQ', 1), (111, 100, 'Team', 'TM', 2);
    INSERT INTO agent (agent_id, org_id, grade_id, agent_name, status) VALUES (2001, 111, 1, 'Ann FC', 'ACTIVE'), (2002, 111, 1, 'Bob FC', 'ACTIVE');
    INSERT INTO insurance_company (company_id, company_code, company_name, company_type) VALUES (1, 'L001', 'Alpha Life', 'LIFE');
    INSERT INTO product (product_id, company_id, product_code, product_name, insurance_type) VALUES (601, 1, 'P-LIFE', 'Life plan', 'LIFE');
    INSERT INTO commission_rate (rate_id, product_id, commission_year, rate_pct, effective_from) VALUES (11, 601, 1, 10, '2020-01-01');
    INSERT INTO payout_rule (rule_id, grade_id, insurance_type, commission_year, payout_pct, effective_from) VALUES (21, 1, 'LIFE', 1, 60, '2020-01-01');
    INSERT INTO contract (contract_id, agent_id, product_id, policy_no, premium, pay_cycle, status, contract_date) VALUES
      (9101, 2001, 601, 'POL-9101', 100000.00, 'MONTHLY', 'ACTIVE', '2025-01-10'),
      (9102, 2002, 601, 'POL-9102', 50000.00, 'MONTHLY', 'ACTIVE', '2025-01-20'),
      (9103, 2001, 601, 'POL-9103', 30000.00, 'MONTHLY', 'ACTIVE', '2025-02-05');
  `);
}

/** A revision as master-data's /revise writes it: the row closed at `from` (version + 1), the next version from then on. */
async function revise(table: 'payout_rule' | 'commission_rate', id: number, newId: number, from: string, pct: string) {
  const [key, column, copied] =
    table === 'payout_rule'
      ? ['rule_id', 'payout_pct', 'grade_id, insurance_type, commission_year, pay_method_cond, performance_grade']
      : ['rate_id', 'rate_pct', 'product_id, commission_year, pay_method_cond, min_premium'];
  await h.tdb.pool.query(`UPDATE ${table} SET effective_to = $1, version = version + 1 WHERE ${key} = $2`, [from, id]);
  await h.tdb.pool.query(
    `INSERT INTO ${table} (${key}, ${column}, effective_from, effective_to, version, ${copied})
     SELECT $1, $2, $3, NULL, version, ${copied} FROM ${table} WHERE ${key} = $4`,
    [newId, pct, from, id],
  );
}

async function settle(agentId: number, month: string) {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT settle_id, recruit_total, exception_plus, exception_minus, correction_total, gross_amount, tax_amount, net_amount, status
    FROM settle_master WHERE agent_id = ${agentId} AND settle_month = ${month}`.execute(h.db);
  return rows[0]!;
}

async function retroRows(month: string) {
  const { rows } = await sql<Record<string, any>>`
    SELECT ledger_id, agent_id, contract_id, exception_code, direction, amount, approve_status, source, calc_basis
    FROM exception_ledger WHERE settle_month = ${month} AND exception_code IN ('RETRO_PLUS', 'RETRO_MINUS')
    ORDER BY agent_id, contract_id`.execute(h.db);
  return rows;
}

async function run(month: string) {
  const status = await h.runMonth(month);
  expect(status.run.status, JSON.stringify(status.steps.filter((s) => s.status !== 'COMPLETED'))).toBe('COMPLETED');
  return status;
}

beforeAll(async () => {
  h = await createHarness();
  await seed();
  await h.startWorkers(allSteps());
});

afterAll(async () => {
  await h?.close();
});

describe('the lifecycle in the monthly run', () => {
  it('202501: computes the book; 2002 held until a license is valid, 2001 confirmed', async () => {
    await run('202501');
    // 9101: 100000.00 x 10 % = 10000.00, x 60 % = 6000.00; tax 198.00. 9102: 5000.00 -> 3000.00; tax 99.00
    expect(await settle(2001, '202501')).toMatchObject({ gross_amount: '6000.00', tax_amount: '198.00', net_amount: '5802.00' });
    expect(await settle(2002, '202501')).toMatchObject({ gross_amount: '3000.00', tax_amount: '99.00', net_amount: '2901.00' });
    const s2002 = Number((await settle(2002, '202501')).settle_id);
    await holdSettlement(h.db, { settleId: s2002, userId: null, reason: 'license expired', reasonCode: 'LICENSE', condition: { type: 'LICENSE_VALID' } });
    await moveSettlement(h.db, { settleId: Number((await settle(2001, '202501')).settle_id), action: 'confirm', userId: null });
  });

  it('202502 after a retroactive payout revision (60 % -> 65 % from 2025-01-01): RETRO_PLUS per contract, exact', async () => {
    await revise('payout_rule', 21, 22, '2025-01-01', '65');
    const status = await run('202502');
    // 9101 (CONFIRMED, 202501): stored 6000.00, re-priced pct(10000.00, 65) = 6500.00 -> +500.00
    // 9102 (HOLD, 202501): stored 3000.00, re-priced pct(5000.00, 65) = 3250.00 -> +250.00
    const rows = await retroRows('202502');
    expect(rows.map((r) => [r.agent_id, r.contract_id, r.exception_code, r.direction, r.amount, r.approve_status, r.source])).toEqual([
      [2001, 9101, 'RETRO_PLUS', 'PLUS', '500.00', 'PENDING', 'AUTO'],
      [2002, 9102, 'RETRO_PLUS', 'PLUS', '250.00', 'PENDING', 'AUTO'],
    ]);
    expect(rows[0]!.calc_basis.lines).toEqual([
      {
        table: 'recruit_ledger',
        ledgerId: expect.any(Number),
        settleMonth: '202501',
        commissionYear: 1,
        stored: '6000.00',
        repriced: '6500.00',
        compensated: '0.00',
        diff: '500.00',
        companyRate: { from: { id: 11, version: 1, pct: '10' }, to: { id: 11, version: 1, pct: '10' } },
        payoutRule: { from: { id: 21, version: 1, pct: '60' }, to: { id: 22, version: 2, pct: '65' } },
      },
    ]);
    expect(stepCounts(status, 'chargebackException')).toMatchObject({ total: 2, success: 2, error: 0, skipped: 0 });
    // the license condition is not met yet: still held, and the hold says why
    const hold = (await sql<Record<string, unknown>>`SELECT status, last_check_note FROM settle_hold WHERE agent_id = 2002`.execute(h.db)).rows[0]!;
    expect(hold.status).toBe('ACTIVE');
    expect(hold.last_check_note).toMatch(/^no license valid on \d{4}-\d{2}-\d{2}$/);
    // 9103: 30000.00 x 10 % = 3000.00, x 65 % = 1950.00; the PENDING retro rows do not count yet
    expect(await settle(2001, '202502')).toMatchObject({ recruit_total: '1950.00', exception_plus: '0.00', gross_amount: '1950.00' });
  });

  it('a re-run of 202502 after a license and the approvals: the hold is released by its condition, nothing doubles', async () => {
    await h.tdb.pool.query(
      `INSERT INTO agent_license (agent_id, license_type, license_no, issue_date, expiry_date) VALUES (2002, 'LIFE', 'L-2002', '2020-01-01', '2099-12-31')`,
    );
    await h.tdb.pool.query(`UPDATE exception_ledger SET approve_status = 'APPROVED' WHERE exception_code = 'RETRO_PLUS' AND settle_month = '202502'`);
    const status = await run('202502');
    const runId = status.run.jobLogId;
    const hold = (await sql<Record<string, any>>`SELECT * FROM settle_hold WHERE agent_id = 2002`.execute(h.db)).rows[0]!;
    expect(hold).toMatchObject({
      status: 'RELEASED',
      release_kind: 'CONDITION',
      release_note: 'condition met: license L-2002 valid until 2099-12-31',
      release_run_id: Number(runId),
    });
    expect(await settle(2002, '202501')).toMatchObject({ status: 'CALCULATED', gross_amount: '3000.00' });
    const log = await h.tdb.pool.query(
      `SELECT user_id, menu_code, action, request_id FROM data_change_log WHERE table_name = 'settle_master' AND record_id = $1`,
      [String(hold.settle_id)],
    );
    expect(log.rows).toEqual([{ user_id: null, menu_code: 'SETTLE_LIST', action: 'UPDATE', request_id: `run-${runId}` }]);
    // the approved retro rows stay, nothing new is proposed (9101 is made up; 9102 is no longer locked)
    expect((await retroRows('202502')).map((r) => [r.contract_id, r.amount, r.approve_status])).toEqual([
      [9101, '500.00', 'APPROVED'],
      [9102, '250.00', 'APPROVED'],
    ]);
    // 2001: 1950.00 + 500.00 = 2450.00; tax = pct(2450.00, 3.3) = 80.85; net 2369.15
    expect(await settle(2001, '202502')).toMatchObject({ exception_plus: '500.00', gross_amount: '2450.00', tax_amount: '80.85', net_amount: '2369.15' });
    // 2002: 250.00; tax 8.25; net 241.75
    expect(await settle(2002, '202502')).toMatchObject({ gross_amount: '250.00', tax_amount: '8.25', net_amount: '241.75' });
  });

  it('an approved correction is counted as correction_total by the aggregate, part of gross', async () => {
    const { rows } = await sql<{ correction_id: number }>`
      INSERT INTO settle_correction (agent_id, original_month, amount, reason, created_by)
      VALUES (2001, '202501', -100.00, 'advance taken twice', NULL) RETURNING correction_id`.execute(h.db);
    const booked = await approveCorrection(h.db, { correctionId: Number(rows[0]!.correction_id), userId: 1 });
    // 202501 of 2001 is CONFIRMED: the first month that still recalculates is 202502
    expect(booked.after.target_month).toBe('202502');
    // 2450.00 - 100.00 = 2350.00; tax = pct(2350.00, 3.3) = 77.55; net 2272.45 (recomputed at approval and by the run)
    const expected = { correction_total: '-100.00', gross_amount: '2350.00', tax_amount: '77.55', net_amount: '2272.45' };
    expect(await settle(2001, '202502')).toMatchObject(expected);
    await run('202502');
    expect(await settle(2001, '202502')).toMatchObject(expected);
    const basis = (await sql<{ b: any }>`SELECT calc_basis AS b FROM settle_master WHERE agent_id = 2001 AND settle_month = '202502'`.execute(h.db)).rows[0]!.b;
    expect(basis.counts).toEqual({ recruit: 1, maintain: 0, override: 0, exceptionPlus: 1, exceptionMinus: 0, chargeback: 0, correction: 1 });
  });

  it('202503 after a retroactive rate cut (10 % -> 8 %): RETRO_MINUS net of what was already made up; idempotent', async () => {
    await revise('commission_rate', 11, 12, '2025-01-01', '8');
    await run('202503');
    // 9101: re-priced pct(100000.00, 8) = 8000.00, pct(8000.00, 65) = 5200.00; stored 6000.00; made up +500.00
    //       -> 5200.00 - 6000.00 - 500.00 = -1300.00. (9102's rows are CALCULATED again: not a retro case.)
    const expectRows = async () => {
      const rows = await retroRows('202503');
      expect(rows.map((r) => [r.agent_id, r.contract_id, r.exception_code, r.direction, r.amount, r.approve_status])).toEqual([
        [2001, 9101, 'RETRO_MINUS', 'MINUS', '1300.00', 'PENDING'],
      ]);
      expect(rows[0]!.calc_basis.lines[0]).toMatchObject({
        stored: '6000.00',
        repriced: '5200.00',
        compensated: '500.00',
        diff: '-1300.00',
        companyRate: { from: { id: 11, version: 1, pct: '10' }, to: { id: 12, version: 2, pct: '8' } },
      });
    };
    await expectRows();
    await run('202503');
    await expectRows();
    const scans = await h.tdb.pool.query(`SELECT rule_table, rule_id, rule_version, settle_month FROM retro_rule_scan ORDER BY 1, 2`);
    expect(scans.rows).toEqual([
      { rule_table: 'commission_rate', rule_id: 11, rule_version: 2, settle_month: '202503' },
      { rule_table: 'commission_rate', rule_id: 12, rule_version: 2, settle_month: '202503' },
      { rule_table: 'payout_rule', rule_id: 21, rule_version: 2, settle_month: '202502' },
      { rule_table: 'payout_rule', rule_id: 22, rule_version: 2, settle_month: '202502' },
    ]);
  });

  it('a recalculation correction re-prices a month under today\'s rules net of what was made up, once', async () => {
    // 9102 (2002, 202501): pct(50000.00, 8) = 4000.00, pct(4000.00, 65) = 2600.00; stored 3000.00; RETRO +250.00 made up
    //   -> 2600.00 - 3000.00 - 250.00 = -650.00
    const c = await createRecalcCorrection(h.db, { agentId: 2002, originalMonth: '202501', reason: 'rates revised', userId: 1 });
    expect(c.after).toMatchObject({ amount: '-650.00', correction_type: 'RECALC', status: 'PENDING', original_month: '202501' });
    expect((c.after.calc_basis as any).lines).toEqual([
      expect.objectContaining({ table: 'recruit_ledger', stored: '3000.00', repriced: '2600.00', compensated: '250.00', diff: '-650.00' }),
    ]);
    // the month is untouched, and asking again finds nothing left (the PENDING recalculation counts as made up)
    expect(await settle(2002, '202501')).toMatchObject({ gross_amount: '3000.00' });
    await expect(createRecalcCorrection(h.db, { agentId: 2002, originalMonth: '202501', reason: 'again', userId: 1 })).rejects.toThrow(
      "The 1 ledger rows of agent 2002 in 202501 price the same under today's rules; nothing to correct",
    );
  });

  it('a CLOSED month refuses a run even when requested around the API', async () => {
    await moveSettlement(h.db, { settleId: Number((await settle(2002, '202501')).settle_id), action: 'confirm', userId: null });
    const { rows } = await sql<{ close_id: number }>`INSERT INTO period_close (settle_month) VALUES ('202501') RETURNING close_id`.execute(h.db);
    await closeMonth(h.db, { closeId: Number(rows[0]!.close_id), userId: null });
    await expect(h.runMonth('202501')).rejects.toThrow('settle month 202501 is closed');
  });
});
