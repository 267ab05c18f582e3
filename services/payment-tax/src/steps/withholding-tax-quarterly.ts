import { defineStep } from '@csp/batch';
import { quarterOfSettleMonth } from '@csp/domain';
import { aggregateWithholding } from '../calc/tax-aggregates.js';
import { paymentTaxDb } from '../db.js';

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
    const result = await paymentTaxDb(ctx.db)
      .transaction()
      .execute((trx) => aggregateWithholding(trx, quarter, ctx.runId));
    const counts = { total: result.total, success: result.written, error: 0, skipped: result.keptCompleted };
    ctx.progress(counts.total);
    ctx.logger.info({ ...counts, quarter }, 'withholding tax report aggregated');
    return counts;
  },
});
