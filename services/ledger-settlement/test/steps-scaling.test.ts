import { calcCommission, calcSettlementAggregate, formatMoney, sum, toDec } from '@csp/domain';
import { defineStep, type StepDefinition } from '@csp/batch';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { calcMaintain } from '../src/steps/index.js';
import { seedGeneratedBook } from './steps-generated-book.js';
import { setChunkSizes } from '../src/calc/chunk-sizes.js';
import { allSteps, createHarness, stepCounts, type Harness } from './steps-harness.js';

const MONTH = '202501';
let h: Harness;

beforeAll(async () => {
  // several chunks out of a small book
  setChunkSizes({ contracts: 300, agents: 10, writeBatch: 7 });
  h = await createHarness();
  await seedGeneratedBook(h.tdb.pool);
});

afterEach(async () => {
  await h.stopWorkers();
});

afterAll(async () => {
  setChunkSizes({ contracts: 4_000, agents: 2_000, writeBatch: 1_000 });
  await h?.close();
});

/** calcMaintain that records which worker ran each chunk and is slow enough for two workers to share the work. */
function labelled(worker: string, seen: string[]): StepDefinition {
  return defineStep({
    ...calcMaintain,
    run: async (ctx, chunk) => {
      seen.push(worker);
      await new Promise((r) => setTimeout(r, 150));
      return calcMaintain.run(ctx, chunk);
    },
  });
}

async function maintainRows() {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT contract_id, agent_id, commission_year, company_rate, company_amount, payout_rate, agent_amount, tax_amount
    FROM maintain_ledger WHERE settle_month = ${MONTH} ORDER BY contract_id`.execute(h.db);
  return rows;
}

async function maintainTotals() {
  const { rows } = await sql<{ agent_id: number; total: string }>`
    SELECT agent_id, sum(agent_amount)::text AS total FROM maintain_ledger WHERE settle_month = ${MONTH}
    GROUP BY agent_id ORDER BY agent_id`.execute(h.db);
  return rows;
}

describe('calcMaintain split over workers', () => {
  it('produces the same rows and totals with 2 workers as with 1', async () => {
    const one: string[] = [];
    await h.startWorkers(allSteps({ calcMaintain: labelled('A', one) }));
    const first = await h.runMonth(MONTH);
    expect(first.run.status).toBe('COMPLETED');
    const maintainStep = first.steps.find((s) => s.stepName === 'calcMaintain')!;
    expect(maintainStep.chunkCount).toBeGreaterThanOrEqual(4);
    // contiguous id ranges covering every candidate
    const { rows: ranges } = await sql<{ range_start: number; range_end: number }>`
      SELECT range_start, range_end FROM batch_chunk
      WHERE parent_job_log_id = ${first.run.jobLogId} AND step_name = 'calcMaintain' ORDER BY chunk_no`.execute(h.db);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.range_start).toBe(ranges[i - 1]!.range_end + 1);
    const rowsOne = await maintainRows();
    const totalsOne = await maintainTotals();
    expect(rowsOne.length).toBeGreaterThan(300);
    await h.stopWorkers();

    // Start from an empty month so that the second run really recomputes every row.
    await sql`DELETE FROM maintain_ledger WHERE settle_month = ${MONTH}`.execute(h.db);
    const two: string[] = [];
    await h.startWorkers(allSteps({ calcMaintain: labelled('A', two) }));
    await h.startWorkers([labelled('B', two)], ['calcMaintain']);
    const second = await h.runMonth(MONTH);
    expect(second.run.status).toBe('COMPLETED');
    expect(new Set(two)).toEqual(new Set(['A', 'B']));
    expect(await maintainRows()).toEqual(rowsOne);
    expect(await maintainTotals()).toEqual(totalsOne);
    expect(stepCounts(second, 'calcMaintain')).toEqual(stepCounts(first, 'calcMaintain'));
  });

  it('stores amounts that equal the domain functions applied to the stored rates and sums (SQL sums == domain sums)', async () => {
    const { rows: ledger } = await sql<{
      agent_id: number; premium: string; company_rate: string; payout_rate: string;
      company_amount: string; agent_amount: string; tax_amount: string; kind: string; insurance_type: string;
    }>`
      SELECT agent_id, premium, company_rate, payout_rate, company_amount, agent_amount, tax_amount, 'R' AS kind, insurance_type
      FROM recruit_ledger WHERE settle_month = ${MONTH}
      UNION ALL
      SELECT agent_id, premium, company_rate, payout_rate, company_amount, agent_amount, tax_amount, 'M', insurance_type
      FROM maintain_ledger WHERE settle_month = ${MONTH}`.execute(h.db);
    expect(ledger.length).toBeGreaterThan(300);
    for (const r of ledger) {
      const c = calcCommission({ premium: r.premium, companyRate: r.company_rate, payoutRate: r.payout_rate });
      expect([formatMoney(c.companyAmount), formatMoney(c.agentAmount), formatMoney(c.tax)]).toEqual([
        r.company_amount, r.agent_amount, r.tax_amount,
      ]);
    }

    const { rows: overrides } = await sql<{ from_agent_id: number; to_agent_id: number; base_amount: string; override_amount: string; cond: string | null }>`
      SELECT from_agent_id, to_agent_id, base_amount, override_amount, calc_basis->>'insuranceTypeCond' AS cond
      FROM override_settle WHERE settle_month = ${MONTH}`.execute(h.db);
    expect(overrides.length).toBeGreaterThan(20);
    for (const o of overrides) {
      const mine = ledger.filter((l) => l.agent_id === o.from_agent_id && (o.cond === null || l.insurance_type === o.cond));
      expect(formatMoney(sum(mine.map((l) => toDec(l.agent_amount, 'a'))))).toBe(o.base_amount);
    }

    const { rows: exceptions } = await sql<{ agent_id: number; direction: string; amount: string }>`
      SELECT agent_id, direction, amount FROM exception_ledger WHERE settle_month = ${MONTH} AND approve_status = 'APPROVED'`.execute(h.db);
    const { rows: cbs } = await sql<{ agent_id: number; cb_amount: string }>`
      SELECT agent_id, cb_amount FROM chargeback WHERE settle_month = ${MONTH}`.execute(h.db);
    const { rows: settles } = await sql<Record<string, string> & { agent_id: number }>`
      SELECT agent_id, recruit_total, maintain_total, override_total, exception_plus, exception_minus, chargeback_total,
             gross_amount, tax_amount, net_amount
      FROM settle_master WHERE settle_month = ${MONTH} ORDER BY agent_id`.execute(h.db);
    expect(settles.length).toBeGreaterThan(50);
    const total = (xs: string[]) => sum(xs.map((x) => toDec(x, 'x')));
    for (const s of settles) {
      const agg = calcSettlementAggregate({
        recruit: total(ledger.filter((l) => l.kind === 'R' && l.agent_id === s.agent_id).map((l) => l.agent_amount)),
        maintain: total(ledger.filter((l) => l.kind === 'M' && l.agent_id === s.agent_id).map((l) => l.agent_amount)),
        override: total(overrides.filter((o) => o.to_agent_id === s.agent_id).map((o) => o.override_amount)),
        exceptionPlus: total(exceptions.filter((e) => e.agent_id === s.agent_id && e.direction === 'PLUS').map((e) => e.amount)),
        exceptionMinus: total(exceptions.filter((e) => e.agent_id === s.agent_id && e.direction === 'MINUS').map((e) => e.amount)),
        chargeback: total(cbs.filter((c) => c.agent_id === s.agent_id).map((c) => c.cb_amount)),
      }, '3.3');
      expect([s.recruit_total, s.maintain_total, s.override_total, s.exception_plus, s.exception_minus, s.chargeback_total,
        s.gross_amount, s.tax_amount, s.net_amount]).toEqual([agg.recruit, agg.maintain, agg.override, agg.exceptionPlus,
        agg.exceptionMinus, agg.chargeback, agg.gross, agg.tax, agg.net].map((d) => formatMoney(d)));
    }
  });
});
