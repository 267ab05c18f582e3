import { z } from 'zod';
import { checkRegulatoryLimit, formatMoney, formatRate, lookupRegulatoryLimit } from '@csp/domain';
import { notFound, today, zDate, zId, zMoney } from '@csp/service-kit';
import type { Db } from '@csp/db';
import { nonNegative, productCategoryOf } from '../common/rules.js';
import { accumulatedCommission, activeLimits } from './regulatory-limits.repository.js';

const RATIO_TYPES = ['TOTAL_RATIO', 'FIRST_YEAR_RATIO'] as const;

export const contractLimitCheckReq = z.object({
  contractId: zId,
  additionalAmount: nonNegative(zMoney),
  /** Date the limit must be valid on; default today. */
  baseDate: zDate.optional(),
  /** One check; omitted: both TOTAL_RATIO and FIRST_YEAR_RATIO. */
  limitType: z.enum(RATIO_TYPES).optional(),
});

export const contractLimitCheckResp = z.object({
  contractId: z.number().int(),
  baseDate: z.string(),
  productCategory: z.string().nullable(),
  premium: z.string(),
  /** false when any result is violated. */
  ok: z.boolean(),
  /** One per checked limit type that has a limit row valid on the base date. */
  results: z.array(
    z.object({
      limitType: z.string(),
      limitId: z.number().int(),
      productCategory: z.string().nullable(),
      limitValue: z.string(),
      unit: z.string(),
      limitAmount: z.string(),
      accumulated: z.string(),
      additional: z.string(),
      remaining: z.string(),
      violated: z.boolean(),
    }),
  ),
});

/**
 * POST /api/regulatory-limits/check-contract. The limit row is chosen with the domain's closed lookup
 * for the category of the contract's product (productCategoryOf), a category row winning over the
 * NULL/'ALL' rows; the check itself is the domain's checkRegulatoryLimit (DECISIONS: limitAmount =
 * pct(premium, limit_value), violated when accumulated + additional > limitAmount).
 */
export async function checkContractLimits(db: Db, req: z.output<typeof contractLimitCheckReq>): Promise<z.input<typeof contractLimitCheckResp>> {
  const contract = await db
    .selectFrom('contract as c')
    .innerJoin('product as p', 'p.product_id', 'c.product_id')
    .select(['c.contract_id', 'c.premium', 'p.product_group', 'p.insurance_type'])
    .where('c.contract_id', '=', req.contractId)
    .executeTakeFirst();
  if (!contract) throw notFound(`Contract ${req.contractId}`);

  const baseDate = req.baseDate ?? today();
  const category = productCategoryOf(contract);
  const types = req.limitType ? [req.limitType] : [...RATIO_TYPES];
  const limits = await activeLimits(db, types);
  const accumulated = await accumulatedCommission(db, req.contractId);

  const results = types.flatMap((limitType) => {
    const limit = lookupRegulatoryLimit(limits, { limitType, productCategory: category, date: baseDate });
    if (!limit) return [];
    const check = checkRegulatoryLimit({
      limit,
      premium: contract.premium,
      accumulated: limitType === 'TOTAL_RATIO' ? accumulated.total : accumulated.firstYear,
      additional: req.additionalAmount,
    });
    return [
      {
        limitType,
        limitId: limit.limitId,
        productCategory: limit.productCategory,
        limitValue: formatRate(check.limitValue),
        unit: limit.unit,
        limitAmount: formatMoney(check.limitAmount),
        accumulated: formatMoney(check.accumulated),
        additional: formatMoney(check.additional),
        remaining: formatMoney(check.remaining),
        violated: check.violated,
      },
    ];
  });
  return {
    contractId: contract.contract_id,
    baseDate,
    productCategory: category,
    premium: formatMoney(contract.premium),
    ok: results.every((r) => !r.violated),
    results,
  };
}
