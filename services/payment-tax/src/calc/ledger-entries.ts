import { sql } from 'kysely';
import type { PaymentTaxDb } from '../db.js';
import {
  AGENT_RECEIVABLE_ACCOUNT,
  CASH_ACCOUNT,
  COMMISSION_EXPENSE_ACCOUNT,
  COMMISSION_PAYABLE_ACCOUNT,
  INPUT_VAT_ACCOUNT,
  WITHHOLDING_PAYABLE_ACCOUNT,
} from '../steps/accounting-codes.js';

export class MissingAccountError extends Error {}

/** The entries' account codes must exist (V034 checks them here, once, instead of per row). */
export async function assertAccountsExist(db: PaymentTaxDb, accounts: readonly string[]): Promise<void> {
  const found = await db.selectFrom('account_code').select('account_code').where('account_code', 'in', [...accounts]).execute();
  const missing = accounts.filter((code) => !found.some((r) => r.account_code === code));
  if (missing.length > 0) {
    throw new MissingAccountError(`account code ${missing.join(', ')} missing: accounting entries cannot be generated`);
  }
}

export interface EntryCounts {
  /** Source rows (ledger rows or payments). */
  total: number;
  /** Entries written. */
  written: number;
  /** Source rows whose entries are already posted (journal_no set) and were left alone. */
  skipped: number;
}

/**
 * Step 9's entries: one per recruit/maintain ledger row of the month with a non-zero agent_amount,
 * debit 5110 commission expense / credit 2110 commission payable. The month's unposted ledger entries
 * are replaced (of one carrier when `companyCode` is given); posted ones are never touched. Run inside
 * a transaction.
 */
export async function writeLedgerEntries(
  trx: PaymentTaxDb,
  options: { settleMonth: string; companyCode?: string | undefined; runId: number | null },
): Promise<EntryCounts> {
  const { settleMonth: month, companyCode: company, runId } = options;
  const companyOf = (alias: string) =>
    company === undefined ? sql`` : sql`AND ${sql.ref(`${alias}.company_code`)} = ${company}`;
  await assertAccountsExist(trx, [COMMISSION_EXPENSE_ACCOUNT, COMMISSION_PAYABLE_ACCOUNT]);
  await sql`
    DELETE FROM contract_accounting_entry e
    WHERE e.settle_month = ${month} AND e.journal_no IS NULL AND e.ledger_type IN ('RECRUIT', 'MAINTAIN')
      ${companyOf('e')}`.execute(trx);
  // Only posted entries survive the delete, so only they can collide: the arbiter check (about a third of
  // the insert's time) is needed only when the month has some.
  const { rows: postedRows } = await sql<{ posted: boolean }>`
    SELECT EXISTS (SELECT 1 FROM contract_accounting_entry e
                    WHERE e.settle_month = ${month} AND e.journal_no IS NOT NULL
                      AND e.ledger_type IN ('RECRUIT', 'MAINTAIN')) AS posted`.execute(trx);
  const keepPosted = postedRows[0]!.posted
    ? sql`ON CONFLICT (ledger_type, ledger_id, debit_account_code, credit_account_code, settle_month) DO NOTHING`
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
             ${COMMISSION_EXPENSE_ACCOUNT}, ${COMMISSION_PAYABLE_ACCOUNT}, s.agent_amount, ${runId}::bigint
      FROM source s
      ${keepPosted}
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM source)::int AS total, (SELECT count(*) FROM inserted)::int AS inserted`.execute(trx);
  const { total, inserted } = rows[0]!;
  return { total, written: inserted, skipped: total - inserted };
}

const PAYMENT_ACCOUNTS = [
  COMMISSION_PAYABLE_ACCOUNT,
  WITHHOLDING_PAYABLE_ACCOUNT,
  AGENT_RECEIVABLE_ACCOUNT,
  CASH_ACCOUNT,
  INPUT_VAT_ACCOUNT,
];

/**
 * Entries of SUCCESS payments (the cash has left): the commission payable (2110) is cleared against
 * the withheld income + local tax (credit 2120), the deductions (credit 1130 agent receivables) and
 * the cash paid (credit 1110); the VAT paid to a TAXABLE agent is debit 1350 input VAT / credit 1110.
 * Zero lines are left out. Unposted entries of the payments are replaced; posted ones are kept.
 * Scope: the SUCCESS payments of a month, or the given payment ids. Run inside a transaction.
 */
export async function writePaymentEntries(
  trx: PaymentTaxDb,
  scope: { settleMonth: string } | { paymentIds: readonly number[] },
): Promise<EntryCounts> {
  await assertAccountsExist(trx, PAYMENT_ACCOUNTS);
  const where =
    'settleMonth' in scope
      ? sql`p.settle_month = ${scope.settleMonth}`
      : sql`p.payment_id = ANY(${[...scope.paymentIds]}::bigint[])`;
  await sql`
    DELETE FROM contract_accounting_entry e
    USING payment p
    WHERE e.ledger_type = 'PAYMENT' AND e.ledger_id = p.payment_id AND e.journal_no IS NULL AND ${where}`.execute(trx);
  const { rows } = await sql<{ total: number; inserted: number; posted: number }>`
    WITH source AS (
      SELECT p.payment_id, p.agent_id, p.settle_month, p.income_tax_amount + p.local_tax_amount AS withheld,
             p.deduction_amount, p.vat_amount,
             p.amount - p.income_tax_amount - p.local_tax_amount - p.deduction_amount AS cash_part
      FROM payment p
      WHERE p.status = 'SUCCESS' AND ${where}
    ), lines AS (
      SELECT payment_id, agent_id, settle_month, ${COMMISSION_PAYABLE_ACCOUNT}::varchar AS debit, ${WITHHOLDING_PAYABLE_ACCOUNT}::varchar AS credit, withheld AS amount FROM source
      UNION ALL
      SELECT payment_id, agent_id, settle_month, ${COMMISSION_PAYABLE_ACCOUNT}::varchar, ${AGENT_RECEIVABLE_ACCOUNT}::varchar, deduction_amount FROM source
      UNION ALL
      SELECT payment_id, agent_id, settle_month, ${COMMISSION_PAYABLE_ACCOUNT}::varchar, ${CASH_ACCOUNT}::varchar, cash_part FROM source
      UNION ALL
      SELECT payment_id, agent_id, settle_month, ${INPUT_VAT_ACCOUNT}::varchar, ${CASH_ACCOUNT}::varchar, vat_amount FROM source
    ), inserted AS (
      INSERT INTO contract_accounting_entry (
        contract_id, ledger_type, ledger_id, settle_month, agent_id, debit_account_code, credit_account_code, amount)
      SELECT NULL, 'PAYMENT', l.payment_id, l.settle_month, l.agent_id, l.debit, l.credit, l.amount
      FROM lines l
      WHERE l.amount <> 0
      ON CONFLICT (ledger_type, ledger_id, debit_account_code, credit_account_code, settle_month) DO NOTHING
      RETURNING ledger_id
    )
    SELECT (SELECT count(*) FROM source)::int AS total, (SELECT count(*) FROM inserted)::int AS inserted,
           (SELECT count(*) FROM source s WHERE EXISTS (
              SELECT 1 FROM contract_accounting_entry e
              WHERE e.ledger_type = 'PAYMENT' AND e.ledger_id = s.payment_id AND e.journal_no IS NOT NULL))::int AS posted`.execute(trx);
  const { total, inserted, posted } = rows[0]!;
  return { total, written: inserted, skipped: posted };
}
