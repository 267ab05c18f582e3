import { z } from 'zod';
import {
  AppError,
  duplicate,
  envelope,
  isoTimestamp,
  notFound,
  ok,
  perm,
  sendSpreadsheet,
  todayCompact,
  type ServiceApp,
} from '@csp/service-kit';
import { sql } from 'kysely';
import { actorId } from '../common/request.js';

const MENU = 'ACCOUNTING_JOURNAL';
const tags = ['Account codes'];
const BASE = '/api/common/account-codes';
export const ACCOUNT_TYPES = ['DEBIT', 'CREDIT', 'BOTH'] as const;

const codeParam = z.object({
  accountCode: z.string().regex(/^[0-9A-Z]{1,10}$/, 'must be 1-10 upper-case letters or digits'),
});
const fields = {
  accountName: z.string().trim().min(1).max(100),
  accountType: z.enum(ACCOUNT_TYPES),
  description: z.string().trim().max(500).nullish(),
  isActive: z.boolean().default(true),
  sortOrder: z.number().int().min(0).max(1_000_000).default(0),
};
const createBody = z.object({ accountCode: codeParam.shape.accountCode, ...fields });
const updateBody = z.object(fields);
const accountCodeResp = z.object({
  accountCode: z.string(),
  accountName: z.string(),
  accountType: z.enum(ACCOUNT_TYPES),
  description: z.string().nullable(),
  isActive: z.boolean(),
  sortOrder: z.number(),
  entryCount: z.number().describe('accounting entries using the code (a code in use cannot be deleted)'),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

interface AccountCodeRow {
  account_code: string;
  account_name: string;
  account_type: (typeof ACCOUNT_TYPES)[number];
  description: string | null;
  is_active: boolean;
  sort_order: number;
  entry_count: number;
  created_at: Date;
  updated_at: Date;
}

const toResp = (r: AccountCodeRow): z.infer<typeof accountCodeResp> => ({
  accountCode: r.account_code,
  accountName: r.account_name,
  accountType: r.account_type,
  description: r.description,
  isActive: r.is_active,
  sortOrder: r.sort_order,
  entryCount: Number(r.entry_count),
  createdAt: isoTimestamp(r.created_at),
  updatedAt: isoTimestamp(r.updated_at),
});

/**
 * Account codes (spec 4.5 `/api/common/account-codes`). Written by hand, not as a declared resource:
 * the key is the code itself (a string), and the spec's GET answers the active codes of a type as a
 * plain array. ACCOUNTING_JOURNAL has no DELETE permission, so delete needs UPDATE.
 */
export async function accountCodeRoutes(app: ServiceApp): Promise<void> {
  const select = (where?: ReturnType<typeof sql>) =>
    sql<AccountCodeRow>`
      SELECT c.*, (SELECT count(*)::int FROM contract_accounting_entry e
                    WHERE e.debit_account_code = c.account_code OR e.credit_account_code = c.account_code) AS entry_count
      FROM account_code c ${where ?? sql``}
      ORDER BY c.sort_order, c.account_code`;

  app.get(
    BASE,
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: 'Active codes usable on a side: accountType DEBIT or CREDIT also lists BOTH codes; none given: every active code',
        querystring: z.object({ accountType: z.enum(ACCOUNT_TYPES).optional() }),
        response: { 200: envelope(z.array(accountCodeResp)) },
      },
    },
    async (request) => {
      const type = request.query.accountType;
      const filter =
        type === undefined
          ? sql`WHERE c.is_active`
          : type === 'BOTH'
            ? sql`WHERE c.is_active AND c.account_type = 'BOTH'`
            : sql`WHERE c.is_active AND c.account_type IN (${type}, 'BOTH')`;
      const { rows } = await select(filter).execute(app.db);
      return ok(rows.map(toResp));
    },
  );

  app.get(
    `${BASE}/all`,
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Every account code, active or not', response: { 200: envelope(z.array(accountCodeResp)) } } },
    async () => ok((await select().execute(app.db)).rows.map(toResp)),
  );

  app.get(
    `${BASE}/excel`,
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Export every account code (xlsx)' } },
    async (_request, reply) => {
      const { rows } = await select().execute(app.db);
      return sendSpreadsheet(reply, {
        fileName: `account-codes-${todayCompact()}.xlsx`,
        sheetName: 'Account codes',
        columns: [
          { header: 'Code', key: 'accountCode' },
          { header: 'Name', key: 'accountName', width: 30 },
          { header: 'Type', key: 'accountType' },
          { header: 'Description', key: 'description', width: 50 },
          { header: 'Active', key: 'isActive' },
          { header: 'Order', key: 'sortOrder' },
          { header: 'Entries', key: 'entryCount' },
        ],
        rows: rows.map(toResp),
      });
    },
  );

  app.post(
    BASE,
    { config: perm(MENU, 'CREATE'), schema: { tags, summary: 'Create an account code (existing code: B009)', body: createBody, response: { 200: envelope() } } },
    async (request) => {
      const b = request.body;
      const exists = await app.db.selectFrom('account_code').select('account_code').where('account_code', '=', b.accountCode).executeTakeFirst();
      if (exists) throw duplicate(`Account code ${b.accountCode} exists already`);
      const row = await app.db
        .insertInto('account_code')
        .values({
          account_code: b.accountCode,
          account_name: b.accountName,
          account_type: b.accountType,
          description: b.description ?? null,
          is_active: b.isActive,
          sort_order: b.sortOrder,
          created_by: actorId(request),
          updated_by: actorId(request),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      request.changeLog({ menuCode: MENU, tableName: 'account_code', recordId: b.accountCode, action: 'CREATE', after: row });
      return ok();
    },
  );

  app.put(
    `${BASE}/:accountCode`,
    { config: perm(MENU, 'UPDATE'), schema: { tags, summary: 'Update an account code (the code itself stays)', params: codeParam, body: updateBody, response: { 200: envelope() } } },
    async (request) => {
      const code = request.params.accountCode;
      const b = request.body;
      const { before, after } = await app.db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('account_code').selectAll().where('account_code', '=', code).forUpdate().executeTakeFirst();
        if (!before) throw notFound(`Account code ${code}`);
        const after = await trx
          .updateTable('account_code')
          .set({
            account_name: b.accountName,
            account_type: b.accountType,
            description: b.description ?? null,
            is_active: b.isActive,
            sort_order: b.sortOrder,
            updated_by: actorId(request),
            updated_at: new Date(),
          })
          .where('account_code', '=', code)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { before, after };
      });
      request.changeLog({ menuCode: MENU, tableName: 'account_code', recordId: code, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.delete(
    `${BASE}/:accountCode`,
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Delete an unused account code (in use: E400, deactivate it instead)', params: codeParam, response: { 200: envelope() } },
    },
    async (request) => {
      const code = request.params.accountCode;
      const before = await app.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('account_code').selectAll().where('account_code', '=', code).forUpdate().executeTakeFirst();
        if (!row) throw notFound(`Account code ${code}`);
        const used = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM contract_accounting_entry
          WHERE debit_account_code = ${code} OR credit_account_code = ${code}`.execute(trx);
        const n = used.rows[0]!.n;
        if (n > 0) {
          throw new AppError('BAD_REQUEST', `Account code ${code} is used by ${n} accounting entr${n === 1 ? 'y' : 'ies'}: deactivate it instead`);
        }
        await trx.deleteFrom('account_code').where('account_code', '=', code).execute();
        return row;
      });
      request.changeLog({ menuCode: MENU, tableName: 'account_code', recordId: code, action: 'DELETE', before });
      return ok();
    },
  );
}
