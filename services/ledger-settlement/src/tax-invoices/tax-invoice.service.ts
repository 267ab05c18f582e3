import { sql } from 'kysely';
import { formatMoney, taxInvoiceAmounts } from '@csp/domain';
import { AppError, notFound, type ChangeLogEntry } from '@csp/service-kit';
import { inTransaction, type Executor } from '../period-closes/month-guard.js';
import { MENU_TAX_INVOICE } from './tax-invoice.resource.js';

interface PaidMonth {
  agent_id: number;
  payment_id: number;
  payments: number;
  supply: string;
  vat: string;
  issued: number;
}

export interface IssueResult {
  issued: number;
  /** TAXABLE agents of the month that already have an ISSUED invoice */
  alreadyIssued: number;
  /** TAXABLE agents whose payments have no calculated tax yet */
  notCalculated: number;
  changes: ChangeLogEntry[];
}

/**
 * One tax invoice per TAXABLE agent and month of payment: supply = the month's payment amounts, VAT = their
 * VAT (rule 5, calculated by payment-tax; payments without calculated tax are not invoiced yet), issue date
 * today. Agents with an ISSUED invoice for the month are left alone; FAIL payments do not count.
 */
export async function issueTaxInvoices(
  db: Executor,
  input: { settleMonth: string; agentId?: number | undefined; userId: number | null; issueDate: string },
): Promise<IssueResult> {
  return inTransaction(db, async (trx) => {
    const { rows } = await sql<PaidMonth & { uncalculated: number }>`
      SELECT p.agent_id, min(p.payment_id)::int AS payment_id, count(*)::int AS payments,
             sum(p.amount)::text AS supply, sum(p.vat_amount)::text AS vat,
             count(*) FILTER (WHERE p.tax_calculated_at IS NULL)::int AS uncalculated,
             (SELECT count(*) FROM tax_invoice t WHERE t.agent_id = p.agent_id AND t.settle_month = p.settle_month)::int AS issued
      FROM payment p JOIN agent a ON a.agent_id = p.agent_id
      WHERE p.settle_month = ${input.settleMonth} AND p.status <> 'FAIL' AND a.vat_type = 'TAXABLE'
        ${input.agentId === undefined ? sql`` : sql`AND p.agent_id = ${input.agentId}`}
      GROUP BY p.agent_id, p.settle_month
      ORDER BY p.agent_id`.execute(trx);
    const active = new Set(
      (
        await trx
          .selectFrom('tax_invoice')
          .select('agent_id')
          .where('settle_month', '=', input.settleMonth)
          .where('status', '=', 'ISSUED')
          .execute()
      ).map((r) => Number(r.agent_id)),
    );
    const result: IssueResult = { issued: 0, alreadyIssued: 0, notCalculated: 0, changes: [] };
    for (const r of rows) {
      if (active.has(Number(r.agent_id))) {
        result.alreadyIssued++;
        continue;
      }
      if (r.uncalculated > 0) {
        result.notCalculated++;
        continue;
      }
      const amounts = taxInvoiceAmounts(r.supply, r.vat);
      const invoice = await trx
        .insertInto('tax_invoice')
        .values({
          invoice_no: `TI-${input.settleMonth}-${r.agent_id}-${r.issued + 1}`,
          agent_id: r.agent_id,
          settle_month: input.settleMonth,
          payment_id: r.payments === 1 ? r.payment_id : null,
          supply_amount: formatMoney(amounts.supply),
          vat_amount: formatMoney(amounts.vat),
          total_amount: formatMoney(amounts.total),
          issue_date: input.issueDate,
          created_by: input.userId,
          updated_by: input.userId,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      result.issued++;
      result.changes.push({ menuCode: MENU_TAX_INVOICE, tableName: 'tax_invoice', recordId: invoice.invoice_id, action: 'CREATE', after: invoice });
    }
    return result;
  });
}

/** ISSUED -> CANCELLED with a reason (B001 otherwise); the agent's month can then be invoiced again. */
export async function cancelTaxInvoice(
  db: Executor,
  input: { invoiceId: number; userId: number | null; reason: string },
): Promise<{ invoice: Record<string, unknown>; changes: ChangeLogEntry[] }> {
  return inTransaction(db, async (trx) => {
    const before = await trx.selectFrom('tax_invoice').selectAll().where('invoice_id', '=', input.invoiceId).forUpdate().executeTakeFirst();
    if (!before) throw notFound(`TaxInvoice ${input.invoiceId}`);
    if (before.status !== 'ISSUED') throw new AppError('ALREADY_CONFIRMED', `TaxInvoice ${input.invoiceId} is ${before.status}`);
    const invoice = await trx
      .updateTable('tax_invoice')
      .set({
        status: 'CANCELLED',
        cancel_reason: input.reason,
        cancelled_by: input.userId,
        cancelled_at: sql`now()`,
        updated_by: input.userId,
        updated_at: sql`now()`,
        version: sql`version + 1`,
      })
      .where('invoice_id', '=', input.invoiceId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { invoice, changes: [{ menuCode: MENU_TAX_INVOICE, tableName: 'tax_invoice', recordId: input.invoiceId, action: 'UPDATE', before, after: invoice }] };
  });
}
