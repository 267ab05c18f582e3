import type { Kysely } from 'kysely';
import type { Database } from '@csp/db';

/** The status of each existing agent among the ids (absent = no such agent). */
export async function agentStatuses(db: Kysely<Database>, ids: number[]): Promise<Map<number, string>> {
  const rows = await db.selectFrom('agent').select(['agent_id', 'status']).where('agent_id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.agent_id, r.status]));
}

export interface ProductRef {
  productId: number;
  active: boolean;
}

/** The product per 'company\0product_code' key (company '' = any carrier: several -> AMBIGUOUS). */
export async function productIds(
  db: Kysely<Database>,
  keys: string[],
): Promise<Map<string, ProductRef | 'AMBIGUOUS'>> {
  const codes = [...new Set(keys.map((k) => k.split('\u0000')[1]!))];
  const rows = await db
    .selectFrom('product as p')
    .innerJoin('insurance_company as ic', 'ic.company_id', 'p.company_id')
    .select(['p.product_id', 'p.product_code', 'p.is_active', 'ic.company_code'])
    .where('p.product_code', 'in', codes)
    .execute();
  const result = new Map<string, ProductRef | 'AMBIGUOUS'>();
  for (const key of keys) {
    const [company, code] = key.split('\u0000') as [string, string];
    const matches = rows.filter(
      (r) => r.product_code === code && (company === '' || r.company_code === company),
    );
    if (matches.length === 1) result.set(key, { productId: matches[0]!.product_id, active: matches[0]!.is_active });
    else if (matches.length > 1) result.set(key, 'AMBIGUOUS');
  }
  return result;
}

/** Active organizations and grades among the given ids. */
export async function activeOrgs(db: Kysely<Database>, ids: number[]): Promise<Map<number, boolean>> {
  const rows = await db
    .selectFrom('organization')
    .select(['org_id', 'is_active'])
    .where('org_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.org_id, r.is_active]));
}

export async function activeGrades(db: Kysely<Database>, ids: number[]): Promise<Map<number, boolean>> {
  const rows = await db
    .selectFrom('grade')
    .select(['grade_id', 'is_active'])
    .where('grade_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.grade_id, r.is_active]));
}

/** Settle rows of (agent, month) that are no longer CALCULATED: their ledgers are frozen. */
export async function frozenSettlements(
  db: Kysely<Database>,
  pairs: Array<{ agentId: number; settleMonth: string }>,
): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  if (pairs.length === 0) return result;
  const rows = await db
    .selectFrom('settle_master')
    .select(['agent_id', 'settle_month', 'status'])
    .where('agent_id', 'in', [...new Set(pairs.map((p) => p.agentId))])
    .where('settle_month', 'in', [...new Set(pairs.map((p) => p.settleMonth))])
    .where('status', 'in', ['CONFIRMED', 'HOLD', 'PAID'])
    .execute();
  for (const r of rows) result.set(`${r.agent_id}/${r.settle_month}`, r.status);
  return result;
}
