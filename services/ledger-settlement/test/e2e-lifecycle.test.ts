import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@csp/db';
import { gatewayClient, startPlatform, TEST_ADMIN_PASSWORD, type Platform } from './e2e-platform.js';
import { expectMonthPartsAddUp } from './parts-of-gross.js';

/**
 * The settlement lifecycle through the gateway (issue 15): runs requested and polled through the API, a
 * month closed and its run refused, a correction approved into the next month, a dispute approved into a
 * correction, a hold released by its condition in the next run. The book is seeded by SQL (the master-data
 * API is e2e-settlement's subject); every figure is worked out by hand below. TAX_RATE 3.3.
 *
 * Book: agents 3001, 3002 (FC); product 701 LIFE; year-1 rate 10 %, FC payout 60 %.
 *   202501: 3001 contract 100000.00 -> 10000.00 -> 6000.00 (tax 198.00); 3002 contract 50000.00 -> 5000.00 -> 3000.00 (tax 99.00)
 *   202502: 3001 contract 30000.00 -> 3000.00 -> 1800.00
 */
let p: Platform;
let admin: string;
let approver: string;
const ids: Record<string, number> = {};

const { call, ok, runMonth } = gatewayClient(() => p, () => admin);

async function settleOf(agentId: number, month: string) {
  const list = await ok('GET', `/api/settle?settleMonth=${month}&agentId=${agentId}`);
  expect(list.total).toBe(1);
  return list.list[0];
}

const figures = (r: any) => [r.grossAmount, r.taxAmount, r.netAmount, r.status];

beforeAll(async () => {
  p = await startPlatform();
  admin = await p.login('admin', TEST_ADMIN_PASSWORD);
  await p.pool.query(
    `WITH u AS (INSERT INTO users (login_id, password, user_name, status) VALUES ('approver', $1, 'Second Admin', 'ACTIVE') RETURNING user_id)
     INSERT INTO user_role (user_id, role_id) SELECT u.user_id, r.role_id FROM u, role r WHERE r.role_code = 'ADMIN'`,
    [await hashPassword('Approver-pass-1')],
  );
  approver = await p.login('approver', 'Approver-pass-1');
  await p.pool.query(`
    INSERT INTO organization (org_id, parent_org_id, org_name, org_type, org_level) VALUES (300, NULL, 'HQ', 'HQ', 1), (311, 300, 'Team', 'TM', 2);
    INSERT INTO agent (agent_id, org_id, grade_id, agent_name, status) VALUES (3001, 311, 1, 'Cara FC', 'ACTIVE'), (3002, 311, 1, 'Dan FC', 'ACTIVE');
    INSERT INTO insurance_company (company_id, company_code, company_name, company_type) VALUES (30, 'L030', 'Gamma Life', 'LIFE');
    INSERT INTO product (product_id, company_id, product_code, product_name, insurance_type) VALUES (701, 30, 'G-LIFE', 'Gamma life', 'LIFE');
    INSERT INTO commission_rate (product_id, commission_year, rate_pct, effective_from) VALUES (701, 1, 10, '2020-01-01');
    INSERT INTO payout_rule (grade_id, insurance_type, commission_year, payout_pct, effective_from) VALUES (1, 'LIFE', 1, 60, '2020-01-01');
    INSERT INTO contract (agent_id, product_id, policy_no, premium, pay_cycle, status, contract_date) VALUES
      (3001, 701, 'G-1', 100000.00, 'MONTHLY', 'ACTIVE', '2025-01-10'),
      (3002, 701, 'G-2', 50000.00, 'MONTHLY', 'ACTIVE', '2025-01-20'),
      (3001, 701, 'G-3', 30000.00, 'MONTHLY', 'ACTIVE', '2025-02-05');
  `);
});

afterAll(async () => {
  await p?.close();
});

describe('settlement lifecycle through the gateway', () => {
  it('closes 202501 once confirmed; its run is then refused with B001 naming the month', async () => {
    await runMonth('202501');
    const a = await settleOf(3001, '202501');
    const b = await settleOf(3002, '202501');
    expect(figures(a)).toEqual(['6000.00', '198.00', '5802.00', 'CALCULATED']);
    expect(figures(b)).toEqual(['3000.00', '99.00', '2901.00', 'CALCULATED']);
    ids.close = (await ok('POST', '/api/period-closes', { settleMonth: '202501' })).id;
    const refused = await call('PUT', `/api/period-closes/${ids.close}/close`, {});
    expect(refused.body).toMatchObject({ code: 'E400', message: expect.stringMatching(/^2 settle rows of 202501 are not CONFIRMED, HOLD or PAID/) });
    await ok('PUT', `/api/settle/${a.settleId}/confirm`);
    await ok('PUT', `/api/settle/${b.settleId}/confirm`);
    expect((await ok('POST', `/api/period-closes/${ids.close}/close`, {})).status).toBe('CLOSED');
    const run = await call('POST', '/api/batch/settlement/run?settleMonth=202501');
    expect(run.status).toBe(400);
    expect(run.body).toMatchObject({ code: 'B001', message: 'Settle month 202501 is closed: a settlement run refused (reopen it first)' });
  });

  it('a correction of closed 202501, approved by another user, is booked into 202502 and counted by its run', async () => {
    ids.correction = (
      await ok('POST', '/api/settle-corrections', { agentId: 3001, originalMonth: '202501', amount: '150.50', reason: 'bonus left out' })
    ).id;
    expect((await call('PUT', `/api/settle-corrections/${ids.correction}/approve`, {})).body.code).toBe('E403');
    const c = await ok('PUT', `/api/settle-corrections/${ids.correction}/approve`, {}, approver);
    expect(c).toMatchObject({ status: 'APPROVED', targetMonth: '202502' });
    await runMonth('202502');
    // 1800.00 + 150.50 = 1950.50; tax = pct(1950.50, 3.3) = 64.3665 -> 64.37; net 1886.13
    const s = await settleOf(3001, '202502');
    expect(figures(s)).toEqual(['1950.50', '64.37', '1886.13', 'CALCULATED']);
    const e = await ok('GET', `/api/settle/${s.settleId}/explain`);
    expect(e.reconciles).toBe(true);
    expect(e.totals).toMatchObject({ recruit: '1800.00', correction: '150.50', gross: '1950.50', tax: '64.37', net: '1886.13' });
    expect(e.sections.correction).toEqual([
      expect.objectContaining({ correctionId: ids.correction, originalMonth: '202501', amount: '150.50', reason: 'bonus left out' }),
    ]);
  });

  it("a dispute holds 3002's 202502 row; approved with an amount, its correction lands in 202503; the next run releases the hold", async () => {
    const s2 = await settleOf(3002, '202502');
    const raised = await ok('POST', '/api/disputes', {
      targetTable: 'settle_master',
      targetId: s2.settleId,
      reasonCode: 'MISSING_COMMISSION',
      reasonText: 'contract G-9 missing',
      holdSettlement: true,
    });
    expect(raised.held).toBe(true);
    ids.dispute = raised.id;
    expect((await settleOf(3002, '202502')).status).toBe('HOLD');
    await ok('PUT', `/api/disputes/${ids.dispute}/review`, { note: 'checking the carrier file' });
    const held = await ok('GET', `/api/settle-holds?settleId=${s2.settleId}&status=ACTIVE`);
    expect(held.list.map((h: any) => [h.reasonCode, h.conditionType, h.disputeId, h.stillHeldBecause])).toEqual([
      ['DISPUTE', 'DISPUTE_CLOSED', ids.dispute, `dispute ${ids.dispute} is IN_REVIEW`],
    ]);
    const d = await ok('PUT', `/api/disputes/${ids.dispute}/approve`, { note: 'G-9 belongs to Dan', amount: '75.25' }, approver);
    // 202502 of 3002 is held, so the correction goes to the first month that still recalculates: 202503
    expect(d).toMatchObject({ status: 'APPROVED', correctionStatus: 'APPROVED', correctionMonth: '202503' });
    const runId = (await runMonth('202503')).run.jobLogId;
    const released = await ok('GET', `/api/settle-holds?settleId=${s2.settleId}`);
    expect(released.list[0]).toMatchObject({ status: 'RELEASED', releaseKind: 'CONDITION', releaseRunId: runId, releaseNote: `condition met: dispute ${ids.dispute} APPROVED` });
    expect((await settleOf(3002, '202502')).status).toBe('CALCULATED');
    // 75.25; tax = pct(75.25, 3.3) = 2.48325 -> 2.48; net 72.77
    const s3 = await settleOf(3002, '202503');
    expect(figures(s3)).toEqual(['75.25', '2.48', '72.77', 'CALCULATED']);
    const e = await ok('GET', `/api/settle/${s3.settleId}/explain`);
    expect(e.sections.correction.map((l: any) => [l.correctionType, l.disputeId, l.originalMonth, l.amount])).toEqual([
      ['DISPUTE', ids.dispute, '202502', '75.25'],
    ]);
    expect(e.reconciles).toBe(true);
  });

  it('carries every part of gross (corrections included) on each settle row, summary and explain of the three months', async () => {
    const checked = [];
    for (const month of ['202501', '202502', '202503']) checked.push(await expectMonthPartsAddUp((path) => ok('GET', path), month));
    expect(checked).toEqual([
      { settleRows: 2, summaryRows: 5, explainRows: 2 },
      { settleRows: 2, summaryRows: 5, explainRows: 2 },
      { settleRows: 2, summaryRows: 5, explainRows: 2 },
    ]);
    const s = await settleOf(3001, '202502');
    expect([s.recruitTotal, s.correctionTotal, s.otherTotal, s.grossAmount]).toEqual(['1800.00', '150.50', '0.00', '1950.50']);
  });
});
