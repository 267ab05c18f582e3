import type { LimitType } from '@csp/db';
import type { RegulatoryLimitRow } from '@csp/domain';
import type { RulesExecutor } from '../rule-support.js';

export type ActiveLimit = RegulatoryLimitRow & {
  limitId: number;
  limitType: LimitType;
  productCategory: string | null;
  limitValue: string;
};

/** The active regulatory limits of the given types, as the domain's lookup takes them. */
export async function activeLimits(db: RulesExecutor, types: readonly LimitType[]): Promise<ActiveLimit[]> {
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
