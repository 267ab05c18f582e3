import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  insertLedger,
  insertSettle,
  seedMiniBook,
  startContext,
  type Api,
  type Ctx,
  type MiniBook,
} from './api-helpers.js';

const M = '202502';
let ctx: Ctx;
let a: Api;
let book: MiniBook;
let settleId = 0;
const rule = { rateY1: 0, rateY2: 0, payoutY1: 0, payoutY2: 0 };

async function one<T>(text: string, params: unknown[]): Promise<T> {
  return (await ctx.pool.query(text, params)).rows[0] as T;
}

async function ledger(
  table: 'recruit_ledger' | 'maintain_ledger',
  contractId: number,
  commissionYear: number,
  agentAmount: string,
  calcBasis: unknown,
): Promise<void> {
  const id = await insertLedger(ctx, table, {
    agentId: book.fc,
    contractId,
    settleMonth: M,
    commissionYear,
    premium: '100000.00',
    companyAmount: agentAmount,
    agentAmount,
    calcBasis,
  });
  await ctx.pool.query(`UPDATE ${table} SET run_id = 41, pay_method = 'MONTHLY' WHERE ledger_id = $1`, [id]);
}

beforeAll(async () => {
  ctx = await startContext();
  a = api(ctx);
  book = await seedMiniBook(ctx);
  const [c1, c2, c3] = book.contracts as [number, number, number];
  const rate = (year: number, pct: string, from: string, to: string | null, version: number) =>
    one<{ rate_id: number }>(
      `INSERT INTO commission_rate (product_id, commission_year, rate_pct, effective_from, effective_to, version)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING rate_id`,
      [book.productId, year, pct, from, to, version],
    ).then((r) => Number(r.rate_id));
  const payout = (year: number, pct: string, from: string, to: string | null) =>
    one<{ rule_id: number }>(
      `INSERT INTO payout_rule (grade_id, insurance_type, commission_year, payout_pct, effective_from, effective_to)
       VALUES (1, 'LIFE', $1, $2, $3, $4) RETURNING rule_id`,
      [year, pct, from, to],
    ).then((r) => Number(r.rule_id));
  rule.rateY1 = await rate(1, '10', '2024-01-01', '2025-06-01', 2);
  rule.rateY2 = await rate(2, '5', '2020-01-01', null, 1);
  rule.payoutY1 = await payout(1, '50', '2020-01-01', null);
  rule.payoutY2 = await payout(2, '50', '2019-01-01', '2030-01-01');

  // compact rows as calcRecruit/calcMaintain write them
  await ledger('recruit_ledger', c1, 1, '5000.00', {
    rateDate: '2025-01-10',
    gradeId: 1,
    contractAgentId: book.fc,
    companyRate: { rateId: rule.rateY1, version: 2, ratePct: '10' },
    payoutRule: { ruleId: rule.payoutY1, version: 1, payoutPct: '50' },
    reconcile: { reported: '10001.00', threshold: '0', diff: '1.00' },
  });
  // no commission rate applied; the payout rule has been deleted since
  await ledger('recruit_ledger', c2, 1, '1000.00', {
    rateDate: '2025-01-10',
    gradeId: 1,
    contractAgentId: book.fc,
    companyRate: null,
    payoutRule: { ruleId: 999999, version: 1, payoutPct: '50' },
  });
  await ledger('maintain_ledger', c1, 2, '500.00', {
    rateDate: '2023-02-01',
    gradeId: 1,
    contractAgentId: book.other,
    companyRate: { rateId: rule.rateY2, version: 1, ratePct: '5' },
    payoutRule: { ruleId: rule.payoutY2, version: 1, payoutPct: '50' },
    succession: { successionId: 3, fromAgentId: book.other, toAgentId: book.fc, effectiveMonth: '202501' },
  });
  // written before the compact form: the stored values win (this effectiveTo predates a revision)
  await ledger('maintain_ledger', c2, 2, '250.00', {
    step: 'calcMaintain',
    runId: 7,
    rateDate: '2023-02-01',
    commissionYear: 2,
    premium: '90000.00',
    payMethod: 'QUARTERLY',
    gradeId: 1,
    insuranceType: 'LIFE',
    companyRate: {
      rateId: rule.rateY2,
      version: 1,
      ratePct: '5',
      effectiveFrom: '2020-01-01',
      effectiveTo: null,
    },
    payoutRule: {
      ruleId: rule.payoutY2,
      version: 1,
      payoutPct: '50',
      effectiveFrom: '2019-01-01',
      effectiveTo: null,
    },
    contractAgentId: book.fc,
    succession: null,
    reconcile: null,
  });
  // a stale carrier row keeps its own basis
  await ledger('maintain_ledger', c3, 3, '0.00', {
    step: 'calcMaintain',
    runId: 41,
    stale: true,
    reason: 'not eligible in this month',
    reconcile: { reported: '70.00', threshold: '0', diff: '70.00' },
  });
  // 6000.00 + 750.00 = 6750.00; tax 3.3 % = 222.75; net 6527.25
  settleId = await insertSettle(ctx, {
    agentId: book.fc,
    settleMonth: M,
    recruit: '6000.00',
    maintain: '750.00',
    gross: '6750.00',
    tax: '222.75',
    net: '6527.25',
  });
});

afterAll(async () => {
  await ctx?.close();
});

describe('explain of compact ledger bases', () => {
  it('returns the full basis of every recruit and maintain line: row columns and rule validity added back', async () => {
    const res = await a.get(`/api/settle/${settleId}/explain`);
    expect(res.status).toBe(200);
    const e = res.body.data;
    expect(e.reconciles).toBe(true);
    expect(e.sections.recruit.map((l: any) => l.basis)).toEqual([
      {
        step: 'calcRecruit',
        runId: 41,
        rateDate: '2025-01-10',
        commissionYear: 1,
        premium: '100000.00',
        payMethod: 'MONTHLY',
        gradeId: 1,
        insuranceType: 'LIFE',
        companyRate: {
          rateId: rule.rateY1,
          version: 2,
          ratePct: '10',
          effectiveFrom: '2024-01-01',
          effectiveTo: '2025-06-01',
        },
        payoutRule: {
          ruleId: rule.payoutY1,
          version: 1,
          payoutPct: '50',
          effectiveFrom: '2020-01-01',
          effectiveTo: null,
        },
        contractAgentId: book.fc,
        succession: null,
        reconcile: { reported: '10001.00', threshold: '0', diff: '1.00' },
      },
      {
        step: 'calcRecruit',
        runId: 41,
        rateDate: '2025-01-10',
        commissionYear: 1,
        premium: '100000.00',
        payMethod: 'MONTHLY',
        gradeId: 1,
        insuranceType: 'LIFE',
        companyRate: null,
        payoutRule: { ruleId: 999999, version: 1, payoutPct: '50' },
        contractAgentId: book.fc,
        succession: null,
        reconcile: null,
      },
    ]);
    expect(e.sections.maintain.map((l: any) => l.basis)).toEqual([
      {
        step: 'calcMaintain',
        runId: 41,
        rateDate: '2023-02-01',
        commissionYear: 2,
        premium: '100000.00',
        payMethod: 'MONTHLY',
        gradeId: 1,
        insuranceType: 'LIFE',
        companyRate: {
          rateId: rule.rateY2,
          version: 1,
          ratePct: '5',
          effectiveFrom: '2020-01-01',
          effectiveTo: null,
        },
        payoutRule: {
          ruleId: rule.payoutY2,
          version: 1,
          payoutPct: '50',
          effectiveFrom: '2019-01-01',
          effectiveTo: '2030-01-01',
        },
        contractAgentId: book.other,
        succession: {
          successionId: 3,
          fromAgentId: book.other,
          toAgentId: book.fc,
          effectiveMonth: '202501',
        },
        reconcile: null,
      },
      {
        step: 'calcMaintain',
        runId: 7,
        rateDate: '2023-02-01',
        commissionYear: 2,
        premium: '90000.00',
        payMethod: 'QUARTERLY',
        gradeId: 1,
        insuranceType: 'LIFE',
        companyRate: {
          rateId: rule.rateY2,
          version: 1,
          ratePct: '5',
          effectiveFrom: '2020-01-01',
          effectiveTo: null,
        },
        payoutRule: {
          ruleId: rule.payoutY2,
          version: 1,
          payoutPct: '50',
          effectiveFrom: '2019-01-01',
          effectiveTo: null,
        },
        contractAgentId: book.fc,
        succession: null,
        reconcile: null,
      },
      {
        step: 'calcMaintain',
        runId: 41,
        stale: true,
        reason: 'not eligible in this month',
        reconcile: { reported: '70.00', threshold: '0', diff: '70.00' },
      },
    ]);
    expect(e.sections.maintain[0].successionFrom).toEqual({
      successionId: 3,
      fromAgentId: book.other,
      fromAgentName: 'Park Other',
      effectiveMonth: '202501',
    });
  });

  it('prints an expanded basis with the key order of a stored full basis', async () => {
    const line = (await a.get(`/api/settle/${settleId}/explain`)).body.data.sections.maintain[0];
    const { text } = await one<{ text: string }>(`SELECT $1::jsonb::text AS text`, [
      JSON.stringify(line.basis),
    ]);
    expect(JSON.stringify(line.basis)).toBe(JSON.stringify(JSON.parse(text)));
  });
});
