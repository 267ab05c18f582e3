import { defineStep, type StepCounts } from '@csp/batch';
import { monthsOfQuarter, quarterOfSettleMonth } from '@csp/domain';
import { sql } from 'kysely';
import { paymentTaxDb } from '../db.js';
import { EXCLUDED_PAYMENT_STATUS } from './accounting-codes.js';

/**
 * Step 11 (last month of a quarter): per agent, the payments of the quarter's three settle months
 * (status not FAIL) into withholding_tax_report (settle_quarter, agent_id): total_income = amount,
 * total_withheld = income tax, total_local_tax = local tax, org_id = the agent's organization now.
 * COMPLETED rows are never changed (counted skipped); PENDING rows of agents without payments any
 * more are removed.
 */
export const withholdingTaxQuarterly = defineStep({
  name: 'withholdingTaxQuarterly',
  run: async (ctx) => {
    const quarter = quarterOfSettleMonth(ctx.settleMonth);
    const months = monthsOfQuarter(quarter);

    const counts = await paymentTaxDb(ctx.db)
      .transaction()
      .execute(async (trx): Promise<StepCounts> => {
        const { rows } = await sql<{ total: number; written: number; agent_ids: number[] | null }>`
          WITH agg AS (
            SELECT p.agent_id, a.org_id, sum(p.amount) AS total_income, sum(p.income_tax_amount) AS total_withheld,
                   sum(p.local_tax_amount) AS total_local_tax, count(*) AS payment_count
            FROM payment p
            JOIN agent a ON a.agent_id = p.agent_id
            WHERE p.settle_month = ANY(${months}::bpchar[]) AND p.status <> ${EXCLUDED_PAYMENT_STATUS}
            GROUP BY p.agent_id, a.org_id
          ), written AS (
            INSERT INTO withholding_tax_report AS w (
              settle_quarter, agent_id, org_id, total_income, total_withheld, total_local_tax, payment_count, run_id)
            SELECT ${quarter}, agent_id, org_id, total_income, total_withheld, total_local_tax, payment_count,
                   ${ctx.runId}::bigint
            FROM agg
            ON CONFLICT (settle_quarter, agent_id) DO UPDATE SET
              org_id = EXCLUDED.org_id,
              total_income = EXCLUDED.total_income,
              total_withheld = EXCLUDED.total_withheld,
              total_local_tax = EXCLUDED.total_local_tax,
              payment_count = EXCLUDED.payment_count,
              run_id = EXCLUDED.run_id,
              updated_at = now()
            WHERE w.file_status <> 'COMPLETED'
            RETURNING 1
          )
          SELECT (SELECT count(*) FROM agg)::int AS total, (SELECT count(*) FROM written)::int AS written,
                 (SELECT array_agg(agent_id) FROM agg) AS agent_ids`.execute(trx);
        const { total, written, agent_ids } = rows[0]!;
        await sql`
          DELETE FROM withholding_tax_report w
          WHERE w.settle_quarter = ${quarter} AND w.file_status <> 'COMPLETED'
            AND w.agent_id <> ALL(${agent_ids ?? []}::bigint[])`.execute(trx);
        return { total, success: written, error: 0, skipped: total - written };
      });
    ctx.progress(counts.total);
    ctx.logger.info({ ...counts, quarter }, 'withholding tax report aggregated');
    return counts;
  },
});
