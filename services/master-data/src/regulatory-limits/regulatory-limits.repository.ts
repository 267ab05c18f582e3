import { sql } from 'kysely';
import type { Db, LimitType } from '@csp/db';
import type { RegulatoryLimitRow } from '@csp/domain';

export type ActiveLimit = RegulatoryLimitRow & { limitId: number; limitType: LimitType; productCategory: string | null; limitValue: string };

/** The active regulatory limits of the given types, as the domain's lookup takes them. */
export async function activeLimits(db: Db, types: readonly LimitType[]): Promise<ActiveLimit[]> {
  const rows = await db
    .selectFrom('regulatory_limit')
    .select(['limit_id', 'limit_type', 'product_category', 'limit_value', 'unit', 'effective_from', 'effective_to', 'is_active'])
    .where('limit_type', 'in', types)
    .where('is_active', '=', true)
    .execute();
  return rows.map((r) => ({
    limitId: r.limit_id,
    limitType: r.limit_type,
    productCategory: r.product_category,
    limitValue: r.limit_value,
    unit: r.unit,
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    isActive: r.is_active,
  }));
}

/**
 * Rule 8 accumulations from the ledgers of ledger-settlement, read only when those tables exist
 * (they come with a later migration): TOTAL = agent_amount of recruit + maintain rows of the
 * contract, FIRST_YEAR = recruit rows with commission_year 1. Summed in SQL (numeric), never in JS.
 */
export async function accumulatedCommission(db: Db, contractId: number): Promise<{ total: string; firstYear: string }> {
  const { rows } = await sql<{ recruit: boolean; maintain: boolean }>`
    SELECT to_regclass('public.recruit_ledger') IS NOT NULL AS recruit,
           to_regclass('public.maintain_ledger') IS NOT NULL AS maintain`.execute(db);
  const present = rows[0]!;
  const recruitTotal = present.recruit
    ? sql`(SELECT coalesce(sum(agent_amount), 0) FROM recruit_ledger WHERE contract_id = ${contractId})`
    : sql`0`;
  const recruitFirstYear = present.recruit
    ? sql`(SELECT coalesce(sum(agent_amount), 0) FROM recruit_ledger WHERE contract_id = ${contractId} AND commission_year = 1)`
    : sql`0`;
  const maintainTotal = present.maintain
    ? sql`(SELECT coalesce(sum(agent_amount), 0) FROM maintain_ledger WHERE contract_id = ${contractId})`
    : sql`0`;
  const result = await sql<{ total: string; firstYear: string }>`
    SELECT (${recruitTotal}::numeric + ${maintainTotal}::numeric)::text AS total,
           (${recruitFirstYear})::numeric::text AS "firstYear"`.execute(db);
  return result.rows[0]!;
}
