import { AppError, notFound } from '@csp/service-kit';
import { sql } from 'kysely';
import { MissingAccountError, writeLedgerEntries, writePaymentEntries, type EntryCounts } from '../calc/ledger-entries.js';
import type { PaymentTaxDb } from '../db.js';

async function assertMonthOpen(db: PaymentTaxDb, settleMonths: readonly string[]): Promise<void> {
  if (settleMonths.length === 0) return;
  const closed = await db
    .selectFrom('accounting_close')
    .select(['settle_month', 'journal_no'])
    .where('settle_month', 'in', [...settleMonths])
    .where('status', '=', 'CLOSED')
    .execute();
  if (closed.length > 0) {
    throw new AppError(
      'ALREADY_CONFIRMED',
      `Accounting of ${closed.map((c) => c.settle_month).join(', ')} is closed (journal ${closed.map((c) => c.journal_no).join(', ')}): reopen it first`,
    );
  }
}

function accountError(err: unknown): never {
  if (err instanceof MissingAccountError) throw new AppError('BAD_REQUEST', err.message);
  throw err;
}

export interface GenerateEntriesResult {
  ledger: EntryCounts | null;
  payments: EntryCounts;
}

/**
 * POST /api/accounting-entries/generate: for a month, step 9's ledger entries plus the entries of the
 * month's SUCCESS payments; for payment ids, those payments' entries (each must be SUCCESS). Unposted
 * entries are replaced, posted ones kept; a CLOSED month is B001.
 */
export async function generateEntries(
  db: PaymentTaxDb,
  scope: { settleMonth: string } | { paymentIds: number[] },
): Promise<GenerateEntriesResult> {
  return db
    .transaction()
    .execute(async (trx) => {
      if ('settleMonth' in scope) {
        await assertMonthOpen(trx, [scope.settleMonth]);
        const ledger = await writeLedgerEntries(trx, { settleMonth: scope.settleMonth, runId: null });
        const payments = await writePaymentEntries(trx, { settleMonth: scope.settleMonth });
        return { ledger, payments };
      }
      const rows = await trx
        .selectFrom('payment')
        .select(['payment_id', 'status', 'settle_month'])
        .where('payment_id', 'in', scope.paymentIds)
        .execute();
      const found = new Set(rows.map((r) => Number(r.payment_id)));
      const missing = scope.paymentIds.filter((id) => !found.has(id));
      if (missing.length > 0) throw notFound(`Payment ${missing.join(', ')}`);
      const notPaid = rows.filter((r) => r.status !== 'SUCCESS');
      if (notPaid.length > 0) {
        throw new AppError(
          'BAD_REQUEST',
          `Only SUCCESS payments are booked: ${notPaid.map((r) => `${r.payment_id} is ${r.status}`).join(', ')}`,
        );
      }
      await assertMonthOpen(trx, [...new Set(rows.map((r) => r.settle_month))]);
      return { ledger: null, payments: await writePaymentEntries(trx, { paymentIds: scope.paymentIds }) };
    })
    .catch(accountError);
}

/** PUT /api/accounting-entries/close: gives the entries a journal number; every id must exist and be unposted. */
export async function closeEntries(db: PaymentTaxDb, entryIds: number[], journalNo: string) {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('contract_accounting_entry')
      .select(['entry_id', 'journal_no'])
      .where('entry_id', 'in', entryIds)
      .forUpdate()
      .execute();
    const found = new Set(rows.map((r) => Number(r.entry_id)));
    const missing = entryIds.filter((id) => !found.has(id));
    if (missing.length > 0) throw notFound(`Accounting entry ${missing.join(', ')}`);
    const posted = rows.filter((r) => r.journal_no !== null);
    if (posted.length > 0) {
      throw new AppError(
        'ALREADY_CONFIRMED',
        `Already posted: ${posted.map((r) => `entry ${r.entry_id} (journal ${r.journal_no})`).join(', ')}`,
      );
    }
    const result = await trx
      .updateTable('contract_accounting_entry')
      .set({ journal_no: journalNo, posted_at: new Date(), updated_at: new Date() })
      .where('entry_id', 'in', entryIds)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}

/** Per account: the month's debits, credits and both totals (debit total = credit total when the month balances). */
export async function monthBalance(db: PaymentTaxDb, settleMonth: string) {
  const { rows } = await sql<{ account_code: string; account_name: string | null; debit: string; credit: string }>`
    WITH sides AS (
      SELECT debit_account_code AS account_code, amount AS debit, 0::numeric AS credit
      FROM ${sql.table('contract_accounting_entry')} WHERE settle_month = ${settleMonth}
      UNION ALL
      SELECT credit_account_code, 0, amount FROM ${sql.table('contract_accounting_entry')} WHERE settle_month = ${settleMonth}
    )
    SELECT s.account_code, a.account_name, sum(s.debit) AS debit, sum(s.credit) AS credit
    FROM sides s LEFT JOIN account_code a ON a.account_code = s.account_code
    GROUP BY s.account_code, a.account_name
    ORDER BY s.account_code`.execute(db);
  const { rows: totals } = await sql<{ debit: string; credit: string; entries: number }>`
    SELECT coalesce(sum(amount), 0) AS debit, coalesce(sum(amount), 0) AS credit, count(*)::int AS entries
    FROM ${sql.table('contract_accounting_entry')} WHERE settle_month = ${settleMonth}`.execute(db);
  return { accounts: rows, totals: totals[0]! };
}

/**
 * Executes a DRAFT close: every unposted entry of the month gets the close's journal number, and one
 * account_balance_snapshot row per account used in the month: debit, credit, and balance = the balance of
 * the latest earlier CLOSED month + debit - credit.
 */
export async function executeClose(db: PaymentTaxDb, closeId: number, userId: number | null) {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('accounting_close').selectAll().where('close_id', '=', closeId).forUpdate().executeTakeFirst();
    if (!before) throw notFound(`Accounting close ${closeId}`);
    if (before.status !== 'DRAFT') throw new AppError('ALREADY_CONFIRMED', `${before.settle_month} is already CLOSED (journal ${before.journal_no})`);
    const month = before.settle_month;
    const executeCount = before.execute_count + 1;
    const journalNo = `J${month}-${String(closeId).padStart(4, '0')}-${String(executeCount).padStart(2, '0')}`;
    const posted = await trx
      .updateTable('contract_accounting_entry')
      .set({ journal_no: journalNo, posted_at: new Date(), close_id: closeId, updated_at: new Date() })
      .where('settle_month', '=', month)
      .where('journal_no', 'is', null)
      .executeTakeFirst();
    await sql`
      WITH sides AS (
        SELECT debit_account_code AS account_code, amount AS debit, 0::numeric AS credit
        FROM contract_accounting_entry WHERE settle_month = ${month}
        UNION ALL
        SELECT credit_account_code, 0, amount FROM contract_accounting_entry WHERE settle_month = ${month}
      ), month_totals AS (
        SELECT account_code, sum(debit) AS debit, sum(credit) AS credit FROM sides GROUP BY account_code
      ), previous AS (
        SELECT DISTINCT ON (b.account_code) b.account_code, b.balance_amount
        FROM account_balance_snapshot b JOIN accounting_close c ON c.close_id = b.close_id
        WHERE c.status = 'CLOSED' AND c.settle_month < ${month}
        ORDER BY b.account_code, c.settle_month DESC
      ), accounts AS (
        SELECT account_code FROM month_totals UNION SELECT account_code FROM previous
      )
      INSERT INTO account_balance_snapshot (close_id, settle_month, account_code, account_name, debit_amount, credit_amount, balance_amount)
      SELECT ${closeId}, ${month}, x.account_code, a.account_name, coalesce(m.debit, 0), coalesce(m.credit, 0),
             coalesce(p.balance_amount, 0) + coalesce(m.debit, 0) - coalesce(m.credit, 0)
      FROM accounts x
      LEFT JOIN month_totals m ON m.account_code = x.account_code
      LEFT JOIN previous p ON p.account_code = x.account_code
      LEFT JOIN account_code a ON a.account_code = x.account_code`.execute(trx);
    const { rows } = await sql<{ debit: string; credit: string; entries: number }>`
      SELECT coalesce(sum(debit_amount), 0) AS debit, coalesce(sum(credit_amount), 0) AS credit,
             (SELECT count(*)::int FROM contract_accounting_entry WHERE settle_month = ${month}) AS entries
      FROM account_balance_snapshot WHERE close_id = ${closeId}`.execute(trx);
    const after = await trx
      .updateTable('accounting_close')
      .set({
        status: 'CLOSED',
        journal_no: journalNo,
        execute_count: executeCount,
        entry_count: Number(posted.numUpdatedRows),
        total_debit: rows[0]!.debit,
        total_credit: rows[0]!.credit,
        closed_at: new Date(),
        closed_by: userId,
        updated_at: new Date(),
        updated_by: userId,
        version: sql`version + 1`,
      })
      .where('close_id', '=', closeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after };
  });
}

/** Reopens a CLOSED month while no later month is CLOSED: clears the journal numbers it gave and its snapshots. */
export async function reopenClose(db: PaymentTaxDb, closeId: number, reason: string, userId: number | null) {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('accounting_close').selectAll().where('close_id', '=', closeId).forUpdate().executeTakeFirst();
    if (!before) throw notFound(`Accounting close ${closeId}`);
    if (before.status !== 'CLOSED') throw new AppError('ALREADY_CONFIRMED', `${before.settle_month} is not CLOSED`);
    const later = await trx
      .selectFrom('accounting_close')
      .select(['settle_month'])
      .where('status', '=', 'CLOSED')
      .where('settle_month', '>', before.settle_month)
      .orderBy('settle_month')
      .execute();
    if (later.length > 0) {
      throw new AppError(
        'ALREADY_CONFIRMED',
        `${before.settle_month} cannot be reopened while a later month is closed (${later.map((l) => l.settle_month).join(', ')})`,
      );
    }
    const cleared = await trx
      .updateTable('contract_accounting_entry')
      .set({ journal_no: null, posted_at: null, close_id: null, updated_at: new Date() })
      .where('close_id', '=', closeId)
      .executeTakeFirst();
    await trx.deleteFrom('account_balance_snapshot').where('close_id', '=', closeId).execute();
    const after = await trx
      .updateTable('accounting_close')
      .set({
        status: 'DRAFT',
        reopened_at: new Date(),
        reopened_by: userId,
        reopen_reason: reason,
        updated_at: new Date(),
        updated_by: userId,
        version: sql`version + 1`,
      })
      .where('close_id', '=', closeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after, entriesCleared: Number(cleared.numUpdatedRows) };
  });
}
