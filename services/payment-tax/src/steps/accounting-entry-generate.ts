import { defineStep, type StepCounts } from '@csp/batch';
import { sql } from 'kysely';
import { paymentTaxDb, type PaymentTaxDb } from '../db.js';
import { COMMISSION_EXPENSE_ACCOUNT, COMMISSION_PAYABLE_ACCOUNT } from './accounting-codes.js';

const ACCOUNTS = [COMMISSION_EXPENSE_ACCOUNT, COMMISSION_PAYABLE_ACCOUNT];

/** The entries' account codes must exist (V034 checks them here, once, instead of per row). */
async function assertAccountsExist(db: PaymentTaxDb): Promise<void> {
  const found = await db
    .selectFrom('account_code')
    .select('account_code')
    .where('account_code', 'in', ACCOUNTS)
    .execute();
  const missing = ACCOUNTS.filter((code) => !found.some((r) => r.account_code === code));
  if (missing.length > 0) {
    throw new Error(`account code ${missing.join(', ')} missing: accounting entries cannot be generated`);
  }
}

/**
 * Step 9 (every month): one contract_accounting_entry per recruit/maintain ledger row of the month
 * with a non-zero agent_amount — debit 5110 commission expense, credit 2110 commission payable,
 * amount = agent_amount, journal_no NULL. Idempotent: the month's unposted entries are replaced in
 * one transaction; an entry already posted (journal_no set) is never touched and its ledger row is
 * counted skipped. A company run only replaces the entries of that carrier's ledger rows.
 */
export const accountingEntryGenerate = defineStep({
  name: 'accountingEntryGenerate',
  run: async (ctx) => {
    const month = ctx.settleMonth;
    const company = ctx.companyCode;
    const companyOf = (alias: string) =>
      company === undefined ? sql`` : sql`AND ${sql.ref(`${alias}.company_code`)} = ${company}`;

    const counts = await paymentTaxDb(ctx.db)
      .transaction()
      .execute(async (trx): Promise<StepCounts> => {
        await assertAccountsExist(trx);
        await sql`
          DELETE FROM contract_accounting_entry e
          WHERE e.settle_month = ${month} AND e.journal_no IS NULL ${companyOf('e')}`.execute(trx);
        // Only posted entries survive the delete, so only they can collide: the arbiter check (about a third of
        // the insert's time) is needed only when the month has some.
        const { rows: postedRows } = await sql<{ posted: boolean }>`
          SELECT EXISTS (SELECT 1 FROM contract_accounting_entry e
                          WHERE e.settle_month = ${month} AND e.journal_no IS NOT NULL) AS posted`.execute(
          trx,
        );
        const keepPosted = postedRows[0]!.posted
          ? sql`ON CONFLICT (ledger_type, ledger_id, debit_account_code, credit_account_code) DO NOTHING`
          : sql``;
        const { rows } = await sql<{ total: number; inserted: number }>`
          WITH source AS (
            SELECT 'RECRUIT' AS ledger_type, l.ledger_id, l.contract_id, l.agent_id, l.company_code, l.agent_amount
            FROM recruit_ledger l
            WHERE l.settle_month = ${month} AND l.agent_amount <> 0 ${companyOf('l')}
            UNION ALL
            SELECT 'MAINTAIN', l.ledger_id, l.contract_id, l.agent_id, l.company_code, l.agent_amount
            FROM maintain_ledger l
            WHERE l.settle_month = ${month} AND l.agent_amount <> 0 ${companyOf('l')}
          ), inserted AS (
            INSERT INTO contract_accounting_entry (
              contract_id, ledger_type, ledger_id, settle_month, agent_id, company_code,
              debit_account_code, credit_account_code, amount, run_id)
            SELECT s.contract_id, s.ledger_type, s.ledger_id, ${month}, s.agent_id, s.company_code,
                   ${COMMISSION_EXPENSE_ACCOUNT}, ${COMMISSION_PAYABLE_ACCOUNT}, s.agent_amount, ${ctx.runId}::bigint
            FROM source s
            ${keepPosted}
            RETURNING 1
          )
          SELECT (SELECT count(*) FROM source)::int AS total, (SELECT count(*) FROM inserted)::int AS inserted`.execute(
          trx,
        );
        const { total, inserted } = rows[0]!;
        return { total, success: inserted, error: 0, skipped: total - inserted };
      });
    ctx.progress(counts.total);
    ctx.logger.info(counts, 'accounting entries generated');
    return counts;
  },
});
