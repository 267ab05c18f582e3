import { defineStep, type StepContext, type StepCounts, type Trx } from '@csp/batch';
import { firstDayOfMonth, lastDayOfMonth } from '@csp/domain';
import { sql } from 'kysely';
import { buildChargebackRows, loadChargebackRules, type ChargebackRow } from '../calc/chargeback.js';
import { companyFilter } from '../calc/commission-step.js';
import { historyTable, ledgerDb } from '../calc/db.js';
import { continueRecurringExceptions } from '../calc/recurring-exceptions.js';
import { pricingOf } from '../calc/pricing.js';
import { createRetroExceptions } from '../corrections/retro-exceptions.js';
import { releaseHoldsByCondition } from '../holds/hold-release.js';

const INSERT_BATCH = 2_000;

interface LapsedContract {
  contract_id: number;
  agent_id: number;
  product_id: number;
  contract_date: string | null;
  lapse_date: string;
}

/** Commission earned on each contract up to and including the month (recruit + maintain, any agent). */
async function ledgerBases(
  trx: Trx,
  ids: number[],
  settleMonth: string,
): Promise<Map<number, { base: string; rows: number }>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ contract_id: number; base: string; rows: number }>`
    SELECT contract_id, sum(agent_amount)::text AS base, count(*)::int AS rows FROM (
      SELECT contract_id, agent_amount FROM ${historyTable('recruit_ledger')}
      WHERE contract_id = ANY(${ids}::bigint[]) AND settle_month < ${settleMonth}
      UNION ALL
      SELECT contract_id, agent_amount FROM recruit_ledger
      WHERE contract_id = ANY(${ids}::bigint[]) AND settle_month = ${settleMonth}
      UNION ALL
      SELECT contract_id, agent_amount FROM ${historyTable('maintain_ledger')}
      WHERE contract_id = ANY(${ids}::bigint[]) AND settle_month < ${settleMonth}
      UNION ALL
      SELECT contract_id, agent_amount FROM maintain_ledger
      WHERE contract_id = ANY(${ids}::bigint[]) AND settle_month = ${settleMonth}
    ) l GROUP BY contract_id`.execute(trx);
  return new Map(rows.map((r) => [r.contract_id, { base: r.base, rows: r.rows }]));
}

/**
 * (agent, month) pairs from this month on whose settle row is locked, for the given agents; an installment
 * due in a CLOSED month is left alone like a locked one (`*:month`).
 */
async function lockedPairs(trx: Trx, agentIds: number[], fromMonth: string): Promise<Set<string>> {
  if (agentIds.length === 0) return new Set();
  const { rows } = await sql<{ agent_id: number; settle_month: string }>`
    SELECT agent_id, settle_month FROM settle_master
    WHERE agent_id = ANY(${agentIds}::bigint[]) AND settle_month >= ${fromMonth}
      AND status IN ('CONFIRMED', 'HOLD', 'PAID')
    UNION ALL
    SELECT 0, settle_month FROM period_close WHERE settle_month >= ${fromMonth} AND status = 'CLOSED'`.execute(trx);
  return new Set(rows.map((r) => (Number(r.agent_id) === 0 ? `*:${r.settle_month}` : `${r.agent_id}:${r.settle_month}`)));
}

/**
 * Replaces the month's CALCULATED chargeback rows. Rows of a locked (agent, due month) are neither deleted
 * nor written; a CONFIRMED/CANCELLED row with the same key stays. Returns the contracts left (partly) alone.
 */
async function replaceChargebacks(trx: Trx, ctx: StepContext, rows: ChargebackRow[]): Promise<Set<number>> {
  const month = ctx.settleMonth;
  await sql`
    DELETE FROM chargeback cb
    WHERE cb.lapse_month = ${month} AND cb.status = 'CALCULATED'
      ${ctx.companyCode === undefined ? sql`` : sql`AND cb.contract_id IN (SELECT c.contract_id FROM contract c WHERE true ${companyFilter(ctx.companyCode)})`}
      AND NOT EXISTS (SELECT 1 FROM settle_master s WHERE s.agent_id = cb.agent_id AND s.settle_month = cb.settle_month
                      AND s.status IN ('CONFIRMED', 'HOLD', 'PAID'))`.execute(trx);
  const locked = await lockedPairs(trx, [...new Set(rows.map((r) => r.agentId))], month);
  const leftAlone = new Set<number>();
  const writable = rows.filter((r) => {
    if (!locked.has(`${r.agentId}:${r.settleMonth}`) && !locked.has(`*:${r.settleMonth}`)) return true;
    leftAlone.add(r.contractId);
    return false;
  });
  for (let i = 0; i < writable.length; i += INSERT_BATCH) {
    const part = writable.slice(i, i + INSERT_BATCH);
    const col = <K extends keyof ChargebackRow>(k: K) => part.map((r) => r[k]);
    const { rows: inserted } = await sql<{ contract_id: number; installment_seq: number }>`
      INSERT INTO chargeback (contract_id, agent_id, settle_month, lapse_month, lapse_date, lapse_month_diff,
        base_amount, cb_rate, cb_amount, installment_seq, installment_total, cb_rule_id, calc_basis, run_id)
      SELECT u.*, ${ctx.runId}::bigint FROM unnest(
        ${col('contractId')}::bigint[], ${col('agentId')}::bigint[], ${col('settleMonth')}::char(6)[],
        ${col('lapseMonth')}::char(6)[], ${col('lapseDate')}::date[], ${col('lapseMonthDiff')}::int[],
        ${col('baseAmount')}::numeric[], ${col('cbRate')}::numeric[], ${col('cbAmount')}::numeric[],
        ${col('installmentSeq')}::int[], ${col('installmentTotal')}::int[], ${col('cbRuleId')}::bigint[],
        ${col('calcBasis')}::jsonb[]) AS u
      ON CONFLICT (contract_id, lapse_month, installment_seq) DO NOTHING
      RETURNING contract_id, installment_seq`.execute(trx);
    const done = new Set(inserted.map((r) => `${r.contract_id}:${r.installment_seq}`));
    for (const r of part) if (!done.has(`${r.contractId}:${r.installmentSeq}`)) leftAlone.add(r.contractId);
  }
  return leftAlone;
}

/**
 * Step 6: chargebacks of the month's lapses (installments) and the month's automatic exception rows, in one
 * transaction. Contracts refused by a domain rule are counted as errors.
 */
export const chargebackException = defineStep({
  name: 'chargebackException',
  run: async (ctx) => {
    const [pricing, rules] = await Promise.all([pricingOf(ctx), loadChargebackRules(ctx)]);
    return ctx.db.transaction().execute(async (trx): Promise<StepCounts> => {
      const month = ctx.settleMonth;
      // Holds whose release condition is met are released first: their chargebacks and exceptions then count.
      const holds = await releaseHoldsByCondition(trx, { runId: ctx.runId, logger: ctx.logger });
      if (holds.examined > 0) ctx.logger.info({ ...holds }, 'hold release conditions checked');
      const { rows: lapsed } = await sql<LapsedContract>`
        SELECT c.contract_id, c.agent_id, c.product_id, c.contract_date, c.lapse_date
        FROM contract c
        WHERE c.status = 'LAPSE' AND c.lapse_date BETWEEN ${firstDayOfMonth(month)}::date AND ${lastDayOfMonth(month)}::date
          ${companyFilter(ctx.companyCode)}
        ORDER BY c.contract_id`.execute(trx);
      const bases = await ledgerBases(
        trx,
        lapsed.map((c) => c.contract_id),
        month,
      );
      const built = buildChargebackRows({ ctx, pricing, rules, lapsed, bases });
      const leftAlone = await replaceChargebacks(trx, ctx, built.rows);
      ctx.progress(lapsed.length);

      const recurring = await continueRecurringExceptions(ledgerDb(trx), ctx);
      ctx.progress(recurring.total);
      // after the recurring rows: those replace every PENDING AUTO row of the month, RETRO ones included
      const retro = await createRetroExceptions(trx, ctx);
      ctx.progress(retro.total);
      return {
        total: lapsed.length + recurring.total + retro.total,
        success: built.contractsOk - leftAlone.size + recurring.success + retro.success,
        error: built.errors + recurring.error + retro.error,
        skipped: leftAlone.size + (recurring.skipped ?? 0) + (retro.skipped ?? 0),
      };
    });
  },
});
