import { defineResource, duplicate, f } from '@csp/service-kit';
import { sql } from 'kysely';

export const ACCOUNT_CODE_PATTERN = /^[0-9A-Z]{1,10}$/;

/**
 * Account codes (spec 4.5 `/api/common/account-codes`), keyed by the code itself (a string key).
 * The spec's `GET /api/common/account-codes` answers the active codes of a side as a plain array
 * (account-codes.routes.ts), so the paged list lives at `/list`. ACCOUNTING_JOURNAL has no DELETE
 * permission: delete is hand-written (UPDATE, refused while entries use the code).
 */
export const accountCodeResource = defineResource({
  name: 'AccountCode',
  path: '/api/common/account-codes',
  listPath: '/api/common/account-codes/list',
  table: 'account_code',
  alias: 'c',
  menu: 'ACCOUNTING_JOURNAL',
  tags: ['Account codes'],
  idParam: 'accountCode',
  fields: {
    accountCode: f
      .code({ max: 10, pattern: ACCOUNT_CODE_PATTERN, patternMessage: 'must be 1-10 upper-case letters or digits' })
      .key()
      .required()
      .search()
      .label('계정 코드', 'Account code'),
    accountName: f.text({ max: 100 }).required().search().sort().label('계정명', 'Account name'),
    accountType: f.codes('ACCOUNT_TYPE').required().filter().label('차대 구분', 'Side'),
    description: f.text({ max: 500 }).save().label('설명', 'Description'),
    isActive: f.bool().save({ default: true }).filter().label('사용', 'Active'),
    sortOrder: f.int({ min: 0, max: 1_000_000 }).save({ default: 0 }).sort().label('표시 순서', 'Order'),
    entryCount: f
      .computed(
        sql`(SELECT count(*)::int FROM contract_accounting_entry e
             WHERE e.debit_account_code = c.account_code OR e.credit_account_code = c.account_code)`,
        'int',
      )
      .nullable(false)
      .describe('accounting entries using the code (a code in use cannot be deleted)')
      .label('사용 분개 수', 'Entries'),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy(),
  },
  defaultSort: 'sortOrder',
  validate: async (body, ctx, existing) => {
    if (existing) return;
    // the kit refuses an existing key with B009 too; this keeps the spec's message
    const taken = await ctx.trx.selectFrom('account_code').select('account_code').where('account_code', '=', body.accountCode as string).executeTakeFirst();
    if (taken) throw duplicate(`Account code ${String(body.accountCode)} exists already`);
  },
  delete: false,
  export: 'READ',
});
