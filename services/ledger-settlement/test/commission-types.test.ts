import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayClient, startPlatform, TEST_ADMIN_PASSWORD, type Platform } from './e2e-platform.js';
import { OTHER_TYPES_BOOK } from './other-types-book.js';
import { expectMonthPartsAddUp } from './parts-of-gross.js';

/**
 * Every commission type (issue 16) through the gateway on a small book seeded by SQL, every figure worked out by
 * hand below (pct(x, r) = x * r / 100 HALF_UP to 2 places; TAX_RATE 3.3). Month N = 202504 (end 2025-04-30),
 * N+1 = 202505.
 *
 * Agents (org TM 411): 4001 Amy FC, 4002 Ben FC, 4003 Cat FC, 4004 Dan FC (joined 2025-02-10), 4005 Eve SFC.
 * Company L040, product 801 LIFE. Rules:
 *   collection 11 v1 2 % from 2020-01-01, collection 12 v2 2.5 % from 2025-01-01 (v2 wins), min year 6;
 *   renewal 21 3 %; reinstatement 31 4 %; persistency 41 month 13 10 %, 42 month 25 20 %;
 *   appointment 51 grade 1 (FC): 3 months x 300000.00. Recruit: rate year 1 10 %, FC payout 60 %.
 * Contracts:
 *   4101 Amy, QUARTERLY 120000.00, 2019-07-15: 69 whole months to 2025-04-30 -> year 6, 69 % 3 = 0 -> due
 *        -> collection 120000.00 x 2.5 % = 3000.00. In 202505: 70 months, 70 % 3 = 1 -> not due.
 *   4102 Amy -> succession to Eve from 202501, MONTHLY 33333.33, 2018-03-01: 85 months -> year 8
 *        -> collection to Eve 33333.33 x 2.5 % = 833.33325 -> 833.33 (also in 202505: 86 months, monthly).
 *   4103 Ben, MONTHLY 50000.00, 2024-06-20 (year 1): RENEWAL endorsement 901 APPLIED 2025-04-18, +5000.00
 *        -> renewed 55000.00 x 3 % = 1650.00 (endorsement 902 REQUESTED does not count).
 *   4104 Cat, REVIVE 80000.00, 2024-09-05, lapsed 2025-03-10, revived 2025-04-12 -> reinstatement 80000.00 x 4 %
 *        = 3200.00. Chargebacks of the 202503 lapse, 3 x 400.00: 202503 CONFIRMED, 202504 CONFIRMED (stays and
 *        counts), 202505 CALCULATED (cancelled by the revival).
 *   4105 Amy, SINGLE 60000.00, 2024-04-08: 202504 is its month 13, in force; recruit paid 2345.67 (202404)
 *        -> persistency 2345.67 x 10 % = 234.567 -> 234.57.
 *   4106 Amy, SINGLE 40000.00, 2023-04-25: 202504 is its month 25, but it lapsed 2024-11-18 (its month 20) -> none.
 *   4107 Amy, SINGLE 70000.00, 2023-04-02: month 25, in force, recruit paid 3000.00 -> 3000.00 x 20 % = 600.00.
 *   4108 Ben, MONTHLY 10000.00, 2025-04-03: recruit 10000.00 x 10 % = 1000.00; x 60 % = 600.00.
 * Appointment: Dan joined 2025-02-10: 202504 is his month 3 -> 300000.00; 202505 (month 4) -> none.
 * Incentive: program IP-APR results: Ben 1000.00 APPROVED (counts), Amy 500.00 PENDING_APPROVAL (does not).
 *
 * Settle rows of 202504 (gross = recruit + ... + other; tax = pct(gross, 3.3); net = gross - tax):
 *   4001: other 3000.00 + 234.57 + 600.00 = 3834.57; tax 126.54081 -> 126.54; net 3708.03
 *   4002: recruit 600.00 + other (1650.00 + 1000.00) 2650.00 = 3250.00; tax 107.25; net 3142.75
 *   4003: other 3200.00 - chargeback 400.00 = 2800.00; tax 92.40; net 2707.60
 *   4004: other 300000.00; tax 9900.00; net 290100.00
 *   4005: other 833.33; tax 27.49989 -> 27.50; net 805.83
 */
const N = '202504';
const N1 = '202505';
let p: Platform;
let admin: string;

const { call, ok, runMonth } = gatewayClient(() => p, () => admin);

async function settles(month: string) {
  const page = await ok('GET', `/api/settle?settleMonth=${month}&pageSize=100&sortField=agentId&sortOrder=ASC`);
  return page.list.map((s: any) => [
    s.agentId, s.recruitTotal, s.chargebackTotal, s.correctionTotal, s.otherTotal, s.grossAmount, s.taxAmount, s.netAmount,
  ]);
}

async function otherRows(month: string) {
  const { rows } = await p.pool.query(
    `SELECT commission_type, contract_id, agent_id, commission_year, milestone_month, base_amount, rate_pct, agent_amount,
            rule_id, rule_version, source_id, status
     FROM other_commission_ledger WHERE settle_month = $1 ORDER BY commission_type, contract_id NULLS FIRST, agent_id`,
    [month],
  );
  return rows.map((r) => Object.values(r));
}

async function masterRows(month: string) {
  const page = await ok('GET', `/api/commission-master?settleMonth=${month}&pageSize=100`);
  return page.list
    .map((r: any) => [r.agentId, r.commissionType, r.computedAmount, r.adjustmentAmount, r.totalAmount, r.sourceCount, r.sourceTable])
    .sort((a: any[], b: any[]) => a[0] - b[0] || String(a[1]).localeCompare(String(b[1])));
}

async function chargebacks() {
  const { rows } = await p.pool.query(`SELECT installment_seq, settle_month, status FROM chargeback WHERE contract_id = 4104 ORDER BY installment_seq`);
  return rows.map((r) => Object.values(r));
}

beforeAll(async () => {
  p = await startPlatform();
  admin = await p.login('admin', TEST_ADMIN_PASSWORD);
  await p.pool.query(OTHER_TYPES_BOOK);
}, 120_000);

afterAll(async () => {
  await p?.close();
}, 60_000);

const MONTH_N_ROWS = [
  // type, contract, agent, year, milestone, base, rate, amount, rule, version, source, status
  ['APPOINTMENT', null, 4004, null, 3, '300000.00', '0.0000', '300000.00', 51, 1, null, 'CALCULATED'],
  ['COLLECTION', 4101, 4001, 6, null, '120000.00', '2.5000', '3000.00', 12, 2, null, 'CALCULATED'],
  ['COLLECTION', 4102, 4005, 8, null, '33333.33', '2.5000', '833.33', 12, 2, null, 'CALCULATED'],
  ['PERSISTENCY', 4105, 4001, 2, 13, '2345.67', '10.0000', '234.57', 41, 1, null, 'CALCULATED'],
  ['PERSISTENCY', 4107, 4001, 3, 25, '3000.00', '20.0000', '600.00', 42, 1, null, 'CALCULATED'],
  ['REINSTATEMENT', 4104, 4003, 1, null, '80000.00', '4.0000', '3200.00', 31, 1, null, 'CALCULATED'],
  ['RENEWAL', 4103, 4002, 1, null, '55000.00', '3.0000', '1650.00', 21, 1, 901, 'CALCULATED'],
];

// agent, recruit, chargeback, correction, other, gross, tax, net
const SETTLES_N = [
  [4001, '0.00', '0.00', '0.00', '3834.57', '3834.57', '126.54', '3708.03'],
  [4002, '600.00', '0.00', '0.00', '2650.00', '3250.00', '107.25', '3142.75'],
  [4003, '0.00', '400.00', '0.00', '3200.00', '2800.00', '92.40', '2707.60'],
  [4004, '0.00', '0.00', '0.00', '300000.00', '300000.00', '9900.00', '290100.00'],
  [4005, '0.00', '0.00', '0.00', '833.33', '833.33', '27.50', '805.83'],
];

// agent, type, computed, adjustment, total, source rows, source table
const MASTER_N = [
  [4001, 'COLLECTION', '3000.00', '0.00', '3000.00', 1, 'other_commission_ledger'],
  [4001, 'PERSISTENCY', '834.57', '0.00', '834.57', 2, 'other_commission_ledger'],
  [4002, 'INCENTIVE', '1000.00', '0.00', '1000.00', 1, 'incentive_result'],
  [4002, 'RECRUIT', '600.00', '0.00', '600.00', 1, 'recruit_ledger'],
  [4002, 'RENEWAL', '1650.00', '0.00', '1650.00', 1, 'other_commission_ledger'],
  [4003, 'REINSTATEMENT', '3200.00', '0.00', '3200.00', 1, 'other_commission_ledger'],
  [4004, 'APPOINTMENT', '300000.00', '0.00', '300000.00', 1, 'other_commission_ledger'],
  [4005, 'COLLECTION', '833.33', '0.00', '833.33', 1, 'other_commission_ledger'],
];

describe('every commission type in a month', () => {
  it('computes each type for each agent exactly as worked out by hand, with its step row', async () => {
    const status = await runMonth(N);
    const step = status.steps.find((s: any) => s.stepName === 'calcOtherCommission');
    // 7 lines written; none refused or locked
    expect(step).toMatchObject({ status: 'COMPLETED', stepSeq: 6, totalCount: 7, successCount: 7, errorCount: 0, skippedCount: 0 });
    expect(await otherRows(N)).toEqual(MONTH_N_ROWS);
    // the run calculated the programs paid in N: 4002 recruited one contract (4108, 2025-04-03) in April, so it
    // reaches program 62's tier (threshold 1) -> 50.00, CALCULATED (not counted before approval); program 61's
    // APPROVED and PENDING_APPROVAL results are left as they were
    const results = await p.pool.query(
      `SELECT program_id, agent_id, amount, status FROM incentive_result ORDER BY program_id, agent_id`,
    );
    expect(results.rows.map((r) => [Number(r.program_id), Number(r.agent_id), r.amount, r.status])).toEqual([
      [61, 4001, '500.00', 'PENDING_APPROVAL'],
      [61, 4002, '1000.00', 'APPROVED'],
      [62, 4002, '50.00', 'CALCULATED'],
    ]);
    // the revival cancelled exactly the pending installment; the CONFIRMED ones stay
    expect(await chargebacks()).toEqual([
      [1, '202503', 'CONFIRMED'],
      [2, '202504', 'CONFIRMED'],
      [3, '202505', 'CANCELLED'],
    ]);
  });

  it('adds other_total to gross, tax and net of the settle rows', async () => {
    expect(await settles(N)).toEqual(SETTLES_N);
  });

  it('writes one commission-master row per agent, month and type with its source', async () => {
    expect(await masterRows(N)).toEqual(MASTER_N);
    const collection = await ok('GET', `/api/commission-master?settleMonth=${N}&commissionType=COLLECTION`);
    expect(collection.total).toBe(2);
  });

  it('explains each type line by line with its rule, version and basis, and reconciles other_total', async () => {
    const settleId = (await ok('GET', `/api/settle?settleMonth=${N}&agentId=4001`)).list[0].settleId;
    const e = await ok('GET', `/api/settle/${settleId}/explain`);
    expect(e.reconciles).toBe(true);
    expect(e.totals).toMatchObject({ other: '3834.57', gross: '3834.57', tax: '126.54', net: '3708.03' });
    expect(e.formula).toBe(
      'gross = recruit + maintain + override + exceptionPlus - chargeback - exceptionMinus + other; tax = pct(gross, TAX_RATE); net = gross - tax',
    );
    expect(e.sections.collection).toHaveLength(1);
    expect(e.sections.collection[0]).toMatchObject({
      commissionType: 'COLLECTION', contractId: 4101, policyNo: 'POL-4101', commissionYear: 6, baseAmount: '120000.00',
      ratePct: '2.5', agentAmount: '3000.00', ruleId: 12, ruleVersion: 2, countedInGross: true,
      basis: {
        step: 'calcOtherCommission', type: 'COLLECTION', rateDate: '2025-04-30', contractDate: '2019-07-15', payCycle: 'QUARTERLY',
        rule: { ruleId: 12, version: 2, ratePct: '2.5', minCommissionYear: '6', effectiveFrom: '2025-01-01', effectiveTo: null },
      },
    });
    // stored compact (only what the columns and the rule row do not hold), explained in full
    expect(e.sections.collection[0].basis).toEqual({
      step: 'calcOtherCommission', runId: expect.any(Number), type: 'COLLECTION', rateDate: '2025-04-30',
      rule: { ruleId: 12, version: 2, ratePct: '2.5', minCommissionYear: '6', effectiveFrom: '2025-01-01', effectiveTo: null },
      contractDate: '2019-07-15', payCycle: 'QUARTERLY', contractAgentId: 4001, successionId: null,
    });
    const { rows: stored } = await p.pool.query(`SELECT calc_basis FROM other_commission_ledger WHERE contract_id = 4105 AND settle_month = $1`, [N]);
    expect(stored[0].calc_basis).toEqual({ rateDate: '2025-04-30', contractDate: '2024-04-08', contractStatus: 'ACTIVE', recruitRows: 1 });
    expect(e.sections.persistency[0].basis).toEqual({
      step: 'calcOtherCommission', runId: expect.any(Number), type: 'PERSISTENCY', rateDate: '2025-04-30',
      rule: { ruleId: 41, version: 1, bonusPct: '10', effectiveFrom: '2020-01-01', effectiveTo: null },
      contractDate: '2024-04-08', milestoneMonth: 13, contractStatus: 'ACTIVE', recruitRows: 1, recruitAmount: '2345.67',
    });
    expect(e.sections.persistency.map((l: any) => [l.contractId, l.milestoneMonth, l.agentAmount])).toEqual([
      [4105, 13, '234.57'],
      [4107, 25, '600.00'],
    ]);
    // the PENDING_APPROVAL incentive does not count
    expect(e.sections.incentive).toEqual([]);

    const cat = (await ok('GET', `/api/settle?settleMonth=${N}&agentId=4003`)).list[0].settleId;
    const ec = await ok('GET', `/api/settle/${cat}/explain`);
    expect(ec.reconciles).toBe(true);
    expect(ec.sections.reinstatement[0].basis).toMatchObject({ revivalDate: '2025-04-12', lapseDate: '2025-03-10' });
    expect(ec.sections.reinstatement[0].basis.cancelledChargebacks).toHaveLength(1);
    expect(ec.sections.chargeback.map((c: any) => [c.installmentSeq, c.cbAmount])).toEqual([[2, '400.00']]);
  });

  it('lists the other commission rows, filtered by type and agent', async () => {
    const list = await ok('GET', `/api/ledger/other-commissions?settleMonth=${N}&commissionType=COLLECTION,RENEWAL&sortField=contractId&sortOrder=ASC`);
    expect(list.list.map((r: any) => [r.commissionType, r.contractId, r.agentId, r.agentAmount])).toEqual([
      ['COLLECTION', 4101, 4001, '3000.00'],
      ['COLLECTION', 4102, 4005, '833.33'],
      ['RENEWAL', 4103, 4002, '1650.00'],
    ]);
    expect((await ok('GET', `/api/ledger/other-commissions?settleMonth=${N}&agentId=4004`)).list[0]).toMatchObject({
      commissionType: 'APPOINTMENT', contractId: null, milestoneMonth: 3, agentAmount: '300000.00',
    });
  });
});

describe('commission-master adjustments', () => {
  let renewalRow: number;

  it('refuses an adjustment without a reason (E411) and counts one with a reason at the next aggregate', async () => {
    renewalRow = (await ok('GET', `/api/commission-master?settleMonth=${N}&agentId=4002&commissionType=RENEWAL`)).list[0].cmId;
    const noReason = await call('PUT', `/api/commission-master/${renewalRow}`, { adjustmentAmount: '-150.00' });
    expect([noReason.status, noReason.body.code]).toEqual([400, 'E411']);
    const blank = await call('PUT', `/api/commission-master/${renewalRow}`, { adjustmentAmount: '-150.00', adjustReason: '  ' });
    expect(blank.body.code).toBe('E411');
    await ok('PUT', `/api/commission-master/${renewalRow}`, { adjustmentAmount: '-150.00', adjustReason: 'renewal reported twice' });
    const row = await ok('GET', `/api/commission-master/${renewalRow}`);
    expect(row).toMatchObject({ computedAmount: '1650.00', adjustmentAmount: '-150.00', totalAmount: '1500.00', adjustReason: 'renewal reported twice' });

    await runMonth(N);
    // 4002: recruit 600.00 + other (1650.00 + 1000.00 - 150.00) 2500.00 = 3100.00; tax 102.30; net 2997.70
    expect((await settles(N))[1]).toEqual([4002, '600.00', '0.00', '0.00', '2500.00', '3100.00', '102.30', '2997.70']);
    // the computed figure and the adjustment are both kept by the aggregate
    expect(await ok('GET', `/api/commission-master/${renewalRow}`)).toMatchObject({ computedAmount: '1650.00', adjustmentAmount: '-150.00' });
    // the adjustment is part of other, and the parts still add up to gross on every view
    expect(await expectMonthPartsAddUp((path) => ok('GET', path), N)).toEqual({ settleRows: 5, summaryRows: 5, explainRows: 5 });
    const ben = (await ok('GET', `/api/settle?settleMonth=${N}&agentId=4002`)).list[0].settleId;
    const e = await ok('GET', `/api/settle/${ben}/explain`);
    expect(e.reconciles).toBe(true);
    expect(e.totals.other).toBe('2500.00');
    expect(e.sections.incentive.map((l: any) => [l.programCode, l.amount])).toEqual([['IP-APR', '1000.00']]);
    expect(e.sections.adjustment.map((l: any) => [l.commissionType, l.adjustmentAmount, l.adjustReason])).toEqual([
      ['RENEWAL', '-150.00', 'renewal reported twice'],
    ]);
  });

  it('gives identical rows when the month is run again', async () => {
    const snapshot = async () => ({
      other: await otherRows(N),
      master: await masterRows(N),
      settles: await settles(N),
      chargebacks: await chargebacks(),
    });
    const before = await snapshot();
    const status = await runMonth(N);
    expect(await snapshot()).toEqual(before);
    expect(status.steps.find((s: any) => s.stepName === 'calcOtherCommission')).toMatchObject({ successCount: 7, errorCount: 0 });
  });

  it('DELETE clears the adjustment and keeps the computed row; a closed month refuses both with B001', async () => {
    await ok('DELETE', `/api/commission-master/${renewalRow}`);
    expect(await ok('GET', `/api/commission-master/${renewalRow}`)).toMatchObject({
      computedAmount: '1650.00', adjustmentAmount: '0.00', adjustReason: null, totalAmount: '1650.00',
    });
    const { rows } = await p.pool.query(`
      WITH c AS (INSERT INTO period_close (settle_month, status, closed_at) VALUES ('202412', 'CLOSED', now()))
      INSERT INTO commission_master (agent_id, settle_month, commission_type, computed_amount, source_table, source_count)
      VALUES (4001, '202412', 'RECRUIT', 100.00, 'recruit_ledger', 1) RETURNING cm_id`);
    const closed = rows[0].cm_id;
    const put = await call('PUT', `/api/commission-master/${closed}`, { adjustmentAmount: '10.00', adjustReason: 'late' });
    expect([put.status, put.body.code]).toEqual([400, 'B001']);
    expect((await call('DELETE', `/api/commission-master/${closed}`)).body.code).toBe('B001');
  });

  it('leaves a type with gross_yn N out of gross but keeps its commission-master row', async () => {
    const types = await ok('GET', '/api/commission-types?pageSize=50');
    const appointment = types.list.find((t: any) => t.typeCode === 'APPOINTMENT');
    await ok('PUT', `/api/commission-types/${appointment.typeId}`, { grossYn: 'N' });
    await runMonth(N);
    expect((await settles(N))[3]).toEqual([4004, '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00']);
    expect((await masterRows(N)).find((r: any[]) => r[1] === 'APPOINTMENT')).toEqual(MASTER_N[6]);
    await ok('PUT', `/api/commission-types/${appointment.typeId}`, { grossYn: 'Y' });
  });
});

describe('the next month', () => {
  it('pays no collection outside a due month, no renewal/reinstatement/persistency again, no appointment in month 4', async () => {
    await runMonth(N1);
    expect(await expectMonthPartsAddUp((path) => ok('GET', path), N1)).toEqual({ settleRows: 5, summaryRows: 5, explainRows: 5 });
    expect(await otherRows(N1)).toEqual([
      ['COLLECTION', 4102, 4005, 8, null, '33333.33', '2.5000', '833.33', 12, 2, null, 'CALCULATED'],
    ]);
    // the cancelled installment no longer charges Cat
    expect(await settles(N1)).toEqual([
      [4001, '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00'],
      [4002, '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00'],
      [4003, '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00'],
      [4004, '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00'],
      [4005, '0.00', '0.00', '0.00', '833.33', '833.33', '27.50', '805.83'],
    ]);
  });
});

describe('commission types', () => {
  it('lists the nine built-in types with their settings', async () => {
    const types = await ok('GET', '/api/commission-types?pageSize=50');
    expect(types.list.map((t: any) => [t.typeCode, t.isActive, t.taxableYn, t.grossYn, t.builtIn])).toEqual(
      ['RECRUIT', 'MAINTAIN', 'OVERRIDE', 'COLLECTION', 'RENEWAL', 'REINSTATEMENT', 'PERSISTENCY', 'INCENTIVE', 'APPOINTMENT'].map(
        (c) => [c, true, 'Y', 'Y', true],
      ),
    );
  });

  it('refuses to create, delete or take out of gross a built-in type with E400; custom types come and go', async () => {
    const types = (await ok('GET', '/api/commission-types?pageSize=50')).list;
    const recruit = types.find((t: any) => t.typeCode === 'RECRUIT');
    const created = await call('POST', '/api/commission-types', { typeCode: 'COLLECTION', typeName: 'Again' });
    expect([created.status, created.body.code]).toEqual([400, 'E400']);
    expect(created.body.message).toBe('COLLECTION is a built-in commission type: it exists already and cannot be created');
    const deleted = await call('DELETE', `/api/commission-types/${recruit.typeId}`);
    expect([deleted.status, deleted.body.code]).toEqual([400, 'E400']);
    expect((await call('PUT', `/api/commission-types/${recruit.typeId}`, { grossYn: 'N' })).body.code).toBe('E400');
    const collection = types.find((t: any) => t.typeCode === 'COLLECTION');
    const untaxed = await call('PUT', `/api/commission-types/${collection.typeId}`, { taxableYn: 'N' });
    expect(untaxed.body).toMatchObject({
      code: 'E400',
      message: "COLLECTION: a non-taxable commission type is not supported yet (withholding applies to the whole gross); set grossYn = 'N' to leave it out of gross instead",
    });
    await ok('PUT', `/api/commission-types/${recruit.typeId}`, { typeName: 'Recruit (year 1)', sortOrder: 5 });
    expect((await ok('GET', `/api/commission-types/${recruit.typeId}`)).typeName).toBe('Recruit (year 1)');

    const custom = await ok('POST', '/api/commission-types', { typeCode: 'SPECIAL', typeName: 'Special bonus' });
    expect(await ok('GET', `/api/commission-types/${custom.id}`)).toMatchObject({ typeCode: 'SPECIAL', builtIn: false, sourceTable: 'commission_master' });
    await ok('DELETE', `/api/commission-types/${custom.id}`);
    expect((await call('GET', `/api/commission-types/${custom.id}`)).status).toBe(404);
  });
});
