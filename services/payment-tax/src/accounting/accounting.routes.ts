import { z } from 'zod';
import { archiveAware } from '@csp/db';
import { action, envelope, money, notFound, ok, perm, readDb, registerResource, zId, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { actorId } from '../common/request.js';
import { accountCloseSnapshots } from './accounting.repository.js';
import { accountingCloseResource, accountingEntryResource } from './accounting.resource.js';
import { closeEntries, executeClose, generateEntries, monthBalance, reopenClose } from './accounting.service.js';

const MENU = 'ACCOUNTING_JOURNAL';
const tags = ['Accounting'];
const params = z.object({ id: zId });

const generateBody = z.union([
  z.object({ settleMonth: zSettleMonth }).strict(),
  z.object({ paymentIds: z.array(zId).min(1).max(10_000) }).strict(),
]);
const counts = z.object({ total: z.number(), written: z.number(), skipped: z.number() });
const balanceResp = z.object({
  settleMonth: z.string(),
  entries: z.number(),
  totalDebit: z.string(),
  totalCredit: z.string(),
  balanced: z.boolean(),
  accounts: z.array(z.object({ accountCode: z.string(), accountName: z.string().nullable(), debit: z.string(), credit: z.string() })),
});
const snapshotResp = z.object({
  accountCode: z.string(),
  accountName: z.string().nullable(),
  debitAmount: z.string(),
  creditAmount: z.string(),
  balanceAmount: z.string(),
});

/** Accounting entries (list, generate, close, month balance) and accounting closes (draft, execute, reopen). */
export async function accountingRoutes(app: ServiceApp): Promise<void> {
  action(
    app,
    '/api/accounting-entries/generate',
    {
      config: perm(MENU, 'CREATE'),
      schema: {
        tags,
        summary:
          '{settleMonth}: ledger entries (5110/2110, as step 9) and the entries of the SUCCESS payments of the month ' +
          '(2110 against 2120 withholding, 1130 deductions, 1110 cash; 1350 input VAT against 1110); {paymentIds}: those ' +
          'payments only. Unposted entries are replaced, posted ones kept; a CLOSED month is B001',
        body: generateBody,
        response: { 200: envelope(z.object({ ledger: counts.nullable(), payments: counts })) },
      },
    },
    async (request) => {
      const result = await generateEntries(app.db, request.body);
      request.changeLog({
        menuCode: MENU,
        tableName: 'contract_accounting_entry',
        recordId: 'settleMonth' in request.body ? `month:${request.body.settleMonth}` : `payments:${request.body.paymentIds.join(',')}`.slice(0, 100),
        action: 'CREATE',
        after: { ...request.body, ...result },
      });
      return ok(result);
    },
  );

  action(
    app,
    '/api/accounting-entries/close',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Post entries under a journal number; every id must exist (E404) and be unposted (B001)',
        body: z.object({ entryIds: z.array(zId).min(1).max(100_000), journalNo: z.string().trim().min(1).max(30) }),
        response: { 200: envelope(z.object({ closed: z.number() })) },
      },
    },
    async (request) => {
      const { entryIds, journalNo } = request.body;
      const closed = await closeEntries(app.db, entryIds, journalNo);
      request.changeLog({ menuCode: MENU, tableName: 'contract_accounting_entry', recordId: `journal:${journalNo}`, action: 'UPDATE', after: { entryIds, journalNo } });
      return ok({ closed });
    },
  );

  app.get(
    '/api/accounting-entries/balance',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: "A month's debits and credits per account, and whether they balance", querystring: z.object({ settleMonth: zSettleMonth }), response: { 200: envelope(balanceResp) } },
    },
    async (request) => {
      const { settleMonth } = request.query;
      // A report off the replica; includeArchive=true reads an archived month's entries.
      const { accounts, totals } = await monthBalance(archiveAware(await readDb(request)), settleMonth);
      return ok({
        settleMonth,
        entries: totals.entries,
        totalDebit: money(totals.debit)!,
        totalCredit: money(totals.credit)!,
        balanced: money(totals.debit) === money(totals.credit),
        accounts: accounts.map((a) => ({ accountCode: a.account_code, accountName: a.account_name, debit: money(a.debit)!, credit: money(a.credit)! })),
      });
    },
  );

  registerResource(app, accountingEntryResource);
  registerResource(app, accountingCloseResource);

  app.get(
    '/api/accounting-closes/:id/balances',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Balance snapshots written when the close was executed', params, response: { 200: envelope(z.array(snapshotResp)) } },
    },
    async (request) => {
      const db = await readDb(request);
      const close = await db.selectFrom('accounting_close').select('close_id').where('close_id', '=', request.params.id).executeTakeFirst();
      if (!close) throw notFound(`Accounting close ${request.params.id}`);
      const rows = await accountCloseSnapshots(db, request.params.id);
      return ok(
        rows.map((r) => ({
          accountCode: r.account_code,
          accountName: r.account_name,
          debitAmount: money(r.debit_amount)!,
          creditAmount: money(r.credit_amount)!,
          balanceAmount: money(r.balance_amount)!,
        })),
      );
    },
  );

  action(
    app,
    '/api/accounting-closes/:id/execute',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: "Close a DRAFT month: the month's unposted entries get the close's journal number and per-account balance snapshots are written",
        params,
        response: { 200: envelope(z.object({ journalNo: z.string(), entryCount: z.number() })) },
      },
    },
    async (request) => {
      const { before, after } = await executeClose(app.db, request.params.id, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'accounting_close', recordId: request.params.id, action: 'APPROVE', before, after });
      return ok({ journalNo: after.journal_no!, entryCount: after.entry_count });
    },
  );

  action(
    app,
    '/api/accounting-closes/:id/reopen',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Reopen a CLOSED month (not while a later month is CLOSED: B001): its journal numbers and snapshots are cleared',
        params,
        body: z.object({ reason: z.string().trim().min(1).max(500) }),
        response: { 200: envelope(z.object({ entriesCleared: z.number() })) },
      },
    },
    async (request) => {
      const { before, after, entriesCleared } = await reopenClose(app.db, request.params.id, request.body.reason, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'accounting_close', recordId: request.params.id, action: 'UPDATE', before, after: { ...after, entriesCleared } });
      return ok({ entriesCleared });
    },
  );
}
