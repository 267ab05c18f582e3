import { defineStep } from '@csp/batch';
import { quarterOfSettleMonth } from '@csp/domain';
import { aggregateVat } from '../calc/tax-aggregates.js';
import { paymentTaxDb } from '../db.js';

/**
 * Step 12 (last month of a quarter): one vat_report row per quarter over the payments of its three
 * settle months (status not FAIL): total_sales = amounts paid to agents whose vat_type is TAXABLE,
 * total_vat_payable = sum of vat_amount, tax_invoice_count = tax invoices ISSUED for the quarter's months,
 * total_purchase = 0 (input VAT is not modelled yet). A COMPLETED row is never changed (skipped).
 * Counts are report rows (1).
 */
export const vatReportQuarterly = defineStep({
  name: 'vatReportQuarterly',
  run: async (ctx) => {
    const quarter = quarterOfSettleMonth(ctx.settleMonth);
    const result = await paymentTaxDb(ctx.db)
      .transaction()
      .execute((trx) => aggregateVat(trx, quarter, ctx.runId));
    const counts = { total: 1, success: result.written, error: 0, skipped: result.keptCompleted };
    ctx.progress(1);
    ctx.logger.info({ ...counts, quarter }, 'VAT report aggregated');
    return counts;
  },
});
