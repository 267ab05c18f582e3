import { sql } from 'kysely';
import { z } from 'zod';
import { activeLimits } from './active-limits.js';
import { checkRegulatoryLimit, formatMoney, formatRate, lookupRegulatoryLimit } from '@csp/domain';
import { notFound, zDate, zId } from '@csp/service-kit';
import { productCategoryOf, today, zNonNegativeMoney, type RulesDb } from '../rule-support.js';

const RATIO_TYPES = ['TOTAL_RATIO', 'FIRST_YEAR_RATIO'] as const;
type RatioType = (typeof RATIO_TYPES)[number];

export const contractLimitCheckReq = z.object({
  contractId: zId,
  additionalAmount: zNonNegativeMoney,
  /** Date the limit must be valid on; default today. */
  baseDate: zDate.optional(),
  /** One check; omitted: both TOTAL_RATIO and FIRST_YEAR_RATIO. */
  limitType: z.enum(RATIO_TYPES).optional(),
});
export type ContractLimitCheckReq = z.output<typeof contractLimitCheckReq>;

const limitCheckResult = z.object({
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
});

export const contractLimitCheckResp = z.object({
  contractId: z.number().int(),
  baseDate: z.string(),
  productCategory: z.string().nullable(),
  premium: z.string(),
  /** false when any result is violated. */
  ok: z.boolean(),
  /** One per checked limit type that has a limit row valid on the base date. */
  results: z.array(limitCheckResult),
});
export type ContractLimitCheckResp = z.infer<typeof contractLimitCheckResp>;

interface Accumulated {
  total: string;
  firstYear: string;
}

/**
 * Rule 8 accumulations from the ledgers of ledger-settlement, read only when those tables exist
 * (they come with a later migration): TOTAL = agent_amount of recruit + maintain rows of the
 * contract, FIRST_YEAR = recruit rows with commission_year 1. Summed in SQL (numeric), never in JS.
 */
async function accumulatedCommission(db: RulesDb, contractId: number): Promise<Accumulated> {
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
  const result = await sql<Accumulated>`
    SELECT (${recruitTotal}::numeric + ${maintainTotal}::numeric)::text AS total,
           (${recruitFirstYear})::numeric::text AS "firstYear"`.execute(db);
  return result.rows[0]!;
}

/**
 * POST /api/regulatory-limits/check-contract. The limit row is chosen with the domain's closed lookup
 * for the category of the contract's product (productCategoryOf), a category row winning over the
 * NULL/'ALL' rows; the check itself is the domain's checkRegulatoryLimit (DECISIONS: limitAmount =
 * pct(premium, limit_value), violated when accumulated + additional > limitAmount).
 */
export async function checkContractLimits(db: RulesDb, req: ContractLimitCheckReq): Promise<ContractLimitCheckResp> {
  const contract = await db
    .selectFrom('contract as c')
    .innerJoin('product as p', 'p.product_id', 'c.product_id')
    .select(['c.contract_id', 'c.premium', 'p.product_group', 'p.insurance_type'])
    .where('c.contract_id', '=', req.contractId)
    .executeTakeFirst();
  if (!contract) throw notFound(`Contract ${req.contractId}`);

  const baseDate = req.baseDate ?? today();
  const category = productCategoryOf(contract);
  const types: RatioType[] = req.limitType ? [req.limitType] : [...RATIO_TYPES];
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
