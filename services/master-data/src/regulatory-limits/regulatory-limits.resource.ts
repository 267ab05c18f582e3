import { z } from 'zod';
import { defineResource, f, invalid, zDate } from '@csp/service-kit';
import { filters } from '../common/resource-helpers.js';
import { LIMIT_TYPES, LIMIT_UNITS, PRODUCT_CATEGORIES, type LimitType, type LimitUnit } from '@csp/db';
import { categoryFilter, checkClosedPeriod, validOn } from '../common/rules.js';

export const MENU_REGULATORY = 'REGULATORY_LIMIT';
/** The unit each limit type is expressed in. */
const UNIT_OF: Record<LimitType, LimitUnit> = { TOTAL_RATIO: 'PERCENT', FIRST_YEAR_RATIO: 'PERCENT', INSTALLMENT_YEARS: 'YEAR' };

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

/**
 * Regulatory limits (REGULATORY_LIMIT: READ/CREATE/UPDATE), closed validity. No DELETE: POST|PUT
 * /{id}/deactivate. TOTAL_RATIO and FIRST_YEAR_RATIO are in PERCENT, INSTALLMENT_YEARS in YEAR
 * (else E411). Field order = export column order.
 */
export const regulatoryLimitResource = defineResource({
  name: 'RegulatoryLimit',
  path: '/api/regulatory-limits',
  table: 'regulatory_limit',
  alias: 'rl',
  menu: MENU_REGULATORY,
  tags: ['Regulatory limit'],
  fields: {
    limitId: f.id().label('Limit ID'),
    limitType: f.enum(LIMIT_TYPES).required().sort().search().filter().label('Limit type'),
    limitTypeName: f.codeName('LIMIT_TYPE', 'limitType').export(false),
    productCategory: f.enum(PRODUCT_CATEGORIES).save().sort().describe("NULL or 'ALL' = every category").label('Product category'),
    productCategoryName: f.codeName('PRODUCT_CATEGORY', 'productCategory').export(false),
    limitValue: f
      .rate()
      .required()
      .refine(() => zLimitValue)
      .label('Limit value'),
    unit: f.enum(LIMIT_UNITS).required().label('Unit'),
    effectiveFrom: f.date().required().sort().label('Effective from'),
    effectiveTo: f.date().save().label('Effective to'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    description: f.text({ max: 500 }).save().search().label('Description').export({ width: 40 }),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'limitId',
  dateFilter: 'effectiveFrom',
  delete: false,
  filters: filters({
    shape: { productCategory: z.enum(PRODUCT_CATEGORIES).optional(), effectiveDate: zDate.optional() },
    apply: (qb, q) => {
      const out = categoryFilter(qb, 'rl', q.productCategory);
      return q.effectiveDate ? out.where(validOn('rl', q.effectiveDate, 'closed')) : out;
    },
  }),
  validate: (b) => {
    checkClosedPeriod(b as { effectiveFrom: string; effectiveTo?: string | null });
    const limitType = b.limitType as LimitType;
    if (UNIT_OF[limitType] !== b.unit) throw invalid('unit', `${limitType} is expressed in ${UNIT_OF[limitType]}`);
  },
});
