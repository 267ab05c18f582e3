import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, invalid, isoTimestamp, zDate, zId } from '@csp/service-kit';
import { insertAudit, requireRow, updateAudit } from '../people-db.js';
import { zBoolQuery } from '../orgs/org-schemas.js';

export const INSURANCE_TYPES = ['LIFE', 'NON_LIFE', 'ANNUITY', 'SAVINGS', 'HEALTH', 'AUTO'] as const;
/** Product category (common code PRODUCT_CATEGORY without ALL): key of limits, ratios and chargeback grades. */
export const PRODUCT_GROUPS = ['LIFE', 'ANNUITY', 'SAVINGS', 'EXCLUDED_AUTO', 'EXCLUDED_HEALTH'] as const;

export const productSaveReq = z.object({
  companyId: zId,
  productCode: z.string().trim().min(1).max(30),
  productName: z.string().trim().min(1).max(200),
  insuranceType: z.enum(INSURANCE_TYPES),
  productGroup: z.enum(PRODUCT_GROUPS).nullable().optional(),
  payPeriodType: z.enum(['YEAR', 'AGE', 'LIFETIME', 'SINGLE']).nullable().optional(),
  isActive: z.boolean().default(true),
  launchDate: zDate.nullable().optional(),
  endDate: zDate.nullable().optional(),
});
type ProductSave = z.output<typeof productSaveReq>;

export const productResp = z.object({
  productId: z.number().int(),
  companyId: z.number().int(),
  companyCode: z.string(),
  companyName: z.string(),
  productCode: z.string(),
  productName: z.string(),
  insuranceType: z.string(),
  insuranceTypeName: z.string().nullable(),
  productGroup: z.string().nullable(),
  productGroupName: z.string().nullable(),
  payPeriodType: z.string().nullable(),
  isActive: z.boolean(),
  launchDate: z.string().nullable(),
  endDate: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

interface ProductRow {
  product_id: number;
  company_id: number;
  company_code: string;
  company_name: string;
  product_code: string;
  product_name: string;
  insurance_type: string;
  insurance_type_name: string | null;
  product_group: string | null;
  product_group_name: string | null;
  pay_period_type: string | null;
  is_active: boolean;
  launch_date: string | null;
  end_date: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const columnsOf = (b: ProductSave) => ({
  company_id: b.companyId,
  product_code: b.productCode,
  product_name: b.productName,
  insurance_type: b.insuranceType,
  product_group: b.productGroup ?? null,
  pay_period_type: b.payPeriodType ?? null,
  is_active: b.isActive,
  launch_date: b.launchDate ?? null,
  end_date: b.endDate ?? null,
});

/**
 * Products (menu PRODUCT: READ/CREATE/UPDATE/DELETE). (company_id, product_code) is unique (B009).
 * DELETE is a hard delete of an unreferenced product; a product that contracts or commission
 * rates refer to is refused by its foreign keys (E400) and is retired with isActive=false instead.
 */
export const productResource = defineResource({
  name: 'Product',
  basePath: '/api/products',
  table: 'product',
  idColumn: 'p.product_id',
  menu: 'PRODUCT',
  tags: ['Product'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('product as p')
      .innerJoin('insurance_company as ic', 'ic.company_id', 'p.company_id')
      .leftJoin('common_code as it', (j) => j.onRef('it.code', '=', 'p.insurance_type').on('it.group_code', '=', 'INSURANCE_TYPE'))
      .leftJoin('common_code as pg', (j) => j.onRef('pg.code', '=', 'p.product_group').on('pg.group_code', '=', 'PRODUCT_CATEGORY')),
  columns: [
    'p.product_id',
    'p.company_id',
    'ic.company_code',
    'ic.company_name',
    'p.product_code',
    'p.product_name',
    'p.insurance_type',
    'it.code_name as insurance_type_name',
    'p.product_group',
    'pg.code_name as product_group_name',
    'p.pay_period_type',
    'p.is_active',
    'p.launch_date',
    'p.end_date',
    'p.version',
    'p.created_at',
    'p.updated_at',
  ],
  respSchema: productResp,
  toResp: (r: ProductRow) => ({
    productId: r.product_id,
    companyId: r.company_id,
    companyCode: r.company_code,
    companyName: r.company_name,
    productCode: r.product_code,
    productName: r.product_name,
    insuranceType: r.insurance_type,
    insuranceTypeName: r.insurance_type_name,
    productGroup: r.product_group,
    productGroupName: r.product_group_name,
    payPeriodType: r.pay_period_type,
    isActive: r.is_active,
    launchDate: r.launch_date,
    endDate: r.end_date,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  }),
  saveSchema: productSaveReq,
  validate: async (b, ctx) => {
    if (b.launchDate && b.endDate && b.endDate < b.launchDate) throw invalid('endDate', 'must not be before launchDate');
    await requireRow(ctx.trx, 'insurance_company', 'company_id', b.companyId, 'companyId', 'company');
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      companyId: zId.optional(),
      insuranceType: z.enum(INSURANCE_TYPES).optional(),
      productGroup: z.enum(PRODUCT_GROUPS).optional(),
      isActive: zBoolQuery.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.companyId !== undefined) q = q.where('p.company_id', '=', f.companyId);
      if (f.insuranceType) q = q.where('p.insurance_type', '=', f.insuranceType);
      if (f.productGroup) q = q.where('p.product_group', '=', f.productGroup);
      if (f.isActive !== undefined) q = q.where('p.is_active', '=', f.isActive);
      return q;
    },
  },
  sortable: {
    productId: 'p.product_id',
    productCode: 'p.product_code',
    productName: 'p.product_name',
    companyName: 'ic.company_name',
    launchDate: 'p.launch_date',
  },
  defaultSort: 'p.product_id',
  searchable: { productCode: 'p.product_code', productName: 'p.product_name', companyName: 'ic.company_name' },
  dateColumn: 'p.launch_date',
  versionColumn: 'p.version',
  delete: { mode: 'hard' },
  exportPerm: 'READ',
  exportColumns: [
    { header: 'Product ID', key: 'product_id' },
    { header: 'Company', key: 'company_name', width: 20 },
    { header: 'Product code', key: 'product_code' },
    { header: 'Product name', key: 'product_name', width: 30 },
    { header: 'Insurance type', key: 'insurance_type_name' },
    { header: 'Category', key: 'product_group_name' },
    { header: 'Pay period type', key: 'pay_period_type' },
    { header: 'Active', key: 'is_active', value: (r: ProductRow) => (r.is_active ? 'Y' : 'N') },
    { header: 'Launch date', key: 'launch_date' },
    { header: 'End date', key: 'end_date' },
  ],
});
