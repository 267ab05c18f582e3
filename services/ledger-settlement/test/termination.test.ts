import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@csp/db';
import { gatewayClient, startPlatform, TEST_ADMIN_PASSWORD, type Platform } from './e2e-platform.js';

/**
 * Termination settlements through the gateway (issue 15). The rule (@csp/domain correction-termination.ts):
 * final month T = the leave date's month;
 *   final net = unpaid confirmed (gross of CONFIRMED rows without a live payment)
 *             - accelerated chargebacks (CALCULATED installments due after T)
 *             - pending deductions (PENDING, T and earlier) +/- pending exceptions (of CONFIRMED/PAID months)
 * and every row counted is taken over on approval so no monthly run or payment counts it again; a negative
 * final net is ONE receivable deduction, a positive one ONE correction booked into the first open month.
 * TAX_RATE 3.3, pct(x, r) = x * r / 100 HALF_UP. Book seeded by SQL; T = 202503 for both leavers.
 *
 *   4001 Eve (leaves 2025-03-20, negative): 202502 CONFIRMED gross 1000.00, no payment; contract D-1 lapsed in
 *        202502 -> installments 600.00 due 202503, 202504, 202505; LOAN 250.00 PENDING in 202503, DUES 40.00
 *        PENDING in 202505.
 *   4002 Finn (leaves 2025-03-31, positive): 202501 CONFIRMED gross 500.00 with a PENDING payment; 202502
 *        CONFIRMED gross 2000.00, no payment, a PENDING MISC_PLUS exception 120.00 in it; installment 300.00
 *        due 202504; ADVANCE 100.00 PENDING in 202503.
 *   4003 Gus (stays): installment 300.00 due 202504, the control.
 */
let p: Platform;
let admin: string;
let approver: string;
let approverId: number;
const ids: Record<string, number> = {};

const { call, ok, runMonth } = gatewayClient(() => p, () => admin);

async function settleOf(agentId: number, month: string) {
  const list = await ok('GET', `/api/settle?settleMonth=${month}&agentId=${agentId}`);
  return list.list[0] as Record<string, any> | undefined;
}

const figures = (r: any) => [r.unpaidConfirmed, r.futureChargebacks, r.pendingDeductions, r.pendingExceptions, r.finalNet, r.receivable];
const q = async (text: string, params: unknown[] = []) => (await p.pool.query(text, params)).rows;

beforeAll(async () => {
  p = await startPlatform();
  admin = await p.login('admin', TEST_ADMIN_PASSWORD);
  const [row] = await q(
    `WITH u AS (INSERT INTO users (login_id, password, user_name, status) VALUES ('approver', $1, 'Second Admin', 'ACTIVE') RETURNING user_id)
     INSERT INTO user_role (user_id, role_id) SELECT u.user_id, r.role_id FROM u, role r WHERE r.role_code = 'ADMIN' RETURNING user_id`,
    [await hashPassword('Approver-pass-1')],
  );
  approverId = Number(row.user_id);
  approver = await p.login('approver', 'Approver-pass-1');
  await p.pool.query(`
    INSERT INTO organization (org_id, parent_org_id, org_name, org_type, org_level) VALUES (400, NULL, 'HQ', 'HQ', 1), (411, 400, 'Team', 'TM', 2);
    INSERT INTO agent (agent_id, org_id, grade_id, agent_name, status, join_date) VALUES
      (4001, 411, 1, 'Eve FC', 'ACTIVE', '2023-01-02'), (4002, 411, 1, 'Finn FC', 'ACTIVE', '2023-01-02'), (4003, 411, 1, 'Gus FC', 'ACTIVE', '2023-01-02');
    INSERT INTO insurance_company (company_id, company_code, company_name, company_type) VALUES (40, 'L040', 'Delta Life', 'LIFE');
    INSERT INTO product (product_id, company_id, product_code, product_name, insurance_type) VALUES (801, 40, 'D-LIFE', 'Delta life', 'LIFE');
    INSERT INTO commission_rate (product_id, commission_year, rate_pct, effective_from) VALUES (801, 1, 10, '2020-01-01');
    INSERT INTO payout_rule (grade_id, insurance_type, commission_year, payout_pct, effective_from) VALUES (1, 'LIFE', 1, 60, '2020-01-01');
    INSERT INTO contract (contract_id, agent_id, product_id, policy_no, premium, pay_cycle, status, contract_date, lapse_date) VALUES
      (48001, 4001, 801, 'D-1', 30000.00, 'MONTHLY', 'LAPSE', '2024-09-10', '2025-02-10'),
      (48002, 4002, 801, 'D-2', 15000.00, 'MONTHLY', 'LAPSE', '2024-09-10', '2025-02-12'),
      (48003, 4003, 801, 'D-3', 15000.00, 'MONTHLY', 'LAPSE', '2024-09-10', '2025-02-14');
    INSERT INTO chargeback (contract_id, agent_id, settle_month, lapse_month, lapse_date, lapse_month_diff, base_amount, cb_rate, cb_amount,
        installment_seq, installment_total, calc_basis) VALUES
      (48001, 4001, '202503', '202502', '2025-02-10', 5, 1800.00, 100, 600.00, 1, 3, '{}'),
      (48001, 4001, '202504', '202502', '2025-02-10', 5, 1800.00, 100, 600.00, 2, 3, '{}'),
      (48001, 4001, '202505', '202502', '2025-02-10', 5, 1800.00, 100, 600.00, 3, 3, '{}'),
      (48002, 4002, '202504', '202502', '2025-02-12', 5, 900.00, 100, 300.00, 3, 3, '{}'),
      (48003, 4003, '202504', '202502', '2025-02-14', 5, 900.00, 100, 300.00, 3, 3, '{}');
    INSERT INTO settle_master (agent_id, settle_month, recruit_total, gross_amount, tax_amount, net_amount, status, calc_date) VALUES
      (4001, '202502', 1000.00, 1000.00, 33.00, 967.00, 'CONFIRMED', now() - interval '1 day'),
      (4002, '202501', 500.00, 500.00, 16.50, 483.50, 'CONFIRMED', now() - interval '1 day'),
      (4002, '202502', 2000.00, 2000.00, 66.00, 1934.00, 'CONFIRMED', now() - interval '1 day');
    INSERT INTO payment (settle_id, agent_id, settle_month, amount, net_amount, status)
      SELECT settle_id, agent_id, settle_month, 500.00, 483.50, 'PENDING' FROM settle_master WHERE agent_id = 4002 AND settle_month = '202501';
    INSERT INTO exception_ledger (agent_id, settle_month, exception_code, direction, amount, reason) VALUES (4002, '202502', 'MISC_PLUS', 'PLUS', 120.00, 'bonus missed');
    INSERT INTO agent_deduction (agent_id, settle_month, deduction_type, amount) VALUES
      (4001, '202503', 'LOAN', 250.00), (4001, '202505', 'DUES', 40.00), (4002, '202503', 'ADVANCE', 100.00);
  `);
  for (const [key, sqlText] of [
    ['eveRow', `SELECT settle_id AS id FROM settle_master WHERE agent_id = 4001 AND settle_month = '202502'`],
    ['finnRow', `SELECT settle_id AS id FROM settle_master WHERE agent_id = 4002 AND settle_month = '202502'`],
    ['loan', `SELECT deduction_id AS id FROM agent_deduction WHERE deduction_type = 'LOAN'`],
    ['dues', `SELECT deduction_id AS id FROM agent_deduction WHERE deduction_type = 'DUES'`],
    ['advance', `SELECT deduction_id AS id FROM agent_deduction WHERE deduction_type = 'ADVANCE'`],
    ['bonus', `SELECT ledger_id AS id FROM exception_ledger WHERE agent_id = 4002`],
  ] as const) {
    ids[key] = Number((await q(sqlText))[0].id);
  }
  for (const row of await q(`SELECT cb_id, agent_id, settle_month FROM chargeback ORDER BY cb_id`)) ids[`cb${row.agent_id}_${row.settle_month}`] = Number(row.cb_id);
}, 120_000);

afterAll(async () => {
  await p?.close();
});

describe('termination settlement through the gateway', () => {
  it('the run of 202504 charges the installments due then (before anyone leaves)', async () => {
    await runMonth('202504');
    for (const agentId of [4001, 4002, 4003]) {
      const s = await settleOf(agentId, '202504');
      expect([agentId, s?.chargebackTotal, s?.grossAmount]).toEqual([agentId, agentId === 4001 ? '600.00' : '300.00', agentId === 4001 ? '-600.00' : '-300.00']);
    }
  }, 180_000);

  it('creates a DRAFT for Eve with the final net worked out by hand; bad input is refused', async () => {
    const res = await call('POST', '/api/termination-settlements', { agentId: 4001, leaveDate: '2025-03-20', note: 'moves abroad' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.eve = res.body.data.id;
    const d = await ok('GET', `/api/termination-settlements/${ids.eve}`);
    // unpaid confirmed: 202502 gross 1000.00
    // accelerated: the installments due after 202503: 600.00 (202504) + 600.00 (202505) = 1200.00; 202503's stays with its run
    // pending deductions of 202503 and earlier: LOAN 250.00 (DUES 40.00 of 202505 is left to its month)
    // final net = 1000.00 - 1200.00 - 250.00 + 0.00 = -450.00 -> receivable 450.00
    expect(figures(d)).toEqual(['1000.00', '1200.00', '250.00', '0.00', '-450.00', '450.00']);
    expect(d).toMatchObject({ status: 'DRAFT', agentId: 4001, leaveDate: '2025-03-20', settleMonth: '202503', note: 'moves abroad', preview: true });
    expect(d.items).toEqual([
      { kind: 'UNPAID_CONFIRMED', id: ids.eveRow, settleMonth: '202502', amount: '1000.00' },
      { kind: 'FUTURE_CHARGEBACK', id: ids.cb4001_202504, settleMonth: '202504', amount: '-600.00' },
      { kind: 'FUTURE_CHARGEBACK', id: ids.cb4001_202505, settleMonth: '202505', amount: '-600.00' },
      { kind: 'PENDING_DEDUCTION', id: ids.loan, settleMonth: '202503', amount: '-250.00' },
    ]);

    const second = await call('POST', '/api/termination-settlements', { agentId: 4001, leaveDate: '2025-03-31' });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'B009', message: `Agent 4001 already has termination settlement ${ids.eve} (DRAFT)` });
    const unknown = await call('POST', '/api/termination-settlements', { agentId: 999999, leaveDate: '2025-03-20' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'agentId', message: 'agent does not exist' }] } });
    const noDate = await call('POST', '/api/termination-settlements', { agentId: 4003 });
    expect(noDate.body.code).toBe('E411');
    expect(noDate.body.data.errors.map((e: any) => e.field)).toEqual(['leaveDate']);
    expect((await call('GET', '/api/termination-settlements/999999')).body.code).toBe('E404');
    const own = await call('PUT', `/api/termination-settlements/${ids.eve}/approve`, {});
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('E403');
  });

  it('the DRAFT detail recomputes (a preview); the list keeps the stored figures until the approval', async () => {
    await q(`INSERT INTO agent_deduction (agent_id, settle_month, deduction_type, amount) VALUES (4001, '202502', 'AD', 50.00)`);
    ids.ad = Number((await q(`SELECT deduction_id AS id FROM agent_deduction WHERE deduction_type = 'AD'`))[0].id);
    // 1000.00 - 1200.00 - (250.00 + 50.00) = -500.00
    expect(figures(await ok('GET', `/api/termination-settlements/${ids.eve}`))).toEqual(['1000.00', '1200.00', '300.00', '0.00', '-500.00', '500.00']);
    const listed = await ok('GET', '/api/termination-settlements?agentId=4001');
    expect(listed.list.map((r: any) => [r.termId, r.finalNet, r.receivable, r.status])).toEqual([[ids.eve, '-450.00', '450.00', 'DRAFT']]);
  });

  it("approved by another user: one receivable deduction of exactly 500.00, every row counted taken over, Eve retired", async () => {
    const d = await ok('POST', `/api/termination-settlements/${ids.eve}/approve`, { note: 'checked with finance' }, approver);
    expect(figures(d)).toEqual(['1000.00', '1200.00', '300.00', '0.00', '-500.00', '500.00']);
    expect(d).toMatchObject({ status: 'APPROVED', approvedBy: approverId, decisionNote: 'checked with finance', correctionId: null, preview: false, agentStatus: 'LEAVE' });
    expect(d.items.map((i: any) => [i.kind, i.id, i.amount])).toEqual([
      ['FUTURE_CHARGEBACK', ids.cb4001_202504, '-600.00'],
      ['FUTURE_CHARGEBACK', ids.cb4001_202505, '-600.00'],
      ['PENDING_DEDUCTION', ids.ad, '-50.00'],
      ['PENDING_DEDUCTION', ids.loan, '-250.00'],
      ['UNPAID_CONFIRMED', ids.eveRow, '1000.00'],
    ]);
    // the receivable: ONE CHARGEBACK_PENDING deduction of the final month, -(-500.00)
    const deductions = await q(`SELECT deduction_id, settle_month, deduction_type, amount, status FROM agent_deduction WHERE agent_id = 4001 ORDER BY deduction_id`);
    expect(deductions).toEqual([
      { deduction_id: ids.loan, settle_month: '202503', deduction_type: 'LOAN', amount: '250.00', status: 'CANCELLED' },
      { deduction_id: ids.dues, settle_month: '202505', deduction_type: 'DUES', amount: '40.00', status: 'PENDING' },
      { deduction_id: ids.ad, settle_month: '202502', deduction_type: 'AD', amount: '50.00', status: 'CANCELLED' },
      { deduction_id: d.deductionId, settle_month: '202503', deduction_type: 'CHARGEBACK_PENDING', amount: '500.00', status: 'PENDING' },
    ]);
    // the unpaid row is withheld (not paid on top of the final settlement)
    expect(await settleOf(4001, '202502')).toMatchObject({ status: 'HOLD', holdReasonCode: 'TERMINATION', holdReason: `Settled by termination settlement ${ids.eve}` });
    // ... and cannot be released by hand, which would pay it a second time
    const withheld = await settleOf(4001, '202502');
    const release = await call('PUT', `/api/settle/${withheld!.settleId}/release`, {});
    expect(release.body).toMatchObject({ code: 'B001', message: `Settlement ${withheld!.settleId} is withheld by a termination settlement and is settled there; it cannot be released` });
    expect(await q(`SELECT settle_month, status FROM chargeback WHERE agent_id = 4001 ORDER BY settle_month`)).toEqual([
      { settle_month: '202503', status: 'CALCULATED' },
      { settle_month: '202504', status: 'CANCELLED' },
      { settle_month: '202505', status: 'CANCELLED' },
    ]);
    // the 202504 row that had charged the installment shows it at once
    expect(await settleOf(4001, '202504')).toMatchObject({ chargebackTotal: '0.00', grossAmount: '0.00', status: 'CALCULATED' });
    expect(await q(`SELECT status, to_char(leave_date, 'YYYY-MM-DD') AS leave_date FROM agent WHERE agent_id = 4001`)).toEqual([{ status: 'LEAVE', leave_date: '2025-03-20' }]);
    expect(await q(`SELECT change_type, to_char(change_date, 'YYYY-MM-DD') AS change_date FROM agent_org_history WHERE agent_id = 4001`)).toEqual([
      { change_type: 'LEAVE', change_date: '2025-03-20' },
    ]);
    expect((await call('PUT', `/api/termination-settlements/${ids.eve}/approve`, {}, approver)).body.code).toBe('B001');
    const again = await call('POST', '/api/termination-settlements', { agentId: 4001, leaveDate: '2025-04-01' });
    expect(again.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'agentId', message: 'agent 4001 is LEAVE; only an ACTIVE agent is settled for leaving' }] } });
    const deadline = Date.now() + 10_000;
    let logged: string[] = [];
    while (Date.now() < deadline) {
      logged = (await q(`SELECT table_name || ' ' || action AS c FROM data_change_log WHERE menu_code = 'TERM_SETTLE' ORDER BY change_id`)).map((r) => r.c);
      if (logged.includes('agent UPDATE')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(new Set(logged)).toEqual(
      new Set(['termination_settlement CREATE', 'termination_settlement APPROVE', 'settle_master UPDATE', 'chargeback UPDATE', 'agent_deduction UPDATE', 'agent_deduction CREATE', 'agent UPDATE', 'agent_org_history CREATE']),
    );
  });

  it('a positive final net is paid through one correction booked into the first open month', async () => {
    ids.finn = (await ok('POST', '/api/termination-settlements', { agentId: 4002, leaveDate: '2025-03-31' })).id;
    const d = await ok('PUT', `/api/termination-settlements/${ids.finn}/approve`, {}, approver);
    // unpaid confirmed: 202502 gross 2000.00 (202501 has a PENDING payment: payment-tax pays it)
    // accelerated 300.00 (202504); pending deduction ADVANCE 100.00; pending exception +120.00 (PENDING in the CONFIRMED 202502)
    // final net = 2000.00 - 300.00 - 100.00 + 120.00 = 1720.00
    expect(figures(d)).toEqual(['2000.00', '300.00', '100.00', '120.00', '1720.00', '0.00']);
    expect(d).toMatchObject({ status: 'APPROVED', deductionId: null, correctionId: expect.any(Number) });
    const corrections = await q(`SELECT correction_id, amount, status, target_month, correction_type FROM settle_correction WHERE agent_id = 4002`);
    expect(corrections).toEqual([{ correction_id: d.correctionId, amount: '1720.00', status: 'APPROVED', target_month: '202503', correction_type: 'MANUAL' }]);
    expect(await q(`SELECT status, approve_status FROM exception_ledger WHERE ledger_id = $1`, [ids.bonus])).toEqual([{ status: 'CANCELLED', approve_status: 'CANCELLED' }]);
    expect(await q(`SELECT status FROM agent_deduction WHERE deduction_id = $1`, [ids.advance])).toEqual([{ status: 'CANCELLED' }]);
    expect((await settleOf(4002, '202501'))?.status).toBe('CONFIRMED');
    expect((await settleOf(4002, '202502'))?.status).toBe('HOLD');
    expect(await q(`SELECT count(*)::int AS n FROM agent_deduction WHERE agent_id = 4002 AND deduction_type = 'CHARGEBACK_PENDING'`)).toEqual([{ n: 0 }]);
  });

  it('the final month keeps its own installment; re-running 202504 does not charge the accelerated ones again', async () => {
    await runMonth('202503');
    // Eve: the installment due in 202503 = 600.00 -> gross -600.00; tax = pct(-600.00, 3.3) = -19.80; net -580.20
    expect(await settleOf(4001, '202503')).toMatchObject({ chargebackTotal: '600.00', grossAmount: '-600.00', taxAmount: '-19.80', netAmount: '-580.20' });
    // Finn: the correction 1720.00; tax = pct(1720.00, 3.3) = 56.76; net 1663.24
    expect(await settleOf(4002, '202503')).toMatchObject({ correctionTotal: '1720.00', grossAmount: '1720.00', taxAmount: '56.76', netAmount: '1663.24' });
    await runMonth('202504');
    // both left in 202503: outside 202504's employment window (DECISIONS "Settlement semantics"), so no settle row
    // at all, and nothing of theirs is charged again (their installments are cancelled, below)
    expect(await settleOf(4001, '202504')).toBeUndefined();
    expect(await settleOf(4002, '202504')).toBeUndefined();
    // the control, who stays: still charged
    expect(await settleOf(4003, '202504')).toMatchObject({ chargebackTotal: '300.00', grossAmount: '-300.00' });
    expect(await q(`SELECT status FROM chargeback WHERE agent_id IN (4001, 4002) AND settle_month > '202503' ORDER BY cb_id`)).toEqual([
      { status: 'CANCELLED' },
      { status: 'CANCELLED' },
      { status: 'CANCELLED' },
    ]);
  }, 300_000);

  it('a DRAFT is cancelled with a reason (then no longer approvable) and the agent may get a new one', async () => {
    const id = (await ok('POST', '/api/termination-settlements', { agentId: 4003, leaveDate: '2025-03-15' })).id;
    expect((await call('PUT', `/api/termination-settlements/${id}/cancel`, {})).body.code).toBe('E411');
    const c = await ok('POST', `/api/termination-settlements/${id}/cancel`, { reason: 'stays after all' });
    expect(c).toMatchObject({ status: 'CANCELLED', decisionNote: 'stays after all', preview: false });
    expect((await call('PUT', `/api/termination-settlements/${id}/approve`, {}, approver)).body.code).toBe('B001');
    expect((await call('PUT', `/api/termination-settlements/${id}/cancel`, { reason: 'again' })).body.code).toBe('B001');
    const next = await call('POST', '/api/termination-settlements', { agentId: 4003, leaveDate: '2025-04-15' });
    expect(next.status).toBe(200);
    expect((await q(`SELECT status FROM agent WHERE agent_id = 4003`))[0].status).toBe('ACTIVE');
  });
});
