import type { Kysely } from 'kysely';
import type { Ctx } from './helpers.js';

/** Direct inserts for the rows the rule tests stand on (the people/contract APIs are tested elsewhere). */
function db(ctx: Ctx): Kysely<any> {
  return ctx.db as unknown as Kysely<any>;
}

let seq = 0;

export interface ContractFixture {
  companyCode: string;
  productId: number;
  contractId: number;
  agentId: number;
}

export async function insertCompany(ctx: Ctx, companyCode: string): Promise<number> {
  const row = await db(ctx)
    .insertInto('insurance_company')
    .values({ company_code: companyCode, company_name: `Company ${companyCode}`, company_type: 'LIFE' })
    .returning('company_id')
    .executeTakeFirstOrThrow();
  return row.company_id;
}

export async function insertProduct(
  ctx: Ctx,
  companyId: number,
  opts: { insuranceType?: string; productGroup?: string | null } = {},
): Promise<number> {
  seq += 1;
  const row = await db(ctx)
    .insertInto('product')
    .values({
      company_id: companyId,
      product_code: `P-${seq}`,
      product_name: `Product ${seq}`,
      insurance_type: opts.insuranceType ?? 'LIFE',
      product_group: opts.productGroup === undefined ? 'LIFE' : opts.productGroup,
    })
    .returning('product_id')
    .executeTakeFirstOrThrow();
  return row.product_id;
}

/** Organization, agent (grade 1), company, product and a contract. */
export async function insertContract(
  ctx: Ctx,
  opts: { premium: string; contractDate?: string | null; insuranceType?: string; productGroup?: string | null; companyCode?: string },
): Promise<ContractFixture> {
  seq += 1;
  const companyCode = opts.companyCode ?? `CO${seq}`;
  const companyId = await insertCompany(ctx, companyCode);
  const productId = await insertProduct(ctx, companyId, opts);
  const org = await db(ctx)
    .insertInto('organization')
    .values({ org_name: `Org ${seq}`, org_type: 'HQ' })
    .returning('org_id')
    .executeTakeFirstOrThrow();
  const agent = await db(ctx)
    .insertInto('agent')
    .values({ org_id: org.org_id, grade_id: 1, agent_name: `Agent ${seq}` })
    .returning('agent_id')
    .executeTakeFirstOrThrow();
  const contract = await db(ctx)
    .insertInto('contract')
    .values({
      agent_id: agent.agent_id,
      product_id: productId,
      policy_no: `POL-R-${seq}`,
      premium: opts.premium,
      contract_date: opts.contractDate === undefined ? '2024-03-15' : opts.contractDate,
    })
    .returning('contract_id')
    .executeTakeFirstOrThrow();
  return { companyCode, productId, contractId: contract.contract_id, agentId: agent.agent_id };
}

/** data_change_log rows of a table (the writer is flushed first). */
export async function changeLogRows(ctx: Ctx, tableName: string): Promise<Array<{ action: string; record_id: string; menu_code: string }>> {
  await ctx.app.changeLogWriter.flush();
  return db(ctx)
    .selectFrom('data_change_log')
    .select(['action', 'record_id', 'menu_code'])
    .where('table_name', '=', tableName)
    .orderBy('change_id')
    .execute();
}

/**
 * ctx.close() with a no-op pool error listener: the test database is dropped WITH (FORCE) right
 * after pool.end() resolves, while idle clients may still be terminating; their 57P01 error would
 * reach the pool's (absent) 'error' listener and fail the run as an uncaught exception.
 */
export async function closeContext(ctx: Ctx | undefined): Promise<void> {
  if (!ctx) return;
  ctx.pool.on('error', () => {});
  await ctx.close();
}
