import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, invalid, isoTimestamp, rate, rateColumn, zDate } from '@csp/service-kit';
import {
  categoryFilter,
  checkClosedPeriod,
  codeName,
  effectiveFields,
  insertAudit,
  PRODUCT_CATEGORIES,
  updateAudit,
  validOnClosed,
  zBoolFilter,
} from '../rule-support.js';

export const MENU_REGULATORY = 'REGULATORY_LIMIT';
export const LIMIT_TYPES = ['TOTAL_RATIO', 'FIRST_YEAR_RATIO', 'INSTALLMENT_YEARS'] as const;
export const LIMIT_UNITS = ['PERCENT', 'YEAR'] as const;
/** The unit each limit type is expressed in. */
const UNIT_OF: Record<(typeof LIMIT_TYPES)[number], (typeof LIMIT_UNITS)[number]> = {
  TOTAL_RATIO: 'PERCENT',
  FIRST_YEAR_RATIO: 'PERCENT',
  INSTALLMENT_YEARS: 'YEAR',
};

/** numeric(11,4), > 0: 1200 (percent) does not fit a rate's three integer digits. */
const zLimitValue = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .pipe(
    z
      .string()
      .regex(/^\d{1,7}(\.\d{1,4})?$/, 'must be a number with at most 7 integer digits and 4 decimals')
      .refine((v) => /[1-9]/.test(v), 'must be positive'),
  );

export const regulatoryLimitSaveReq = z.object({
  limitType: z.enum(LIMIT_TYPES),
  unit: z.enum(LIMIT_UNITS),
  limitValue: zLimitValue,
  /** NULL or 'ALL' = every category. */
  productCategory: z.enum(PRODUCT_CATEGORIES).nullable().optional(),
  ...effectiveFields,
  isActive: z.boolean().default(true),
  description: z.string().trim().max(500).nullable().optional(),
});
type RegulatoryLimitSaveReq = z.output<typeof regulatoryLimitSaveReq>;

export const regulatoryLimitResp = z.object({
  limitId: z.number().int(),
  limitType: z.string(),
  limitTypeName: z.string().nullable(),
  productCategory: z.string().nullable(),
  productCategoryName: z.string().nullable(),
  limitValue: z.string(),
  unit: z.string(),
  effectiveFrom: z.string(),
  effectiveTo: z.string().nullable(),
  isActive: z.boolean(),
  description: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface RegulatoryLimitRow {
  limit_id: number;
  limit_type: string;
  limit_type_name: string | null;
  product_category: string | null;
  product_category_name: string | null;
  limit_value: string;
  unit: string;
  effective_from: string;
  effective_to: string | null;
  is_active: boolean;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: RegulatoryLimitSaveReq) => ({
  limit_type: b.limitType,
  unit: b.unit,
  limit_value: b.limitValue,
  product_category: b.productCategory ?? null,
  effective_from: b.effectiveFrom,
  effective_to: b.effectiveTo ?? null,
  is_active: b.isActive,
  description: b.description ?? null,
});

/**
 * Regulatory limits (REGULATORY_LIMIT: READ/CREATE/UPDATE). No DELETE: PUT /{id}/deactivate.
 * TOTAL_RATIO and FIRST_YEAR_RATIO are in PERCENT, INSTALLMENT_YEARS in YEAR (else E411).
 */
export const regulatoryLimitResource = defineResource({
  name: 'RegulatoryLimit',
  basePath: '/api/regulatory-limits',
  table: 'regulatory_limit',
  idColumn: 'rl.limit_id',
  menu: MENU_REGULATORY,
  tags: ['Regulatory limit'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('regulatory_limit as rl')
      .select((eb) => [
        codeName('LIMIT_TYPE', eb.ref('rl.limit_type')).as('limit_type_name'),
        codeName('PRODUCT_CATEGORY', eb.ref('rl.product_category')).as('product_category_name'),
      ]),
  columns: [
    'rl.limit_id',
    'rl.limit_type',
    'rl.product_category',
    'rl.limit_value',
    'rl.unit',
    'rl.effective_from',
    'rl.effective_to',
    'rl.is_active',
    'rl.description',
    'rl.created_at',
    'rl.updated_at',
  ],
  respSchema: regulatoryLimitResp,
  toResp: (r: RegulatoryLimitRow) => ({
    limitId: r.limit_id,
    limitType: r.limit_type,
    limitTypeName: r.limit_type_name,
    productCategory: r.product_category,
    productCategoryName: r.product_category_name,
    limitValue: rate(r.limit_value),
    unit: r.unit,
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    isActive: r.is_active,
    description: r.description,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: regulatoryLimitSaveReq,
  validate: (b) => {
    checkClosedPeriod(b);
    if (UNIT_OF[b.limitType] !== b.unit) throw invalid('unit', `${b.limitType} is expressed in ${UNIT_OF[b.limitType]}`);
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      limitType: z.enum(LIMIT_TYPES).optional(),
      productCategory: z.enum(PRODUCT_CATEGORIES).optional(),
      effectiveDate: zDate.optional(),
      isActive: zBoolFilter.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.limitType) q = q.where('rl.limit_type', '=', f.limitType);
      if (f.productCategory) q = q.where(categoryFilter('rl', f.productCategory));
      if (f.effectiveDate) q = q.where(validOnClosed('rl', f.effectiveDate));
      if (f.isActive !== undefined) q = q.where('rl.is_active', '=', f.isActive);
      return q;
    },
  },
  sortable: {
    limitId: 'rl.limit_id',
    limitType: 'rl.limit_type',
    productCategory: 'rl.product_category',
    effectiveFrom: 'rl.effective_from',
  },
  defaultSort: 'rl.limit_id',
  searchable: { limitType: 'rl.limit_type', description: 'rl.description' },
  dateColumn: 'rl.effective_from',
  delete: false,
  exportPerm: 'READ',
  exportColumns: [
    { header: 'Limit ID', key: 'limit_id' },
    { header: 'Limit type', key: 'limit_type' },
    { header: 'Product category', key: 'product_category' },
    rateColumn<RegulatoryLimitRow>('Limit value', 'limit_value'),
    { header: 'Unit', key: 'unit' },
    { header: 'Effective from', key: 'effective_from' },
    { header: 'Effective to', key: 'effective_to' },
    { header: 'Active', key: 'is_active', value: (r: RegulatoryLimitRow) => (r.is_active ? 'Y' : 'N') },
    { header: 'Description', key: 'description', width: 40 },
  ],
});
