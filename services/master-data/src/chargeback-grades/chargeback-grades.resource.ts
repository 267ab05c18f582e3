import { sql, type SqlBool } from 'kysely';
import { z } from 'zod';
import { defineResource, duplicate, f, invalid, zDate, type AnyRow, type ResourceContext } from '@csp/service-kit';
import { filters, trxOf } from '../common/resource-helpers.js';
import { PRODUCT_CATEGORIES } from '@csp/db';
import { categoryFilter, checkClosedPeriod, nonNegative, validOn } from '../common/rules.js';

export const MENU_CHARGEBACK_GRADE = 'CHARGEBACK_GRADE';

/** '13-24', or '85+' for an unbounded band. */
export function monthsRange(monthsFrom: number, monthsTo: number | null): string {
  return monthsTo === null ? `${monthsFrom}+` : `${monthsFrom}-${monthsTo}`;
}

/**
 * Chargeback grades (CHARGEBACK_GRADE: READ/CREATE/UPDATE), closed validity. No DELETE: an update
 * with isActive false retires a band. Field order = export column order.
 */
export const chargebackGradeResource = defineResource({
  name: 'ChargebackGrade',
  path: '/api/chargeback-grades',
  table: 'chargeback_grade',
  alias: 'g',
  menu: MENU_CHARGEBACK_GRADE,
  tags: ['Chargeback grade'],
  fields: {
    cbGradeId: f.id().label('Grade ID'),
    productCategory: f.enum(PRODUCT_CATEGORIES).save().sort().describe("NULL (or 'ALL') = every category").label('Product category'),
    productCategoryName: f.codeName('PRODUCT_CATEGORY', 'productCategory').export(false),
    monthsRange: f
      .computed(sql`(CASE WHEN g.months_to IS NULL THEN g.months_from || '+' ELSE g.months_from || '-' || g.months_to END)`, 'text')
      .nullable(false)
      .describe("'13-24', or '85+' for an unbounded band.")
      .label('Months'),
    monthsFrom: f.int({ min: 0, max: 1200 }).required().sort().export(false),
    monthsTo: f.int({ min: 0, max: 1200 }).save().describe('NULL = unbounded; must not be below monthsFrom (E411).').export(false),
    percent: f.rate().required().refine(nonNegative).sort().label('Chargeback (%)'),
    effectiveFrom: f.date().required().sort().label('Effective from'),
    effectiveTo: f.date().save().label('Effective to'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    description: f.text({ max: 500 }).save().search().label('Description').export({ width: 30 }),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'monthsFrom',
  dateFilter: 'effectiveFrom',
  delete: false,
  filters: filters({
    shape: {
      productCategory: z.enum(PRODUCT_CATEGORIES).optional(),
      /** Bands containing this number of months. */
      monthsElapsed: z.coerce.number().int().min(0).optional(),
      effectiveDate: zDate.optional(),
    },
    apply: (qb, q) => {
      let out = categoryFilter(qb, 'g', q.productCategory);
      if (q.monthsElapsed !== undefined) {
        out = out.where(sql<SqlBool>`(g.months_from <= ${q.monthsElapsed} AND (g.months_to IS NULL OR g.months_to >= ${q.monthsElapsed}))`);
      }
      return q.effectiveDate ? out.where(validOn('g', q.effectiveDate, 'closed')) : out;
    },
  }),
  validate: async (b, ctx, existing) => {
    if (b.monthsTo != null && b.monthsTo < b.monthsFrom) throw invalid('monthsTo', 'must not be less than monthsFrom');
    checkClosedPeriod(b as { effectiveFrom: string; effectiveTo?: string | null });
    await rejectOverlappingBand(b, ctx, existing ? Number(existing.cb_grade_id) : undefined);
  },
});

/**
 * B009 when an active band of the same category (NULL and 'ALL' both mean every category) overlaps
 * both the months range and the validity period of the saved band. The transaction-scoped advisory
 * lock serialises band writes, so two concurrent saves cannot both pass the check.
 */
async function rejectOverlappingBand(b: AnyRow, ctx: ResourceContext, existingId?: number): Promise<void> {
  if (!b.isActive) return;
  const trx = trxOf(ctx);
  await sql`SELECT pg_advisory_xact_lock(hashtext('chargeback_grade'))`.execute(trx);
  const monthsTo: number | null = b.monthsTo ?? null;
  const effectiveTo: string | null = b.effectiveTo ?? null;
  let q = trx
    .selectFrom('chargeback_grade as g')
    .select(['g.cb_grade_id', 'g.months_from', 'g.months_to', 'g.effective_from'])
    .where('g.is_active', '=', true)
    .where(sql<SqlBool>`coalesce(g.product_category, 'ALL') = ${b.productCategory ?? 'ALL'}`)
    .where(sql<SqlBool>`(g.months_to IS NULL OR g.months_to >= ${b.monthsFrom}::int)`)
    .where(sql<SqlBool>`(${monthsTo}::int IS NULL OR g.months_from <= ${monthsTo}::int)`)
    .where(sql<SqlBool>`(g.effective_to IS NULL OR g.effective_to >= ${b.effectiveFrom}::date)`)
    .where(sql<SqlBool>`(${effectiveTo}::date IS NULL OR g.effective_from <= ${effectiveTo}::date)`);
  if (existingId !== undefined) q = q.where('g.cb_grade_id', '<>', existingId);
  const clash = await q.limit(1).executeTakeFirst();
  if (clash) {
    throw duplicate(
      `band ${monthsRange(clash.months_from, clash.months_to)} (id ${clash.cb_grade_id}, from ${clash.effective_from}) ` +
        'already covers these months in this period',
    );
  }
}
