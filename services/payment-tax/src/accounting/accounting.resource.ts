import { AppError, defineResource, f } from '@csp/service-kit';
import { archiveAware } from '@csp/db';
import { sql } from 'kysely';

export const LEDGER_TYPES = ['RECRUIT', 'MAINTAIN', 'PAYMENT'] as const;
export const ENTRY_STATUSES = ['OPEN', 'POSTED'] as const;
export const CLOSE_STATUSES = ['DRAFT', 'CLOSED'] as const;

/** Accounting entries (spec 2.7): filters settleMonth, journalNo, status (OPEN = no journal number, POSTED). */
export const accountingEntryResource = defineResource({
  name: 'AccountingEntry',
  path: '/api/accounting-entries',
  table: 'contract_accounting_entry',
  alias: 'e',
  menu: 'ACCOUNTING_JOURNAL',
  tags: ['Accounting'],
  baseQuery: (db) =>
    archiveAware(db)
      .selectFrom('contract_accounting_entry as e')
      .leftJoin('account_code as da', 'da.account_code', 'e.debit_account_code')
      .leftJoin('account_code as ca', 'ca.account_code', 'e.credit_account_code'),
  fields: {
    entryId: f.id().label('Entry'),
    settleMonth: f.month().filter().sort().label('Settle month'),
    ledgerType: f.enum(LEDGER_TYPES).filter().label('Source'),
    ledgerId: f.ref().filter().label('Source row'),
    contractId: f.ref().filter().label('Contract'),
    agentId: f.ref().filter().sort().label('Agent'),
    companyCode: f.text().filter().label('Carrier'),
    debitAccountCode: f.text().filter().label('Debit account'),
    debitAccountName: f.joined('da.account_name', 'text').label('Debit account name'),
    creditAccountCode: f.text().filter().label('Credit account'),
    creditAccountName: f.joined('ca.account_name', 'text').label('Credit account name'),
    amount: f.money().sort().label('Amount'),
    journalNo: f.text().filter().search().sort().label('Journal number'),
    status: f
      .computed(sql`CASE WHEN e.journal_no IS NULL THEN 'OPEN' ELSE 'POSTED' END`, 'text')
      .label('Status'),
    postedAt: f.timestamp().label('Posted at'),
    closeId: f.ref().filter().label('Close'),
    createdAt: f.createdAt(),
  },
  statusField: 'status',
  defaultSort: '-entryId',
  bigTable: true,
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});

/** Accounting closes (DECISIONS "Accounting close"): create = a DRAFT for a month; execute and reopen are workflows. */
export const accountingCloseResource = defineResource({
  name: 'AccountingClose',
  path: '/api/accounting-closes',
  table: 'accounting_close',
  alias: 'ac',
  menu: 'ACCOUNTING_JOURNAL',
  tags: ['Accounting'],
  fields: {
    closeId: f.id().label('Close'),
    settleMonth: f.month().required().createOnly().filter().sort().label('Settle month'),
    status: f.enum(CLOSE_STATUSES).label('Status'),
    journalNo: f.text().search().label('Journal number'),
    executeCount: f.int().label('Executions'),
    entryCount: f.int().label('Entries posted'),
    totalDebit: f.money().label('Debit total'),
    totalCredit: f.money().label('Credit total'),
    note: f.text({ max: 500 }).save().label('Note'),
    closedAt: f.timestamp().label('Closed at'),
    closedBy: f.ref().label('Closed by'),
    reopenedAt: f.timestamp().label('Reopened at'),
    reopenedBy: f.ref().label('Reopened by'),
    reopenReason: f.text().label('Reopen reason'),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy(),
  },
  statusField: 'status',
  defaultSort: '-settleMonth',
  validate: async (body, ctx, existing) => {
    if (existing) return;
    const same = await ctx.trx
      .selectFrom('accounting_close')
      .select(['close_id', 'status'])
      .where('settle_month', '=', body.settleMonth as string)
      .executeTakeFirst();
    if (same) throw new AppError('DUPLICATE_DATA', `${String(body.settleMonth)} already has a close (${same.close_id}, ${same.status})`);
  },
  delete: false,
  export: 'READ',
});
