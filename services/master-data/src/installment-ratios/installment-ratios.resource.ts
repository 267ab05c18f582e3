import { sql } from 'kysely';
import { z } from 'zod';
import { checkInstallmentYears, lookupRegulatoryLimit } from '@csp/domain';
import { defineResource, f, invalid, rate, zDate, type AnyRow } from '@csp/service-kit';
import { filters, trxOf } from '../common/resource-helpers.js';
import { PRODUCT_CATEGORIES, type Db } from '@csp/db';
import { categoryFilter, checkClosedPeriod, positive, validOn } from '../common/rules.js';
import { activeLimits } from '../regulatory-limits/regulatory-limits.repository.js';

/** A plan year beyond the INSTALLMENT_YEARS limit valid on effectiveFrom is E411 (domain check). */
async function checkPlanYearLimit(db: Db, b: AnyRow): Promise<void> {
  const limit = lookupRegulatoryLimit(await activeLimits(db, ['INSTALLMENT_YEARS']), {
    limitType: 'INSTALLMENT_YEARS',
    productCategory: b.productCategory ?? null,
    date: b.effectiveFrom,
  });
  if (limit && checkInstallmentYears(limit, b.planYear).violated) {
    throw invalid('planYear', `exceeds the installment limit of ${rate(limit.limitValue)} years`);
  }
}

/**
 * Installment ratios (INSTALLMENT_RATIO: READ/CREATE only), closed validity. The key (category,
 * plan year, plan month, effective from) is unique with NULLs equal: a duplicate is B009. Field
 * order = export column order.
 */
export const installmentRatioResource = defineResource({
  name: 'InstallmentRatio',
  path: '/api/installment-ratios',
  table: 'installment_ratio',
  alias: 'ir',
  menu: 'INSTALLMENT_RATIO',
  tags: ['Installment ratio'],
  fields: {
    ratioId: f.id().label('Ratio ID'),
    productCategory: f.enum(PRODUCT_CATEGORIES).save().describe("NULL (or 'ALL') = every category").label('Product category'),
    productCategoryName: f.codeName('PRODUCT_CATEGORY', 'productCategory').export(false),
    planYear: f.int({ min: 1, max: 7 }).required().sort().filter().label('Plan year'),
    planMonth: f.int({ min: 1, max: 12 }).save().sort().describe('NULL = annual ratio (paid in month 1 of the plan year)').label('Plan month'),
    sequence: f
      .computed(sql`((ir.plan_year - 1) * 12 + coalesce(ir.plan_month, 1))`, 'int')
      .nullable(false)
      .describe('(planYear - 1) x 12 + (planMonth ?? 1)')
      .label('Sequence'),
    ratioPercent: f.rate().required().refine(positive).label('Ratio (%)'),
    effectiveFrom: f.date().required().sort().label('Effective from'),
    effectiveTo: f.date().save().label('Effective to'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'ratioId',
  dateFilter: 'effectiveFrom',
  update: false,
  delete: false,
  filters: filters({
    shape: { productCategory: z.enum(PRODUCT_CATEGORIES).optional(), effectiveDate: zDate.optional() },
    apply: (qb, q) => {
      const out = categoryFilter(qb, 'ir', q.productCategory);
      return q.effectiveDate ? out.where(validOn('ir', q.effectiveDate, 'closed')) : out;
    },
  }),
  validate: async (b, ctx) => {
    checkClosedPeriod(b as { effectiveFrom: string; effectiveTo?: string | null });
    await checkPlanYearLimit(trxOf(ctx), b);
  },
});
