import { z } from 'zod';
import { AppError, envelope, notFound, ok, perm, readDb, registerResource, type ServiceApp } from '@csp/service-kit';
import { ACCOUNT_TYPES, type Db } from '@csp/db';
import { sql } from 'kysely';
import { accountCodeResource } from './account-codes.resource.js';

const MENU = 'ACCOUNTING_JOURNAL';
const tags = ['Account codes'];
const BASE = accountCodeResource.path;
const codeParam = z.object({ accountCode: accountCodeResource.idSchema });
const codes = envelope(z.array(accountCodeResource.schemas.response));

/**
 * Account codes: list (`/list`), export, detail, create and update come from the field table
 * (account-codes.resource.ts). Hand-written: the spec's plain arrays (active codes of a side, every
 * code) and the delete, which needs UPDATE and is refused while entries use the code.
 */
export async function accountCodeRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, accountCodeResource);
  const all = async (db: Db, active?: { accountType?: (typeof ACCOUNT_TYPES)[number] }) => {
    let qb = accountCodeResource.select(db);
    if (active) {
      const type = active.accountType;
      qb = qb.where('c.is_active', '=', true);
      if (type === 'BOTH') qb = qb.where('c.account_type', '=', 'BOTH');
      else if (type) qb = qb.where('c.account_type', 'in', [type, 'BOTH']);
    }
    const rows = await accountCodeResource.orderBy(qb, {}).execute();
    return rows.map((row) => accountCodeResource.toResp(row, app.cipher));
  };

  app.get(
    BASE,
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: 'Active codes usable on a side: accountType DEBIT or CREDIT also lists BOTH codes; none given: every active code',
        querystring: z.object({ accountType: z.enum(ACCOUNT_TYPES).optional() }),
        response: { 200: codes },
      },
    },
    async (request) => ok(await all(await readDb(request), { accountType: request.query.accountType })),
  );

  app.get(
    `${BASE}/all`,
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Every account code, active or not', response: { 200: codes } } },
    async (request) => ok(await all(await readDb(request))),
  );

  app.delete(
    `${BASE}/:accountCode`,
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Delete an unused account code (in use: E400, deactivate it instead)', params: codeParam, response: { 200: envelope() } },
    },
    async (request) => {
      const code = request.params.accountCode as string;
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
