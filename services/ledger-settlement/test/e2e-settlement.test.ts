import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, TEST_ADMIN_PASSWORD, waitForRun, type Platform } from './e2e-platform.js';
import { expectMonthPartsAddUp } from './parts-of-gross.js';

/**
 * The whole month through the gateway: a hand-made book built with the master-data API, exceptions
 * through the ledger API, the run requested and polled through the API, every settle figure checked
 * against arithmetic done by hand below. TAX_RATE = 3.3 (seed). pct(x, r) = x * r / 100 HALF_UP.
 */
const MONTH = '202505';
let p: Platform;
let token: string;

const ids: Record<string, number> = {};

async function create(path: string, body: object): Promise<number> {
  const res = await p.call('POST', path, body, token);
  if (res.status !== 200) throw new Error(`POST ${path} failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

async function runMonth(): Promise<any> {
  const res = await p.call('POST', `/api/batch/settlement/run?settleMonth=${MONTH}`, undefined, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const status = await waitForRun(p, token, res.body.data);
  expect(status.run.status, JSON.stringify(status)).toBe('COMPLETED');
  return status;
}

interface Figures {
  recruitTotal: string;
  maintainTotal: string;
  overrideTotal: string;
  exceptionPlus: string;
  exceptionMinus: string;
  chargebackTotal: string;
  grossAmount: string;
  taxAmount: string;
  netAmount: string;
}

async function settleRows(): Promise<Record<string, Figures & { settleId: number; status: string }>> {
  const res = await p.call('GET', `/api/settle?settleMonth=${MONTH}&pageSize=100`, undefined, token);
  expect(res.status).toBe(200);
  const byAgent = new Map<number, any>(res.body.data.list.map((r: any) => [r.agentId, r]));
  const out: Record<string, any> = {};
  for (const name of ['A1', 'A2', 'A3', 'L1', 'BM']) out[name] = byAgent.get(ids[name]!);
  expect(res.body.data.total).toBe(5);
  return out;
}

const figures = (r: any): Figures => ({
  recruitTotal: r.recruitTotal,
  maintainTotal: r.maintainTotal,
  overrideTotal: r.overrideTotal,
  exceptionPlus: r.exceptionPlus,
  exceptionMinus: r.exceptionMinus,
  chargebackTotal: r.chargebackTotal,
  grossAmount: r.grossAmount,
  taxAmount: r.taxAmount,
  netAmount: r.netAmount,
});

/** Ledger figures that must not change between identical runs (no ids, run ids or timestamps). */
async function ledgerSnapshot() {
  const q = async (text: string) => (await p.pool.query(text)).rows;
  return {
    recruit: await q(
      `SELECT contract_id, agent_id, commission_year, premium, company_rate, company_amount, payout_rate, agent_amount, status FROM recruit_ledger ORDER BY contract_id`,
    ),
    maintain: await q(
      `SELECT contract_id, agent_id, commission_year, premium, company_rate, company_amount, payout_rate, agent_amount, status FROM maintain_ledger ORDER BY contract_id`,
    ),
    override: await q(
      `SELECT from_agent_id, to_agent_id, base_amount, override_pct, override_amount, capped, status FROM override_settle ORDER BY from_agent_id, to_agent_id`,
    ),
    chargeback: await q(
      `SELECT contract_id, agent_id, settle_month, installment_seq, installment_total, base_amount, cb_rate, cb_amount, status FROM chargeback ORDER BY contract_id, installment_seq`,
    ),
    exceptions: await q(
      `SELECT agent_id, exception_code, amount, approve_status FROM exception_ledger ORDER BY ledger_id`,
    ),
  };
}

// Expected settle figures, worked out by hand:
//
// A1 (FC, team T1): recruit C1 premium 123456.78 LIFE y1: company pct(123456.78, 40) = 49382.712 -> 49382.71,
//    agent pct(49382.71, 60) = 29629.626 -> 29629.63.
//    maintain C2 premium 55555.55 HEALTH, contract 2024-02-15 -> 15 whole months to 2025-05-31 -> year 2:
//    company pct(55555.55, 8) = 4444.444 -> 4444.44; agent pct(4444.44, 45) = 1999.998 -> 2000.00.
//    (C3 is A1's contract but its maintain goes to successor A2 since 202503.)
//    exceptions: +500.00 (approved), -120.50 (approved).
//    gross = 29629.63 + 2000.00 + 500.00 - 120.50 = 32009.13; tax = pct(32009.13, 3.3) = 1056.30129 -> 1056.30;
//    net = 30952.83.
// A2 (FC, T1): maintain C3 premium 80000.00 LIFE, contract 2023-01-20 -> 28 months -> year 3:
//    company pct(80000.00, 5) = 4000.00; successor's payout FC LIFE y3 50 -> 2000.00.
//    pending +999.99 does not count. gross 2000.00; tax 66.00; net 1934.00.
// A3 (SFC, team T2 without a leader): recruit C4 premium 31000.00 LIFE y1: company 12400.00, agent pct(12400, 65)
//    = 8060.00. C4 lapsed 2025-05-28 (0 months): rule L001/LIFE 0-12 months 80 %, 3 installments:
//    pct(8060.00, 80) = 6448.00 -> 2149.33 + 2149.33 + 2149.34 (202505, 202506, 202507); this month 2149.33.
//    rejected -10.00 does not count. No override: no TM_LEADER in T2 or above.
//    gross = 8060.00 - 2149.33 = 5910.67; tax = pct(5910.67, 3.3) = 195.05211 -> 195.05; net 5715.62.
// L1 (TM_LEADER, T1): recruit C5 premium 50000.00 LIFE y1: company 20000.00, agent pct(20000, 70) = 14000.00.
//    overrides received (FC -> TM_LEADER 5 %): from A1 base 29629.63 + 2000.00 = 31629.63 -> 1581.4815 -> 1581.48;
//    from A2 base 2000.00 -> 100.00. override 1681.48.
//    gross = 14000.00 + 1681.48 = 15681.48; tax = pct(15681.48, 3.3) = 517.48884 -> 517.49; net 15163.99.
// BM (BR_MANAGER, branch): override from L1 (TM_LEADER -> BR_MANAGER 10 %, cap 50.00): base 14000.00 ->
//    1400.00 capped to 50.00. gross 50.00; tax 1.65; net 48.35.
const EXPECTED: Record<string, Figures> = {
  A1: {
    recruitTotal: '29629.63',
    maintainTotal: '2000.00',
    overrideTotal: '0.00',
    exceptionPlus: '500.00',
    exceptionMinus: '120.50',
    chargebackTotal: '0.00',
    grossAmount: '32009.13',
    taxAmount: '1056.30',
    netAmount: '30952.83',
  },
  A2: {
    recruitTotal: '0.00',
    maintainTotal: '2000.00',
    overrideTotal: '0.00',
    exceptionPlus: '0.00',
    exceptionMinus: '0.00',
    chargebackTotal: '0.00',
    grossAmount: '2000.00',
    taxAmount: '66.00',
    netAmount: '1934.00',
  },
  A3: {
    recruitTotal: '8060.00',
    maintainTotal: '0.00',
    overrideTotal: '0.00',
    exceptionPlus: '0.00',
    exceptionMinus: '0.00',
    chargebackTotal: '2149.33',
    grossAmount: '5910.67',
    taxAmount: '195.05',
    netAmount: '5715.62',
  },
  L1: {
    recruitTotal: '14000.00',
    maintainTotal: '0.00',
    overrideTotal: '1681.48',
    exceptionPlus: '0.00',
    exceptionMinus: '0.00',
    chargebackTotal: '0.00',
    grossAmount: '15681.48',
    taxAmount: '517.49',
    netAmount: '15163.99',
  },
  BM: {
    recruitTotal: '0.00',
    maintainTotal: '0.00',
    overrideTotal: '50.00',
    exceptionPlus: '0.00',
    exceptionMinus: '0.00',
    chargebackTotal: '0.00',
    grossAmount: '50.00',
    taxAmount: '1.65',
    netAmount: '48.35',
  },
};

beforeAll(async () => {
  p = await startPlatform();
  token = await p.login('admin', TEST_ADMIN_PASSWORD);

  // organization: HQ > BR > (T1, T2)
  ids.HQ = await create('/api/orgs', { orgName: 'E2E HQ', orgType: 'HQ' });
  ids.BR = await create('/api/orgs', { orgName: 'E2E Branch', orgType: 'BR', parentOrgId: ids.HQ });
  ids.T1 = await create('/api/orgs', { orgName: 'E2E Team 1', orgType: 'TM', parentOrgId: ids.BR });
  ids.T2 = await create('/api/orgs', { orgName: 'E2E Team 2', orgType: 'TM', parentOrgId: ids.BR });
  const agent = (agentName: string, orgId: number, gradeId: number) =>
    create('/api/agents', {
      agentName,
      orgId,
      gradeId,
      taxType: 'BUSINESS_INCOME',
      vatType: 'NONE',
      joinDate: '2020-01-01',
    });
  ids.A1 = await agent('Agent One', ids.T1, 1);
  ids.A2 = await agent('Agent Two', ids.T1, 1);
  ids.L1 = await agent('Leader One', ids.T1, 3);
  ids.BM = await agent('Branch Manager', ids.BR, 4);
  ids.A3 = await agent('Agent Three', ids.T2, 2);

  ids.company = await create('/api/companies', {
    companyCode: 'L001',
    companyName: 'E2E Life',
    companyType: 'LIFE',
  });
  ids.life = await create('/api/products', {
    companyId: ids.company,
    productCode: 'LIFE-1',
    productName: 'Whole life',
    insuranceType: 'LIFE',
    productGroup: 'LIFE',
  });
  ids.health = await create('/api/products', {
    companyId: ids.company,
    productCode: 'HEALTH-1',
    productName: 'Health plan',
    insuranceType: 'HEALTH',
    productGroup: 'EXCLUDED_HEALTH',
  });

  const from = '2000-01-01';
  for (const [productId, year, ratePct] of [
    [ids.life, 1, '40'],
    [ids.life, 2, '10'],
    [ids.life, 3, '5'],
    [ids.health, 1, '30'],
    [ids.health, 2, '8'],
  ] as const) {
    await create('/api/rules/commission-rates', {
      productId,
      commissionYear: year,
      ratePct,
      effectiveFrom: from,
    });
  }
  for (const [gradeId, insuranceType, year, payoutPct] of [
    [1, 'LIFE', 1, '60'],
    [1, 'LIFE', 3, '50'],
    [1, 'HEALTH', 2, '45'],
    [2, 'LIFE', 1, '65'],
    [3, 'LIFE', 1, '70'],
  ] as const) {
    await create('/api/rules/payout', {
      gradeId,
      insuranceType,
      commissionYear: year,
      payoutPct,
      effectiveFrom: from,
    });
  }
  await create('/api/rules/override', { fromGrade: 1, toGrade: 3, overridePct: '5', effectiveFrom: from });
  await create('/api/rules/override', { fromGrade: 2, toGrade: 3, overridePct: '4', effectiveFrom: from });
  await create('/api/rules/override', {
    fromGrade: 3,
    toGrade: 4,
    overridePct: '10',
    capAmount: '50.00',
    effectiveFrom: from,
  });
  await create('/api/rules/chargeback', {
    companyCode: 'L001',
    insuranceType: 'LIFE',
    lapseMonthFrom: 0,
    lapseMonthTo: 12,
    cbRate: '80',
    installmentAllowed: true,
    maxInstallments: 3,
    effectiveFrom: from,
  });

  const contract = (body: object) =>
    create('/api/contracts', { payCycle: 'MONTHLY', status: 'ACTIVE', ...body });
  ids.C1 = await contract({
    agentId: ids.A1,
    productId: ids.life,
    policyNo: 'E2E-C1',
    premium: '123456.78',
    contractDate: '2025-05-10',
  });
  ids.C2 = await contract({
    agentId: ids.A1,
    productId: ids.health,
    policyNo: 'E2E-C2',
    premium: '55555.55',
    contractDate: '2024-02-15',
  });
  ids.C3 = await contract({
    agentId: ids.A1,
    productId: ids.life,
    policyNo: 'E2E-C3',
    premium: '80000.00',
    contractDate: '2023-01-20',
  });
  ids.C4 = await contract({
    agentId: ids.A3,
    productId: ids.life,
    policyNo: 'E2E-C4',
    premium: '31000.00',
    contractDate: '2025-05-03',
    status: 'LAPSE',
    lapseDate: '2025-05-28',
  });
  ids.C5 = await contract({
    agentId: ids.L1,
    productId: ids.life,
    policyNo: 'E2E-C5',
    premium: '50000.00',
    contractDate: '2025-05-20',
  });
  ids.succession = await create('/api/contract-successions', {
    contractId: ids.C3,
    fromAgentId: ids.A1,
    toAgentId: ids.A2,
    effectiveMonth: '202503',
    reason: 'A1 hands over',
  });

  const exception = (agentId: number, exceptionCode: string, amount: string) =>
    create('/api/ledger/exception', { agentId, settleMonth: MONTH, exceptionCode, amount, reason: 'e2e' });
  ids.x1 = await exception(ids.A1, 'BONUS_SPECIAL', '500.00');
  ids.x2 = await exception(ids.A1, 'PENALTY', '120.50');
  ids.x3 = await exception(ids.A2, 'MISC_PLUS', '999.99');
  ids.x4 = await exception(ids.A3, 'MISC_MINUS', '10.00');
  for (const id of [ids.x1, ids.x2])
    expect((await p.call('PUT', `/api/ledger/exception/${id}/approve`, undefined, token)).status).toBe(200);
  expect(
    (await p.call('PUT', `/api/ledger/exception/${ids.x4}/reject`, { reason: 'not agreed' }, token)).status,
  ).toBe(200);
}, 120_000);

afterAll(async () => {
  await p?.close();
}, 60_000);

describe('monthly settlement through the gateway', () => {
  let firstRun: Awaited<ReturnType<typeof settleRows>>;
  let firstLedgers: Awaited<ReturnType<typeof ledgerSnapshot>>;

  it('runs the month to COMPLETED with thirteen step rows (quarterly and year-end steps skipped)', async () => {
    const status = await runMonth();
    expect(status.steps.map((s: any) => s.stepName)).toEqual([
      'receiveData',
      'transformData',
      'reconcile',
      'calcRecruit',
      'calcMaintain',
      'calcOtherCommission',
      'chargebackException',
      'calcOverride',
      'aggregate',
      'accountingEntryGenerate',
      'yearEndIncomeAggregate',
      'withholdingTaxQuarterly',
      'vatReportQuarterly',
    ]);
    expect(status.steps.every((s: any) => s.status === 'COMPLETED')).toBe(true);
    expect(status.steps.filter((s: any) => s.skipped).map((s: any) => s.stepName)).toEqual([
      'yearEndIncomeAggregate',
      'withholdingTaxQuarterly',
      'vatReportQuarterly',
    ]);
    const recruit = status.steps.find((s: any) => s.stepName === 'calcRecruit');
    expect(recruit).toMatchObject({ successCount: 3, errorCount: 0 });
    expect(status.steps.find((s: any) => s.stepName === 'calcMaintain')).toMatchObject({
      successCount: 2,
      errorCount: 0,
    });
  });

  it('produces exactly the hand-computed figures for every agent', async () => {
    firstRun = await settleRows();
    for (const [name, expected] of Object.entries(EXPECTED)) {
      expect(figures(firstRun[name]), name).toEqual(expected);
      expect(firstRun[name]!.status, name).toBe('CALCULATED');
    }
    firstLedgers = await ledgerSnapshot();
    // the succession's maintain row belongs to A2; the chargeback has its three installments
    expect(
      firstLedgers.maintain.map((r: any) => [Number(r.contract_id), Number(r.agent_id), r.agent_amount]),
    ).toEqual([
      [ids.C2, ids.A1, '2000.00'],
      [ids.C3, ids.A2, '2000.00'],
    ]);
    expect(firstLedgers.chargeback.map((r: any) => [r.settle_month, r.installment_seq, r.cb_amount])).toEqual(
      [
        ['202505', 1, '2149.33'],
        ['202506', 2, '2149.33'],
        ['202507', 3, '2149.34'],
      ],
    );
    expect(
      firstLedgers.override.map((r: any) => [
        Number(r.from_agent_id),
        Number(r.to_agent_id),
        r.override_amount,
        r.capped,
      ]),
    ).toEqual(
      [
        [ids.A1, ids.L1, '1581.48', false],
        [ids.A2, ids.L1, '100.00', false],
        [ids.L1, ids.BM, '50.00', true],
      ].sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number)),
    );
  });

  it('explains every agent line by line, adding up exactly to the settle row', async () => {
    for (const name of Object.keys(EXPECTED)) {
      const res = await p.call('GET', `/api/settle/${firstRun[name]!.settleId}/explain`, undefined, token);
      expect(res.status, name).toBe(200);
      const e = res.body.data;
      expect(e.reconciles, `${name}: ${JSON.stringify(e.mismatches)}`).toBe(true);
      const row = EXPECTED[name]!;
      expect(e.totals, name).toEqual({
        recruit: row.recruitTotal,
        maintain: row.maintainTotal,
        override: row.overrideTotal,
        exceptionPlus: row.exceptionPlus,
        exceptionMinus: row.exceptionMinus,
        chargeback: row.chargebackTotal,
        gross: row.grossAmount,
        taxRate: '3.3',
        tax: row.taxAmount,
        net: row.netAmount,
        correction: '0.00',
        other: '0.00',
      });
    }
    const a2 = (await p.call('GET', `/api/settle/${firstRun.A2!.settleId}/explain`, undefined, token)).body
      .data;
    expect(a2.sections.maintain[0]).toMatchObject({
      contractId: ids.C3,
      agentAmount: '2000.00',
      successionFrom: { fromAgentId: ids.A1, fromAgentName: 'Agent One', effectiveMonth: '202503' },
    });
    expect(a2.sections.excluded.map((x: any) => [x.amount, x.approveStatus])).toEqual([
      ['999.99', 'PENDING'],
    ]);
    const a3 = (await p.call('GET', `/api/settle/${firstRun.A3!.settleId}/explain`, undefined, token)).body
      .data;
    expect(a3.sections.chargeback).toEqual([
      expect.objectContaining({
        contractId: ids.C4,
        installmentSeq: 1,
        installmentTotal: 3,
        baseAmount: '8060.00',
        cbRate: '80',
        cbAmount: '2149.33',
      }),
    ]);
    const bm = (await p.call('GET', `/api/settle/${firstRun.BM!.settleId}/explain`, undefined, token)).body
      .data;
    expect(bm.sections.override).toEqual([
      expect.objectContaining({
        fromAgentId: ids.L1,
        baseAmount: '14000.00',
        overridePct: '10',
        overrideAmount: '50.00',
        capped: true,
        capAmount: '50.00',
      }),
    ]);
    const a1 = (await p.call('GET', `/api/settle/${firstRun.A1!.settleId}/explain`, undefined, token)).body
      .data;
    expect(a1.sections.recruit).toEqual([
      expect.objectContaining({
        contractId: ids.C1,
        premium: '123456.78',
        companyRate: '40',
        companyAmount: '49382.71',
        payoutRate: '60',
        agentAmount: '29629.63',
      }),
    ]);
    expect(a1.sections.recruit[0].basis).toMatchObject({ step: 'calcRecruit', commissionYear: 1 });
  });

  it('carries every part of gross on each settle row, the summary and each explain, adding up to gross', async () => {
    const checked = await expectMonthPartsAddUp(async (path) => {
      const res = await p.call('GET', path, undefined, token);
      expect(res.status, path).toBe(200);
      return res.body.data;
    }, MONTH);
    expect(checked).toEqual({ settleRows: Object.keys(EXPECTED).length, summaryRows: 5, explainRows: Object.keys(EXPECTED).length });
  });

  it('gives identical results when the same month runs again', async () => {
    await runMonth();
    const again = await settleRows();
    for (const name of Object.keys(EXPECTED))
      expect(figures(again[name]), name).toEqual(figures(firstRun[name]));
    expect(await ledgerSnapshot()).toEqual(firstLedgers);
  });

  it('leaves a confirmed settlement and its ledger rows untouched by a re-run', async () => {
    expect(
      (await p.call('PUT', `/api/settle/${firstRun.A1!.settleId}/confirm`, undefined, token)).status,
    ).toBe(200);
    // A change that would alter A1's maintain commission if A1's month were recalculated.
    const contract = (await p.call('GET', `/api/contracts/${ids.C2}`, undefined, token)).body.data;
    const update = await p.call(
      'PUT',
      `/api/contracts/${ids.C2}`,
      {
        agentId: contract.agentId,
        productId: contract.productId,
        policyNo: contract.policyNo,
        premium: '99999.99',
        payCycle: contract.payCycle,
        status: contract.status,
        contractDate: contract.contractDate,
        version: contract.version,
      },
      token,
    );
    expect(update.status, JSON.stringify(update.body)).toBe(200);

    const status = await runMonth();
    expect(status.steps.find((s: any) => s.stepName === 'aggregate').skippedCount).toBe(1);
    const after = await settleRows();
    expect(after.A1!.status).toBe('CONFIRMED');
    expect(figures(after.A1)).toEqual(EXPECTED.A1);
    for (const name of ['A2', 'A3', 'L1', 'BM']) expect(figures(after[name]), name).toEqual(EXPECTED[name]);
    const { rows } = await p.pool.query(
      `SELECT agent_amount, status FROM maintain_ledger WHERE contract_id = $1`,
      [ids.C2],
    );
    expect(rows).toEqual([{ agent_amount: '2000.00', status: 'CONFIRMED' }]);
  });

  it('accepts exactly one of 20 concurrent run requests; the others get B010', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        p.call('POST', `/api/batch/settlement/run?settleMonth=${MONTH}`, undefined, token),
      ),
    );
    const accepted = results.filter((r) => r.status === 200);
    expect(accepted).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(Array(19).fill([409, 'B010']));
    const done = await waitForRun(p, token, accepted[0]!.body.data);
    expect(done.run.status).toBe('COMPLETED');
  });
});
