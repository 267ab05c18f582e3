import { z } from 'zod';
import type { Kysely } from 'kysely';
import { checkInstallmentYears, installmentSequence, lookupRegulatoryLimit } from '@csp/domain';
import { defineResource, invalid, isoTimestamp, rate, rateColumn, zDate, type ResourceContext } from '@csp/service-kit';
import { activeLimits } from '../regulatory-limits/active-limits.js';
import {
  asRulesExecutor,
  categoryFilter,
  checkClosedPeriod,
  codeName,
  effectiveFields,
  insertAudit,
  PRODUCT_CATEGORIES,
  updateAudit,
  validOnClosed,
  zBoolFilter,
  zPositiveRate,
} from '../rule-support.js';

export const MENU_INSTALLMENT_RATIO = 'INSTALLMENT_RATIO';

export const installmentRatioSaveReq = z.object({
  /** NULL (or 'ALL') = every category. */
  productCategory: z.enum(PRODUCT_CATEGORIES).nullable().optional(),
  planYear: z.number().int().min(1).max(7),
  /** NULL = annual ratio (paid in month 1 of the plan year). */
  planMonth: z.number().int().min(1).max(12).nullable().optional(),
  ratioPercent: zPositiveRate,
  ...effectiveFields,
  isActive: z.boolean().default(true),
});
type InstallmentRatioSaveReq = z.output<typeof installmentRatioSaveReq>;

export const installmentRatioResp = z.object({
  ratioId: z.number().int(),
  productCategory: z.string().nullable(),
  productCategoryName: z.string().nullable(),
  planYear: z.number().int(),
  planMonth: z.number().int().nullable(),
  /** (planYear - 1) x 12 + (planMonth ?? 1) */
  sequence: z.number().int(),
  ratioPercent: z.string(),
  effectiveFrom: z.string(),
  effectiveTo: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface InstallmentRatioRow {
  ratio_id: number;
  product_category: string | null;
  product_category_name: string | null;
  plan_year: number;
  plan_month: number | null;
  ratio_percent: string;
  effective_from: string;
  effective_to: string | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: InstallmentRatioSaveReq) => ({
  product_category: b.productCategory ?? null,
  plan_year: b.planYear,
  plan_month: b.planMonth ?? null,
  ratio_percent: b.ratioPercent,
  effective_from: b.effectiveFrom,
  effective_to: b.effectiveTo ?? null,
  is_active: b.isActive,
});

/** A plan year beyond the INSTALLMENT_YEARS limit valid on effectiveFrom is E411 (domain check). */
async function checkPlanYearLimit(b: InstallmentRatioSaveReq, ctx: ResourceContext): Promise<void> {
  const limit = lookupRegulatoryLimit(await activeLimits(asRulesExecutor(ctx.trx), ['INSTALLMENT_YEARS']), {
    limitType: 'INSTALLMENT_YEARS',
    productCategory: b.productCategory ?? null,
    date: b.effectiveFrom,
  });
  if (limit && checkInstallmentYears(limit, b.planYear).violated) {
    throw invalid('planYear', `exceeds the installment limit of ${rate(limit.limitValue as string)} years`);
  }
}

/**
 * Installment ratios (INSTALLMENT_RATIO: READ/CREATE). The key (category, plan year, plan month,
 * effective from) is unique with NULLs equal: a duplicate is B009.
 */
export const installmentRatioResource = defineResource({
  name: 'InstallmentRatio',
  basePath: '/api/installment-ratios',
  table: 'installment_ratio',
  idColumn: 'ir.ratio_id',
  menu: MENU_INSTALLMENT_RATIO,
  tags: ['Installment ratio'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('installment_ratio as ir')
      .select((eb) => codeName('PRODUCT_CATEGORY', eb.ref('ir.product_category')).as('product_category_name')),
  columns: [
    'ir.ratio_id',
    'ir.product_category',
    'ir.plan_year',
    'ir.plan_month',
    'ir.ratio_percent',
    'ir.effective_from',
    'ir.effective_to',
    'ir.is_active',
    'ir.created_at',
    'ir.updated_at',
  ],
  respSchema: installmentRatioResp,
  toResp: (r: InstallmentRatioRow) => ({
    ratioId: r.ratio_id,
    productCategory: r.product_category,
    productCategoryName: r.product_category_name,
    planYear: r.plan_year,
    planMonth: r.plan_month,
    sequence: installmentSequence(r.plan_year, r.plan_month),
    ratioPercent: rate(r.ratio_percent),
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    isActive: r.is_active,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: installmentRatioSaveReq,
  validate: async (b, ctx) => {
    checkClosedPeriod(b);
    await checkPlanYearLimit(b, ctx);
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  update: false,
  filters: {
    shape: {
      productCategory: z.enum(PRODUCT_CATEGORIES).optional(),
      planYear: z.coerce.number().int().min(1).max(7).optional(),
      effectiveDate: zDate.optional(),
      isActive: zBoolFilter.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.productCategory) q = q.where(categoryFilter('ir', f.productCategory));
      if (f.planYear !== undefined) q = q.where('ir.plan_year', '=', f.planYear);
      if (f.effectiveDate) q = q.where(validOnClosed('ir', f.effectiveDate));
      if (f.isActive !== undefined) q = q.where('ir.is_active', '=', f.isActive);
      return q;
    },
  },
  sortable: {
    ratioId: 'ir.ratio_id',
    planYear: 'ir.plan_year',
    planMonth: 'ir.plan_month',
    effectiveFrom: 'ir.effective_from',
  },
  defaultSort: 'ir.ratio_id',
  dateColumn: 'ir.effective_from',
  delete: false,
  exportPerm: 'READ',
  exportColumns: [
    { header: 'Ratio ID', key: 'ratio_id' },
    { header: 'Product category', key: 'product_category' },
    { header: 'Plan year', key: 'plan_year' },
    { header: 'Plan month', key: 'plan_month' },
    { header: 'Sequence', key: 'sequence', value: (r: InstallmentRatioRow) => installmentSequence(r.plan_year, r.plan_month) },
    rateColumn<InstallmentRatioRow>('Ratio (%)', 'ratio_percent'),
    { header: 'Effective from', key: 'effective_from' },
    { header: 'Effective to', key: 'effective_to' },
    { header: 'Active', key: 'is_active', value: (r: InstallmentRatioRow) => (r.is_active ? 'Y' : 'N') },
  ],
});
