import { defineStep, type StepCounts } from '@csp/batch';
import { monthsOfQuarter, quarterOfSettleMonth } from '@csp/domain';
import { sql } from 'kysely';
import { paymentTaxDb } from '../db.js';
import { EXCLUDED_PAYMENT_STATUS } from './accounting-codes.js';

/**
 * Step 12 (last month of a quarter): one vat_report row per quarter over the payments of its three
 * settle months (status not FAIL): total_sales = amounts paid to agents whose vat_type is TAXABLE,
 * total_vat_payable = sum of vat_amount, tax_invoice_count = payments with vat_amount > 0,
 * total_purchase = 0 (input VAT is not modelled yet). A COMPLETED row is never changed (skipped).
 * Counts are report rows (1).
 */
export const vatReportQuarterly = defineStep({
  name: 'vatReportQuarterly',
  run: async (ctx) => {
    const quarter = quarterOfSettleMonth(ctx.settleMonth);
    const months = monthsOfQuarter(quarter);

    const counts = await paymentTaxDb(ctx.db)
      .transaction()
      .execute(async (trx): Promise<StepCounts> => {
        const { rows } = await sql<{ report_id: number }>`
          INSERT INTO vat_report AS v (settle_quarter, total_sales, total_purchase, total_vat_payable, tax_invoice_count, run_id)
          SELECT ${quarter},
                 coalesce(sum(p.amount) FILTER (WHERE a.vat_type = 'TAXABLE'), 0),
                 0,
                 coalesce(sum(p.vat_amount), 0),
                 count(*) FILTER (WHERE p.vat_amount > 0),
                 ${ctx.runId}::bigint
          FROM payment p
          JOIN agent a ON a.agent_id = p.agent_id
          WHERE p.settle_month = ANY(${months}::bpchar[]) AND p.status <> ${EXCLUDED_PAYMENT_STATUS}
          ON CONFLICT (settle_quarter) DO UPDATE SET
            total_sales = EXCLUDED.total_sales,
            total_purchase = EXCLUDED.total_purchase,
            total_vat_payable = EXCLUDED.total_vat_payable,
            tax_invoice_count = EXCLUDED.tax_invoice_count,
            run_id = EXCLUDED.run_id,
            updated_at = now()
          WHERE v.file_status <> 'COMPLETED'
          RETURNING v.report_id`.execute(trx);
        return { total: 1, success: rows.length, error: 0, skipped: 1 - rows.length };
      });
    ctx.progress(1);
    ctx.logger.info({ ...counts, quarter }, 'VAT report aggregated');
    return counts;
  },
});
