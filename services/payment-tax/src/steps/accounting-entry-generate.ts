import { defineStep } from '@csp/batch';
import { writeLedgerEntries } from '../calc/ledger-entries.js';
import { paymentTaxDb } from '../db.js';

/**
 * Step 9 (every month): one contract_accounting_entry per recruit/maintain ledger row of the month
 * with a non-zero agent_amount — debit 5110 commission expense, credit 2110 commission payable,
 * amount = agent_amount, journal_no NULL. Idempotent: the month's unposted ledger entries are replaced
 * in one transaction; an entry already posted (journal_no set) is never touched and its ledger row is
 * counted skipped. A company run only replaces the entries of that carrier's ledger rows. Payment
 * entries (ledger_type PAYMENT) are the API's (POST /api/accounting-entries/generate) and stay.
 */
export const accountingEntryGenerate = defineStep({
  name: 'accountingEntryGenerate',
  run: async (ctx) => {
    const result = await paymentTaxDb(ctx.db)
      .transaction()
      .execute((trx) =>
        writeLedgerEntries(trx, { settleMonth: ctx.settleMonth, companyCode: ctx.companyCode, runId: ctx.runId }),
      );
    const counts = { total: result.total, success: result.written, error: 0, skipped: result.skipped };
    ctx.progress(counts.total);
    ctx.logger.info(counts, 'accounting entries generated');
    return counts;
  },
});
