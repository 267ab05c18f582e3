import { z } from 'zod';
import { sql, type Kysely, type SqlBool } from 'kysely';
import { defineResource, duplicate, invalid, isoTimestamp, rate, rateColumn, zDate, type ResourceContext } from '@csp/service-kit';
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
  zNonNegativeRate,
} from '../rule-support.js';

export const MENU_CHARGEBACK_GRADE = 'CHARGEBACK_GRADE';

export const chargebackGradeSaveReq = z.object({
  /** NULL (or 'ALL') = every category. */
  productCategory: z.enum(PRODUCT_CATEGORIES).nullable().optional(),
  monthsFrom: z.number().int().min(0).max(1200),
  /** NULL = unbounded; must not be below monthsFrom (E411). */
  monthsTo: z.number().int().min(0).max(1200).nullable().optional(),
  percent: zNonNegativeRate,
  ...effectiveFields,
  isActive: z.boolean().default(true),
  description: z.string().trim().max(500).nullable().optional(),
});
type ChargebackGradeSaveReq = z.output<typeof chargebackGradeSaveReq>;

export const chargebackGradeResp = z.object({
  cbGradeId: z.number().int(),
  productCategory: z.string().nullable(),
  productCategoryName: z.string().nullable(),
  monthsFrom: z.number().int(),
  monthsTo: z.number().int().nullable(),
  /** '13-24', or '85+' for an unbounded band. */
  monthsRange: z.string(),
  percent: z.string(),
  effectiveFrom: z.string(),
  effectiveTo: z.string().nullable(),
  isActive: z.boolean(),
  description: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface ChargebackGradeRow {
  cb_grade_id: number;
  product_category: string | null;
  product_category_name: string | null;
  months_from: number;
  months_to: number | null;
  percent: string;
  effective_from: string;
  effective_to: string | null;
  is_active: boolean;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

export function monthsRange(monthsFrom: number, monthsTo: number | null): string {
  return monthsTo === null ? `${monthsFrom}+` : `${monthsFrom}-${monthsTo}`;
}

const columnsOf = (b: ChargebackGradeSaveReq) => ({
  product_category: b.productCategory ?? null,
  months_from: b.monthsFrom,
  months_to: b.monthsTo ?? null,
  percent: b.percent,
  effective_from: b.effectiveFrom,
  effective_to: b.effectiveTo ?? null,
  is_active: b.isActive,
  description: b.description ?? null,
});

/**
 * B009 when an active band of the same category (NULL and 'ALL' both mean every category) overlaps
 * both the months range and the validity period of the saved band. The transaction-scoped advisory
 * lock serialises band writes, so two concurrent saves cannot both pass the check.
 */
async function rejectOverlappingBand(b: ChargebackGradeSaveReq, ctx: ResourceContext, existingId?: number): Promise<void> {
  if (!b.isActive) return;
  const trx = asRulesExecutor(ctx.trx);
  await sql`SELECT pg_advisory_xact_lock(hashtext('chargeback_grade'))`.execute(trx);
  const category = b.productCategory ?? 'ALL';
  const monthsTo = b.monthsTo ?? null;
  const effectiveTo = b.effectiveTo ?? null;
  let q = trx
    .selectFrom('chargeback_grade as g')
    .select(['g.cb_grade_id', 'g.months_from', 'g.months_to', 'g.effective_from'])
    .where('g.is_active', '=', true)
    .where(sql<SqlBool>`coalesce(g.product_category, 'ALL') = ${category}`)
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

/**
 * Chargeback grades (CHARGEBACK_GRADE: READ/CREATE/UPDATE). No DELETE: an update with isActive
 * false retires a band.
 */
export const chargebackGradeResource = defineResource({
  name: 'ChargebackGrade',
  basePath: '/api/chargeback-grades',
  table: 'chargeback_grade',
  idColumn: 'g.cb_grade_id',
  menu: MENU_CHARGEBACK_GRADE,
  tags: ['Chargeback grade'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('chargeback_grade as g')
      .select((eb) => codeName('PRODUCT_CATEGORY', eb.ref('g.product_category')).as('product_category_name')),
  columns: [
    'g.cb_grade_id',
    'g.product_category',
    'g.months_from',
    'g.months_to',
    'g.percent',
    'g.effective_from',
    'g.effective_to',
    'g.is_active',
    'g.description',
    'g.created_at',
    'g.updated_at',
  ],
  respSchema: chargebackGradeResp,
  toResp: (r: ChargebackGradeRow) => ({
    cbGradeId: r.cb_grade_id,
    productCategory: r.product_category,
    productCategoryName: r.product_category_name,
    monthsFrom: r.months_from,
    monthsTo: r.months_to,
    monthsRange: monthsRange(r.months_from, r.months_to),
    percent: rate(r.percent),
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    isActive: r.is_active,
    description: r.description,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: chargebackGradeSaveReq,
  validate: async (b, ctx, existing) => {
    if (b.monthsTo != null && b.monthsTo < b.monthsFrom) throw invalid('monthsTo', 'must not be less than monthsFrom');
    checkClosedPeriod(b);
    await rejectOverlappingBand(b, ctx, existing ? Number(existing.cb_grade_id) : undefined);
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      productCategory: z.enum(PRODUCT_CATEGORIES).optional(),
      /** Bands containing this number of months. */
      monthsElapsed: z.coerce.number().int().min(0).optional(),
      effectiveDate: zDate.optional(),
      isActive: zBoolFilter.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.productCategory) q = q.where(categoryFilter('g', f.productCategory));
      if (f.monthsElapsed !== undefined) {
        q = q.where('g.months_from', '<=', f.monthsElapsed).where((eb: any) => eb.or([eb('g.months_to', 'is', null), eb('g.months_to', '>=', f.monthsElapsed)]));
      }
      if (f.effectiveDate) q = q.where(validOnClosed('g', f.effectiveDate));
      if (f.isActive !== undefined) q = q.where('g.is_active', '=', f.isActive);
      return q;
    },
  },
  sortable: {
    cbGradeId: 'g.cb_grade_id',
    productCategory: 'g.product_category',
    monthsFrom: 'g.months_from',
    percent: 'g.percent',
    effectiveFrom: 'g.effective_from',
  },
  defaultSort: 'g.months_from',
  searchable: { description: 'g.description' },
  dateColumn: 'g.effective_from',
  delete: false,
  exportPerm: 'READ',
  exportColumns: [
    { header: 'Grade ID', key: 'cb_grade_id' },
    { header: 'Product category', key: 'product_category' },
    { header: 'Months', key: 'months_from', value: (r: ChargebackGradeRow) => monthsRange(r.months_from, r.months_to) },
    rateColumn<ChargebackGradeRow>('Chargeback (%)', 'percent'),
    { header: 'Effective from', key: 'effective_from' },
    { header: 'Effective to', key: 'effective_to' },
    { header: 'Active', key: 'is_active', value: (r: ChargebackGradeRow) => (r.is_active ? 'Y' : 'N') },
    { header: 'Description', key: 'description', width: 30 },
  ],
});
