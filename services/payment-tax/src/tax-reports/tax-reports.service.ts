import { formatSettleMonth } from '@csp/domain';
import { AppError, XLSX_CONTENT_TYPE, moneyColumn, notFound, writeSpreadsheet } from '@csp/service-kit';
import { sql } from 'kysely';
import { todayInKorea } from '../calc/business-day.js';
import { aggregateAnnualIncome, aggregateVat, aggregateWithholding } from '../calc/tax-aggregates.js';
import { insertFileRow, type FileStore } from '../common/file-store.js';
import type { PaymentTaxDb } from '../db.js';
import { EXCLUDED_PAYMENT_STATUS } from '../steps/accounting-codes.js';

export const regenerateAnnualIncome = (db: PaymentTaxDb, year: number) =>
  db.transaction().execute((trx) => aggregateAnnualIncome(trx, year, null));

export const regenerateWithholding = (db: PaymentTaxDb, quarter: string) =>
  db.transaction().execute((trx) => aggregateWithholding(trx, quarter, null));

export const regenerateVat = (db: PaymentTaxDb, quarter: string) =>
  db.transaction().execute((trx) => aggregateVat(trx, quarter, null));

/** PENDING -> COMPLETED for the given report rows; every id must exist (E404); COMPLETED ones are counted, not changed. */
export async function completeReports(
  db: PaymentTaxDb,
  table: 'withholding_tax_report' | 'vat_report',
  ids: number[],
  userId: number | null,
): Promise<{ completed: number; alreadyCompleted: number }> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom(table).select(['report_id', 'file_status']).where('report_id', 'in', ids).forUpdate().execute();
    const found = new Set(rows.map((r) => Number(r.report_id)));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw notFound(`Report ${missing.join(', ')}`);
    const pending = rows.filter((r) => r.file_status === 'PENDING').map((r) => Number(r.report_id));
    if (pending.length > 0) {
      await trx
        .updateTable(table)
        .set({ file_status: 'COMPLETED', completed_by: userId, completed_at: new Date(), updated_at: new Date() })
        .where('report_id', 'in', pending)
        .execute();
    }
    return { completed: pending.length, alreadyCompleted: rows.length - pending.length };
  });
}

/**
 * Year-end statements of a year from its payments (status not FAIL). GENERATED rows are recomputed (and
 * removed when the agent has no payment any more); ISSUED and SENT rows are kept as they were issued.
 */
export async function regenerateYearEnd(db: PaymentTaxDb, year: number) {
  const first = formatSettleMonth({ year, month: 1 });
  const last = formatSettleMonth({ year, month: 12 });
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ written: number; removed: number; kept: number }>`
      WITH agg AS (
        SELECT p.agent_id, sum(p.amount) AS amount, sum(p.income_tax_amount) AS income_tax, sum(p.local_tax_amount) AS local_tax,
               sum(p.vat_amount) AS vat, sum(p.deduction_amount) AS deduction, sum(p.net_amount) AS net, count(*)::int AS n
        FROM payment p
        WHERE p.settle_month BETWEEN ${first} AND ${last} AND p.status <> ${EXCLUDED_PAYMENT_STATUS}
        GROUP BY p.agent_id
      ), written AS (
        INSERT INTO year_end_statement AS y (agent_id, settle_year, total_amount, total_income_tax, total_local_tax, total_vat,
                                             total_deduction, total_net, payment_count)
        SELECT agent_id, ${year}::int, amount, income_tax, local_tax, vat, deduction, net, n FROM agg
        ON CONFLICT (agent_id, settle_year) DO UPDATE SET
          total_amount = EXCLUDED.total_amount, total_income_tax = EXCLUDED.total_income_tax,
          total_local_tax = EXCLUDED.total_local_tax, total_vat = EXCLUDED.total_vat,
          total_deduction = EXCLUDED.total_deduction, total_net = EXCLUDED.total_net,
          payment_count = EXCLUDED.payment_count, updated_at = now(), version = y.version + 1
        WHERE y.status = 'GENERATED'
        RETURNING 1
      ), removed AS (
        DELETE FROM year_end_statement y
        WHERE y.settle_year = ${year} AND y.status = 'GENERATED' AND NOT EXISTS (SELECT 1 FROM agg WHERE agg.agent_id = y.agent_id)
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM written)::int AS written, (SELECT count(*) FROM removed)::int AS removed,
             (SELECT count(*) FROM year_end_statement y WHERE y.settle_year = ${year} AND y.status <> 'GENERATED')::int AS kept`.execute(trx);
    return rows[0]!;
  });
}

interface MonthRow {
  settle_month: string;
  amount: string;
  income_tax: string;
  local_tax: string;
  vat: string;
  deduction: string;
  net: string;
}

type SheetRow = { label: string; amount: string | null; incomeTax: string | null; localTax: string | null; vat: string | null; deduction: string | null; net: string | null };

/** Issues (or re-issues) a year-end statement: a spreadsheet of the year's payments per month and in total. */
export async function issueYearEnd(db: PaymentTaxDb, store: FileStore, statementId: number, userId: number | null) {
  const row = await db
    .selectFrom('year_end_statement as y')
    .innerJoin('agent as a', 'a.agent_id', 'y.agent_id')
    .selectAll('y')
    .select('a.agent_name')
    .where('y.statement_id', '=', statementId)
    .executeTakeFirst();
  if (!row) throw notFound(`Year-end statement ${statementId}`);
  if (row.status === 'SENT') throw new AppError('ALREADY_CONFIRMED', `Year-end statement ${statementId} was already SENT`);
  const { rows: months } = await sql<MonthRow>`
    SELECT p.settle_month, sum(p.amount) AS amount, sum(p.income_tax_amount) AS income_tax, sum(p.local_tax_amount) AS local_tax,
           sum(p.vat_amount) AS vat, sum(p.deduction_amount) AS deduction, sum(p.net_amount) AS net
    FROM payment p
    WHERE p.agent_id = ${row.agent_id} AND p.status <> ${EXCLUDED_PAYMENT_STATUS}
      AND p.settle_month BETWEEN ${formatSettleMonth({ year: row.settle_year, month: 1 })} AND ${formatSettleMonth({ year: row.settle_year, month: 12 })}
    GROUP BY p.settle_month ORDER BY p.settle_month`.execute(db);
  const empty = { amount: null, incomeTax: null, localTax: null, vat: null, deduction: null, net: null };
  const rows: SheetRow[] = [
    { label: `Year-end income statement ${row.settle_year}`, ...empty },
    { label: `Agent ${row.agent_name} (${row.agent_id})`, ...empty },
    { label: `Issued on ${todayInKorea()}`, ...empty },
    ...months.map((m) => ({
      label: m.settle_month,
      amount: m.amount,
      incomeTax: m.income_tax,
      localTax: m.local_tax,
      vat: m.vat,
      deduction: m.deduction,
      net: m.net,
    })),
    {
      label: 'Total',
      amount: row.total_amount,
      incomeTax: row.total_income_tax,
      localTax: row.total_local_tax,
      vat: row.total_vat,
      deduction: row.total_deduction,
      net: row.total_net,
    },
  ];
  const fileName = `year-end-${row.settle_year}-${row.agent_id}.xlsx`;
  const stored = await store.write(fileName, (out) =>
    writeSpreadsheet<SheetRow>(out, {
      sheetName: `Year ${row.settle_year}`,
      columns: [
        { header: 'Month', key: 'label', width: 40 },
        moneyColumn<SheetRow>('Amount', 'amount'),
        moneyColumn<SheetRow>('Income tax', 'incomeTax'),
        moneyColumn<SheetRow>('Local tax', 'localTax'),
        moneyColumn<SheetRow>('VAT', 'vat'),
        moneyColumn<SheetRow>('Deductions', 'deduction'),
        moneyColumn<SheetRow>('Net', 'net'),
      ],
      rows,
    }),
  );
  try {
    return await db.transaction().execute(async (trx) => {
      const fileId = await insertFileRow(trx, stored, {
        groupId: `YEAR-END-${row.settle_year}`,
        originalName: fileName,
        contentType: XLSX_CONTENT_TYPE,
        createdBy: userId,
      });
      if (row.file_id !== null) await trx.updateTable('file_storage').set({ is_deleted: true }).where('file_id', '=', row.file_id).execute();
      const after = await trx
        .updateTable('year_end_statement')
        .set({ status: 'ISSUED', file_id: fileId, issued_at: new Date(), issued_by: userId, updated_at: new Date(), version: sql`version + 1` })
        .where('statement_id', '=', statementId)
        .where('status', '<>', 'SENT')
        .returningAll()
        .executeTakeFirst();
      if (!after) throw new AppError('ALREADY_CONFIRMED', `Year-end statement ${statementId} was already SENT`);
      return { before: row, after };
    });
  } catch (err) {
    await store.remove(stored.filePath).catch(() => undefined);
    throw err;
  }
}

/** ISSUED -> SENT (handed to the agent); anything else is B001. */
export async function sendYearEnd(db: PaymentTaxDb, statementId: number, userId: number | null) {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('year_end_statement').selectAll().where('statement_id', '=', statementId).forUpdate().executeTakeFirst();
    if (!before) throw notFound(`Year-end statement ${statementId}`);
    if (before.status !== 'ISSUED') {
      throw new AppError('ALREADY_CONFIRMED', `Year-end statement ${statementId} is ${before.status}: only an ISSUED statement can be sent`);
    }
    const after = await trx
      .updateTable('year_end_statement')
      .set({ status: 'SENT', sent_at: new Date(), sent_by: userId, updated_at: new Date(), version: sql`version + 1` })
      .where('statement_id', '=', statementId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after };
  });
}
