import { defineStep, type StepCounts } from '@csp/batch';
import { formatSettleMonth, parseSettleMonth } from '@csp/domain';
import { sql } from 'kysely';
import { paymentTaxDb } from '../db.js';
import { EXCLUDED_PAYMENT_STATUS } from './accounting-codes.js';

/**
 * Step 10 (December only; the batch package writes a skipped step row in other months): per agent,
 * the sums of the payments whose settle_month lies in the year and whose status is not FAIL, upserted
 * into agent_annual_income (agent_id, settle_year). Rows of the year whose agent has no such payment
 * any more are removed, so a re-run replaces the year's output. Sums are exact numeric in SQL.
 */
export const yearEndIncomeAggregate = defineStep({
  name: 'yearEndIncomeAggregate',
  run: async (ctx) => {
    const { year } = parseSettleMonth(ctx.settleMonth);
    const first = formatSettleMonth({ year, month: 1 });
    const last = formatSettleMonth({ year, month: 12 });

    const counts = await paymentTaxDb(ctx.db)
      .transaction()
      .execute(async (trx): Promise<StepCounts> => {
        const { rows } = await sql<{ agent_id: number }>`
          INSERT INTO agent_annual_income AS a (
            agent_id, settle_year, total_amount, total_income_tax, total_local_tax, total_vat, total_net,
            payment_count, run_id)
          SELECT p.agent_id, ${year}::int, sum(p.amount), sum(p.income_tax_amount), sum(p.local_tax_amount),
                 sum(p.vat_amount), sum(p.net_amount), count(*), ${ctx.runId}::bigint
          FROM payment p
          WHERE p.settle_month BETWEEN ${first} AND ${last} AND p.status <> ${EXCLUDED_PAYMENT_STATUS}
          GROUP BY p.agent_id
          ON CONFLICT (agent_id, settle_year) DO UPDATE SET
            total_amount = EXCLUDED.total_amount,
            total_income_tax = EXCLUDED.total_income_tax,
            total_local_tax = EXCLUDED.total_local_tax,
            total_vat = EXCLUDED.total_vat,
            total_net = EXCLUDED.total_net,
            payment_count = EXCLUDED.payment_count,
            run_id = EXCLUDED.run_id,
            updated_at = now()
          RETURNING a.agent_id`.execute(trx);
        await sql`
          DELETE FROM agent_annual_income a
          WHERE a.settle_year = ${year}
            AND a.agent_id <> ALL(${rows.map((r) => r.agent_id)}::bigint[])`.execute(trx);
        return { total: rows.length, success: rows.length, error: 0, skipped: 0 };
      });
    ctx.progress(counts.total);
    ctx.logger.info({ ...counts, year }, 'annual income aggregated');
    return counts;
  },
});
