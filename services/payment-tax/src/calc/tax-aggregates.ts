import { formatSettleMonth, monthsOfQuarter } from '@csp/domain';
import { sql } from 'kysely';
import type { PaymentTaxDb } from '../db.js';
import { EXCLUDED_PAYMENT_STATUS } from '../steps/accounting-codes.js';

/**
 * The yearly and quarterly aggregations of steps 10-12, shared with the API's regenerate calls. Each
 * runs inside the caller's transaction and only sums numeric columns in SQL (exact); the taxes were
 * computed by the domain when the payments were taxed. Payments count for their settle month, every
 * status except FAIL.
 */

export interface AnnualIncomeCounts {
  /** Agents written. */
  written: number;
  /** Rows of agents without counted payments any more, removed. */
  removed: number;
}

/** Step 10: agent_annual_income per agent of the year; rows of agents without payments are removed. */
export async function aggregateAnnualIncome(trx: PaymentTaxDb, year: number, runId: number | null): Promise<AnnualIncomeCounts> {
  const first = formatSettleMonth({ year, month: 1 });
  const last = formatSettleMonth({ year, month: 12 });
  const { rows } = await sql<{ agent_id: number }>`
    INSERT INTO agent_annual_income AS a (
      agent_id, settle_year, total_amount, total_income_tax, total_local_tax, total_vat, total_net,
      payment_count, run_id)
    SELECT p.agent_id, ${year}::int, sum(p.amount), sum(p.income_tax_amount), sum(p.local_tax_amount),
           sum(p.vat_amount), sum(p.net_amount), count(*), ${runId}::bigint
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
  const removed = await sql`
    DELETE FROM agent_annual_income a
    WHERE a.settle_year = ${year}
      AND a.agent_id <> ALL(${rows.map((r) => r.agent_id)}::bigint[])`.execute(trx);
  return { written: rows.length, removed: Number(removed.numAffectedRows ?? 0) };
}

export interface ReportCounts {
  /** Agents (withholding) or quarters (VAT) with something to report. */
  total: number;
  /** Rows written. */
  written: number;
  /** COMPLETED rows left as they are. */
  keptCompleted: number;
}

/**
 * Step 11: withholding_tax_report per agent of the quarter. COMPLETED rows are never changed; PENDING rows
 * of agents without counted payments any more are removed.
 */
export async function aggregateWithholding(trx: PaymentTaxDb, quarter: string, runId: number | null): Promise<ReportCounts> {
  const months = monthsOfQuarter(quarter);
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
             ${runId}::bigint
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
  return { total, written, keptCompleted: total - written };
}

/**
 * Step 12: one vat_report row per quarter: total_sales = amounts paid to TAXABLE agents, total_vat_payable =
 * their VAT, tax_invoice_count = tax_invoice rows ISSUED for the quarter's settle months (a CANCELLED invoice
 * does not count), total_purchase = 0. A COMPLETED row is never changed.
 */
export async function aggregateVat(trx: PaymentTaxDb, quarter: string, runId: number | null): Promise<ReportCounts> {
  const months = monthsOfQuarter(quarter);
  const { rows } = await sql<{ report_id: number }>`
    INSERT INTO vat_report AS v (settle_quarter, total_sales, total_purchase, total_vat_payable, tax_invoice_count, run_id)
    SELECT ${quarter},
           coalesce(sum(p.amount) FILTER (WHERE a.vat_type = 'TAXABLE'), 0),
           0,
           coalesce(sum(p.vat_amount), 0),
           (SELECT count(*) FROM tax_invoice t WHERE t.settle_month = ANY(${months}::bpchar[]) AND t.status = 'ISSUED'),
           ${runId}::bigint
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
  return { total: 1, written: rows.length, keptCompleted: 1 - rows.length };
}
