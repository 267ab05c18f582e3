import { defineStep } from '@csp/batch';
import { parseSettleMonth } from '@csp/domain';
import { aggregateAnnualIncome } from '../calc/tax-aggregates.js';
import { paymentTaxDb } from '../db.js';

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
    const result = await paymentTaxDb(ctx.db)
      .transaction()
      .execute((trx) => aggregateAnnualIncome(trx, year, ctx.runId));
    const counts = { total: result.written, success: result.written, error: 0, skipped: 0 };
    ctx.progress(counts.total);
    ctx.logger.info({ ...counts, year }, 'annual income aggregated');
    return counts;
  },
});
