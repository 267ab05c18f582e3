import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setChunkSizes } from '../src/calc/chunk-sizes.js';
import { explainSettlement, type SettleRow } from '../src/explain/explain.service.js';
import { allSteps, createHarness, stepCounts, type Harness } from './steps-harness.js';
import { seedBook } from './steps-book.js';

const MONTH = '202501';
let h: Harness;

beforeAll(async () => {
  // several chunks out of a small book
  setChunkSizes({ contracts: 2, agents: 3, writeBatch: 1 });
  h = await createHarness();
  await seedBook(h.tdb.pool);
  await h.startWorkers(allSteps());
});

afterAll(async () => {
  setChunkSizes({ contracts: 4_000, agents: 2_000, writeBatch: 1_000 });
  await h?.close();
});

async function ledger(table: 'recruit_ledger' | 'maintain_ledger') {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT contract_id, agent_id, commission_year, premium, company_rate, company_amount, payout_rate,
           agent_amount, tax_amount, reported_company_amount, reconcile_status, reconcile_diff, status, raw_id
    FROM ${sql.table(table)} WHERE settle_month = ${MONTH} ORDER BY contract_id, commission_year`.execute(h.db);
  return rows;
}

async function overrides() {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT from_agent_id, to_agent_id, override_rule_id, base_amount, override_pct, override_amount, capped,
           (settle_id = (SELECT settle_id FROM settle_master s WHERE s.agent_id = o.to_agent_id AND s.settle_month = o.settle_month)) AS linked
    FROM override_settle o WHERE settle_month = ${MONTH} ORDER BY from_agent_id, override_rule_id`.execute(h.db);
  return rows;
}

async function chargebacks() {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT contract_id, agent_id, settle_month, lapse_month, lapse_month_diff, base_amount, cb_rate, cb_amount,
           installment_seq, installment_total, cb_rule_id, status
    FROM chargeback ORDER BY contract_id, installment_seq`.execute(h.db);
  return rows;
}

async function settles() {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT agent_id, recruit_total, maintain_total, override_total, exception_plus, exception_minus,
           chargeback_total, gross_amount, tax_amount, net_amount, status
    FROM settle_master WHERE settle_month = ${MONTH} ORDER BY agent_id`.execute(h.db);
  return rows;
}

async function autoExceptions() {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT agent_id, exception_code, direction, amount, approve_status, source, recurring_parent_id, recurring_yn
    FROM exception_ledger WHERE settle_month = ${MONTH} AND source = 'AUTO' ORDER BY recurring_parent_id`.execute(h.db);
  return rows;
}

const row = (contract: number, agent: number, year: number, premium: string, companyRate: string, company: string,
  payoutRate: string, agentAmount: string, tax: string, reported: string | null, recon: string, diff: string | null,
  rawId: number | null = null) => ({
  contract_id: contract, agent_id: agent, commission_year: year, premium, company_rate: companyRate,
  company_amount: company, payout_rate: payoutRate, agent_amount: agentAmount, tax_amount: tax,
  reported_company_amount: reported, reconcile_status: recon, reconcile_diff: diff, status: 'CALCULATED', raw_id: rawId,
});

// Recruit (rule 2), rates as of the contract date:
//  9001 2025-01-05, rate v1 10 %: 100000.00 x 10 % = 10000.00; x 60 % = 6000.00; tax 3.3 % = 198.00;
//       carrier reported 10000.00 -> diff 0.00 MATCHED
//  9002 2025-01-15, rate v2 12 %: 55555.55 x 12 % = 6666.666 -> 6666.67; x 60 % = 4000.002 -> 4000.00; tax 132.00
//  9003 HEALTH 20 %: 30000.00 -> 6000.00; grade 1 HEALTH 50 % -> 3000.00; tax 99.00; reported 6100.00 -> diff 100.00 DIFF
//  9009 agent 1005, 12 %: 10000.00 -> 1200.00; 60 % -> 720.00; tax 23.76
//  9010 agent 1008, 12 %: 20000.00 -> 2400.00; 60 % -> 1440.00; tax 47.52
const RECRUIT = [
  row(9001, 1001, 1, '100000.00', '10.0000', '10000.00', '60.0000', '6000.00', '198.00', '10000.00', 'MATCHED', '0.00', 76),
  row(9002, 1001, 1, '55555.55', '12.0000', '6666.67', '60.0000', '4000.00', '132.00', null, 'PENDING', null),
  row(9003, 1001, 1, '30000.00', '20.0000', '6000.00', '50.0000', '3000.00', '99.00', '6100.00', 'DIFF', '100.00', 77),
  row(9009, 1005, 1, '10000.00', '12.0000', '1200.00', '60.0000', '720.00', '23.76', null, 'PENDING', null),
  row(9010, 1008, 1, '20000.00', '12.0000', '2400.00', '60.0000', '1440.00', '47.52', null, 'PENDING', null),
];

// Maintain (rules 3, 10), month end 2025-01-31:
//  9004 2023-06-10: 19 months -> year 2, rate 5 %: 200000.00 -> 10000.00; succession 202501 -> agent 1002 (SFC),
//       grade 2 year 2 55 % -> 5500.00; tax 181.50
//  9005 2022-10-20 QUARTERLY: 27 months -> year 3, due (27 % 3 = 0); rate 4 %: 80000.00 -> 3200.00; the succession to
//       1007 starts 202502, so agent 1001 grade 1 year 3 40 % -> 1280.00; tax 42.24
//  9006 2022-11-20 QUARTERLY: 26 months, not due -> the carrier's row is kept with system figures 0: diff 500.00 DIFF
//  9007 REVIVE 2023-03-01: 22 months -> year 2, 5 %: 40000.00 -> 2000.00; grade 2 55 % -> 1100.00; tax 36.30
//  the stale computed-only row of 9002 is deleted
const MAINTAIN = [
  row(9004, 1002, 2, '200000.00', '5.0000', '10000.00', '55.0000', '5500.00', '181.50', null, 'PENDING', null),
  row(9005, 1001, 3, '80000.00', '4.0000', '3200.00', '40.0000', '1280.00', '42.24', null, 'PENDING', null),
  row(9006, 1001, 3, '0.00', '0.0000', '0.00', '0.0000', '0.00', '0.00', '500.00', 'DIFF', '500.00', 78),
  row(9007, 1002, 2, '40000.00', '5.0000', '2000.00', '55.0000', '1100.00', '36.30', null, 'PENDING', null),
];

// Chargeback: 9008 lapsed 2025-01-20, contract 2024-03-10 -> 10 months -> rule 1 (0-12, 100 %, 3 installments);
// base = commission earned so far = 1000.00 (202403) -> 1000.00 = 333.33 + 333.33 + 333.34 in 202501..202503.
const cb = (seq: number, month: string, amount: string) => ({
  contract_id: 9008, agent_id: 1001, settle_month: month, lapse_month: MONTH, lapse_month_diff: 10,
  base_amount: '1000.00', cb_rate: '100.0000', cb_amount: amount, installment_seq: seq, installment_total: 3,
  cb_rule_id: 1, status: 'CALCULATED',
});
const CHARGEBACKS = [cb(1, '202501', '333.33'), cb(2, '202502', '333.33'), cb(3, '202503', '333.34')];

// Overrides (date 2025-01-31):
//  1001 base 6000.00 + 4000.00 + 3000.00 + 1280.00 = 14280.00: rule 1 (FC->TM leader 1003 in org 111) 5 % = 714.00;
//       rule 2 (FC->BR manager 1004 in org 110) 2 % = 285.60, capped at 100.00; rule 5 (HEALTH only, 1 %) on the
//       HEALTH base 3000.00 = 30.00
//  1002 base 5500.00 + 1100.00 = 6600.00: rule 3 (SFC->TM leader) 4 % = 264.00
//  1005 (org 201 < 200) has no TM leader or BR manager above: no rows
//  1008 base 1440.00: rule 1 5 % = 72.00; rule 2 2 % = 28.80 (under the cap)
const ov = (from: number, to: number, rule: number, base: string, pct: string, amount: string, capped = false) => ({
  from_agent_id: from, to_agent_id: to, override_rule_id: rule, base_amount: base, override_pct: pct,
  override_amount: amount, capped, linked: true,
});
const OVERRIDES = [
  ov(1001, 1003, 1, '14280.00', '5.0000', '714.00'),
  ov(1001, 1004, 2, '14280.00', '2.0000', '100.00', true),
  ov(1001, 1003, 5, '3000.00', '1.0000', '30.00'),
  ov(1002, 1003, 3, '6600.00', '4.0000', '264.00'),
  ov(1008, 1003, 1, '1440.00', '5.0000', '72.00'),
  ov(1008, 1004, 2, '1440.00', '2.0000', '28.80'),
];

const settle = (agent: number, recruit: string, maintain: string, override: string, plus: string, minus: string,
  chargeback: string, gross: string, tax: string, net: string, status = 'CALCULATED') => ({
  agent_id: agent, recruit_total: recruit, maintain_total: maintain, override_total: override, exception_plus: plus,
  exception_minus: minus, chargeback_total: chargeback, gross_amount: gross, tax_amount: tax, net_amount: net, status,
});
// Aggregate (rule 4, TAX_RATE 3.3):
//  1001: 13000.00 + 1280.00 + 0 + 500.00 (approved bonus) - 333.33 - 200.00 (approved penalty) = 14246.67;
//        tax 470.14011 -> 470.14; net 13776.53 (the pending 999.00 does not count)
//  1002: 6600.00 - 50.00 = 6550.00; tax 216.15; net 6333.85 (the recurring child is PENDING)
//  1003: overrides 714.00 + 30.00 + 264.00 + 72.00 = 1080.00; tax 35.64; net 1044.36
//  1004: 100.00 + 28.80 = 128.80; tax 4.2504 -> 4.25; net 124.55
//  1005: 720.00; tax 23.76; net 696.24     1006 (LEAVE, nothing): no row     1007: all zero
//  1008: 1440.00; tax 47.52; net 1392.48
const SETTLES = [
  settle(1001, '13000.00', '1280.00', '0.00', '500.00', '200.00', '333.33', '14246.67', '470.14', '13776.53'),
  settle(1002, '0.00', '6600.00', '0.00', '0.00', '50.00', '0.00', '6550.00', '216.15', '6333.85'),
  settle(1003, '0.00', '0.00', '1080.00', '0.00', '0.00', '0.00', '1080.00', '35.64', '1044.36'),
  settle(1004, '0.00', '0.00', '128.80', '0.00', '0.00', '0.00', '128.80', '4.25', '124.55'),
  settle(1005, '720.00', '0.00', '0.00', '0.00', '0.00', '0.00', '720.00', '23.76', '696.24'),
  settle(1007, '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00', '0.00'),
  settle(1008, '1440.00', '0.00', '0.00', '0.00', '0.00', '0.00', '1440.00', '47.52', '1392.48'),
];

// The approved recurring RETRO_PLUS (auto type) continues as a PENDING child; the recurring BONUS_SPECIAL
// (not an auto type) does not.
const AUTO = [
  { agent_id: 1002, exception_code: 'RETRO_PLUS', direction: 'PLUS', amount: '300.00', approve_status: 'PENDING',
    source: 'AUTO', recurring_parent_id: 4, recurring_yn: 'N' },
];

async function snapshot() {
  return {
    recruit: await ledger('recruit_ledger'),
    maintain: await ledger('maintain_ledger'),
    chargebacks: await chargebacks(),
    overrides: await overrides(),
    settles: await settles(),
    auto: await autoExceptions(),
  };
}

describe('the monthly settlement steps 4-8', () => {
  let firstRunId: number;

  it('compute every ledger, chargeback, override and settle row of the month exactly', async () => {
    const status = await h.runMonth(MONTH);
    expect(status.run.status).toBe('COMPLETED');
    firstRunId = status.run.jobLogId;

    expect(await ledger('recruit_ledger')).toEqual(RECRUIT);
    expect(await ledger('maintain_ledger')).toEqual(MAINTAIN);
    expect(await chargebacks()).toEqual(CHARGEBACKS);
    expect(await overrides()).toEqual(OVERRIDES);
    expect(await settles()).toEqual(SETTLES);
    expect(await autoExceptions()).toEqual(AUTO);

    expect(stepCounts(status, 'calcRecruit')).toEqual({ status: 'COMPLETED', total: 5, success: 5, error: 0, skipped: 0 });
    // 3 eligible contracts + the kept carrier row of 9006 + the deleted stale row of 9002
    expect(stepCounts(status, 'calcMaintain')).toEqual({ status: 'COMPLETED', total: 5, success: 5, error: 0, skipped: 0 });
    // 1 lapsed contract + 1 recurring parent
    expect(stepCounts(status, 'chargebackException')).toEqual({ status: 'COMPLETED', total: 2, success: 2, error: 0, skipped: 0 });
    expect(stepCounts(status, 'calcOverride')).toEqual({ status: 'COMPLETED', total: 6, success: 6, error: 0, skipped: 0 });
    expect(stepCounts(status, 'aggregate')).toEqual({ status: 'COMPLETED', total: 7, success: 7, error: 0, skipped: 0 });
    // split: 5 recruit candidates by 2 -> 3 chunks; agents 1001..1008 by 3 -> 3 chunks
    const chunks = Object.fromEntries(status.steps.map((s) => [s.stepName, s.chunkCount]));
    expect(chunks).toMatchObject({ calcRecruit: 3, calcMaintain: 2, chargebackException: 0, calcOverride: 3, aggregate: 3 });
  });

  it('records the calculation basis of each row', async () => {
    const { rows } = await sql<{ contract_id: number; calc_basis: unknown; run_id: number }>`
      SELECT contract_id, calc_basis, run_id FROM recruit_ledger WHERE settle_month = ${MONTH} AND contract_id = 9001
      UNION ALL
      SELECT contract_id, calc_basis, run_id FROM maintain_ledger WHERE settle_month = ${MONTH} AND contract_id = 9004
      ORDER BY contract_id`.execute(h.db);
    // compact: only what the row's columns do not hold (rules by id + version, no null succession/reconcile)
    expect(rows[0]).toEqual({
      contract_id: 9001,
      run_id: firstRunId,
      calc_basis: {
        rateDate: '2025-01-05', gradeId: 1, contractAgentId: 1001,
        companyRate: { rateId: 1, version: 1, ratePct: '10' },
        payoutRule: { ruleId: 1, version: 1, payoutPct: '60' },
        reconcile: { reported: '10000.00', threshold: '0', diff: '0.00' },
      },
    });
    expect(rows[1]!.calc_basis).toEqual({
      rateDate: '2023-06-10', gradeId: 2, contractAgentId: 1001,
      companyRate: { rateId: 3, version: 1, ratePct: '5' },
      payoutRule: { ruleId: 4, version: 1, payoutPct: '55' },
      succession: { successionId: 1, fromAgentId: 1001, toAgentId: 1002, effectiveMonth: '202501' },
    });
    const { rows: staleRows } = await sql<{ calc_basis: unknown }>`
      SELECT calc_basis FROM maintain_ledger WHERE settle_month = ${MONTH} AND contract_id = 9006`.execute(h.db);
    expect(staleRows[0]!.calc_basis).toEqual({
      step: 'calcMaintain', runId: firstRunId, stale: true, reason: 'not eligible in this month',
      reconcile: { reported: '500.00', threshold: '0', diff: '500.00' },
    });

    const { rows: ovRows } = await sql<{ calc_basis: unknown }>`
      SELECT calc_basis FROM override_settle WHERE settle_month = ${MONTH} AND override_rule_id = 2 AND from_agent_id = 1001`.execute(h.db);
    expect(ovRows[0]!.calc_basis).toEqual({
      runId: firstRunId, date: '2025-01-31', overrideId: 2, fromGrade: 1, toGrade: 4, overridePct: '2',
      capAmount: '100.00', insuranceTypeCond: null, uncappedAmount: '285.60', orgsWalked: [111, 110], receiverOrgId: 110,
    });

    const { rows: sRows } = await sql<{ calc_basis: unknown }>`
      SELECT calc_basis FROM settle_master WHERE settle_month = ${MONTH} AND agent_id = 1001`.execute(h.db);
    // maintain rows: 9005 and the carrier's 9006 row (kept at 0)
    expect(sRows[0]!.calc_basis).toEqual({
      runId: firstRunId, taxRate: '3.3', agentStatus: 'ACTIVE',
      counts: { recruit: 3, maintain: 2, override: 0, exceptionPlus: 1, exceptionMinus: 1, chargeback: 1 },
    });

    const { rows: cbRows } = await sql<{ calc_basis: unknown }>`
      SELECT calc_basis FROM chargeback WHERE contract_id = 9008 AND installment_seq = 1`.execute(h.db);
    expect(cbRows[0]!.calc_basis).toEqual({
      runId: firstRunId, cbRuleId: 1, ruleVersion: 1, companyCode: 'L001', insuranceType: 'LIFE',
      contractDate: '2024-03-10', lapseDate: '2025-01-20', lapseMonths: 10, cbRate: '100', includeOverride: false,
      overrideBase: '0.00', ledgerBase: '1000.00', ledgerRows: 1, cbTotal: '1000.00', installmentTotal: 3,
    });
  });

  it('explains the computed rows with their full basis: row columns and the rule rows\' validity added back', async () => {
    const explain = async (agentId: number) => {
      const { rows } = await sql<SettleRow>`
        SELECT s.*, a.agent_name FROM settle_master s JOIN agent a USING (agent_id)
        WHERE s.agent_id = ${agentId} AND s.settle_month = ${MONTH}`.execute(h.db);
      return explainSettlement(h.db, rows[0]!);
    };
    const fc = await explain(1001);
    const basisOf = (lines: { contractId: number; basis: unknown }[], contractId: number) =>
      lines.find((l) => l.contractId === contractId)!.basis;
    expect(basisOf(fc.sections.recruit, 9001)).toEqual({
      step: 'calcRecruit', runId: firstRunId, rateDate: '2025-01-05', commissionYear: 1, premium: '100000.00',
      payMethod: 'MONTHLY', gradeId: 1, insuranceType: 'LIFE',
      companyRate: { rateId: 1, version: 1, ratePct: '10', effectiveFrom: '2020-01-01', effectiveTo: '2025-01-10' },
      payoutRule: { ruleId: 1, version: 1, payoutPct: '60', effectiveFrom: '2020-01-01', effectiveTo: null },
      contractAgentId: 1001, succession: null,
      reconcile: { reported: '10000.00', threshold: '0', diff: '0.00' },
    });
    expect(basisOf(fc.sections.maintain, 9005)).toEqual({
      step: 'calcMaintain', runId: firstRunId, rateDate: '2022-10-20', commissionYear: 3, premium: '80000.00',
      payMethod: 'QUARTERLY', gradeId: 1, insuranceType: 'LIFE',
      companyRate: { rateId: 4, version: 1, ratePct: '4', effectiveFrom: '2020-01-01', effectiveTo: null },
      payoutRule: { ruleId: 5, version: 1, payoutPct: '40', effectiveFrom: '2020-01-01', effectiveTo: null },
      contractAgentId: 1001, succession: null, reconcile: null,
    });
    // the stale carrier row keeps its own basis
    expect(basisOf(fc.sections.maintain, 9006)).toEqual({
      step: 'calcMaintain', runId: firstRunId, stale: true, reason: 'not eligible in this month',
      reconcile: { reported: '500.00', threshold: '0', diff: '500.00' },
    });
    const sfc = await explain(1002);
    expect(basisOf(sfc.sections.maintain, 9004)).toEqual({
      step: 'calcMaintain', runId: firstRunId, rateDate: '2023-06-10', commissionYear: 2, premium: '200000.00',
      payMethod: 'MONTHLY', gradeId: 2, insuranceType: 'LIFE',
      companyRate: { rateId: 3, version: 1, ratePct: '5', effectiveFrom: '2020-01-01', effectiveTo: null },
      payoutRule: { ruleId: 4, version: 1, payoutPct: '55', effectiveFrom: '2020-01-01', effectiveTo: null },
      contractAgentId: 1001,
      succession: { successionId: 1, fromAgentId: 1001, toAgentId: 1002, effectiveMonth: '202501' },
      reconcile: null,
    });
    expect(sfc.sections.maintain.find((l) => l.contractId === 9004)!.successionFrom).toEqual({
      successionId: 1, fromAgentId: 1001, fromAgentName: 'A FC', effectiveMonth: '202501',
    });
  });

  it('gives identical results when the month is run again', async () => {
    const before = await snapshot();
    const status = await h.runMonth(MONTH);
    expect(status.run.status).toBe('COMPLETED');
    expect(await snapshot()).toEqual(before);
    expect(stepCounts(status, 'calcMaintain')).toEqual({ status: 'COMPLETED', total: 4, success: 4, error: 0, skipped: 0 });
    expect(stepCounts(status, 'chargebackException')).toMatchObject({ total: 2, success: 2, skipped: 0 });
  });

  it('leaves a CONFIRMED settle row and its ledger rows untouched on a re-run and counts them skipped', async () => {
    await sql`UPDATE settle_master SET status = 'CONFIRMED', confirmed_at = now() WHERE agent_id = 1008 AND settle_month = ${MONTH}`.execute(h.db);
    const { rows: frozenBefore } = await sql`
      SELECT l.ledger_id, l.agent_amount, l.run_id, l.version, s.version AS settle_version, s.gross_amount, s.run_id AS settle_run
      FROM recruit_ledger l JOIN settle_master s ON s.agent_id = l.agent_id AND s.settle_month = l.settle_month
      WHERE l.contract_id = 9010`.execute(h.db);
    // The 12 % rate is revised to 15 %: every CALCULATED row of the month changes, 1008's do not.
    await sql`UPDATE commission_rate SET rate_pct = 15 WHERE rate_id = 2`.execute(h.db);

    const status = await h.runMonth(MONTH);
    expect(status.run.status).toBe('COMPLETED');
    expect(stepCounts(status, 'calcRecruit')).toEqual({ status: 'COMPLETED', total: 5, success: 4, error: 0, skipped: 1 });
    expect(stepCounts(status, 'aggregate')).toEqual({ status: 'COMPLETED', total: 7, success: 6, error: 0, skipped: 1 });

    const { rows: frozenAfter } = await sql`
      SELECT l.ledger_id, l.agent_amount, l.run_id, l.version, s.version AS settle_version, s.gross_amount, s.run_id AS settle_run
      FROM recruit_ledger l JOIN settle_master s ON s.agent_id = l.agent_id AND s.settle_month = l.settle_month
      WHERE l.contract_id = 9010`.execute(h.db);
    expect(frozenAfter).toEqual(frozenBefore);

    // 9002: 55555.55 x 15 % = 8333.3325 -> 8333.33; x 60 % = 4999.998 -> 5000.00; tax 165.00
    // 9009: 10000.00 x 15 % = 1500.00; x 60 % = 900.00; tax 29.70
    const recruit = await ledger('recruit_ledger');
    expect(recruit[1]).toEqual(row(9002, 1001, 1, '55555.55', '15.0000', '8333.33', '60.0000', '5000.00', '165.00', null, 'PENDING', null));
    expect(recruit[3]).toEqual(row(9009, 1005, 1, '10000.00', '15.0000', '1500.00', '60.0000', '900.00', '29.70', null, 'PENDING', null));
    expect(recruit[4]).toEqual(RECRUIT[4]);

    // 1001: 14000.00 + 1280.00 + 500.00 - 333.33 - 200.00 = 15246.67; tax 503.14011 -> 503.14; net 14743.53
    // overrides on 1001's base 15280.00: 764.00 (rule 1), 305.60 capped to 100.00 (rule 2), HEALTH 30.00 (rule 5)
    // 1003: 764.00 + 30.00 + 264.00 + 72.00 = 1130.00; tax 37.29; net 1092.71.   1005: 900.00; tax 29.70; net 870.30
    expect(await settles()).toEqual([
      settle(1001, '14000.00', '1280.00', '0.00', '500.00', '200.00', '333.33', '15246.67', '503.14', '14743.53'),
      SETTLES[1],
      settle(1003, '0.00', '0.00', '1130.00', '0.00', '0.00', '0.00', '1130.00', '37.29', '1092.71'),
      SETTLES[3],
      settle(1005, '900.00', '0.00', '0.00', '0.00', '0.00', '0.00', '900.00', '29.70', '870.30'),
      SETTLES[5],
      { ...SETTLES[6], status: 'CONFIRMED' },
    ]);
    expect((await overrides()).filter((o) => o.from_agent_id === 1001)).toEqual([
      ov(1001, 1003, 1, '15280.00', '5.0000', '764.00'),
      ov(1001, 1004, 2, '15280.00', '2.0000', '100.00', true),
      ov(1001, 1003, 5, '3000.00', '1.0000', '30.00'),
    ]);
  });

  it('keeps an approved recurring child and a CONFIRMED chargeback installment on a re-run; the approved child counts', async () => {
    await sql`UPDATE exception_ledger SET approve_status = 'APPROVED', approve_date = now()
              WHERE recurring_parent_id = 4 AND settle_month = ${MONTH}`.execute(h.db);
    await sql`UPDATE chargeback SET status = 'CONFIRMED' WHERE contract_id = 9008 AND installment_seq = 1`.execute(h.db);

    const status = await h.runMonth(MONTH);
    expect(status.run.status).toBe('COMPLETED');
    // the lapsed contract (installment 1 kept) and the recurring parent (child kept) are both left alone
    expect(stepCounts(status, 'chargebackException')).toEqual({ status: 'COMPLETED', total: 2, success: 0, error: 0, skipped: 2 });
    expect(await autoExceptions()).toEqual([{ ...AUTO[0], approve_status: 'APPROVED' }]);
    expect(await chargebacks()).toEqual([{ ...CHARGEBACKS[0], status: 'CONFIRMED' }, CHARGEBACKS[1], CHARGEBACKS[2]]);
    // 1002: 6600.00 + 300.00 (approved child) - 50.00 = 6850.00; tax 226.05; net 6623.95
    expect((await settles())[1]).toEqual(
      settle(1002, '0.00', '6600.00', '0.00', '300.00', '50.00', '0.00', '6850.00', '226.05', '6623.95'),
    );
  });
});
