import { z } from 'zod';
import type { Kysely } from 'kysely';
import { defineResource, isoTimestamp, money, moneyColumn, rate, rateColumn, zDate, zId } from '@csp/service-kit';
import {
  checkHalfOpenPeriod,
  effectiveFields,
  insertAudit,
  requireReference,
  updateAudit,
  validOnHalfOpen,
  zNonNegativeMoney,
  zNonNegativeRate,
} from '../rule-support.js';

export const MENU_COMMISSION = 'RULE_COMMISSION';

export const commissionRateSaveReq = z.object({
  productId: zId,
  commissionYear: z.number().int().min(1).max(99),
  ratePct: zNonNegativeRate,
  payMethodCond: z.string().trim().max(30).nullable().optional(),
  minPremium: zNonNegativeMoney.nullable().optional(),
  ...effectiveFields,
});
export type CommissionRateSaveReq = z.output<typeof commissionRateSaveReq>;

export const commissionRateResp = z.object({
  rateId: z.number().int(),
  productId: z.number().int(),
  productCode: z.string().nullable(),
  productName: z.string().nullable(),
  companyCode: z.string().nullable(),
  commissionYear: z.number().int(),
  ratePct: z.string(),
  payMethodCond: z.string().nullable(),
  minPremium: z.string().nullable(),
  effectiveFrom: z.string(),
  effectiveTo: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export interface CommissionRateRow {
  rate_id: number;
  product_id: number;
  product_code: string | null;
  product_name: string | null;
  company_code: string | null;
  commission_year: number;
  rate_pct: string;
  pay_method_cond: string | null;
  min_premium: string | null;
  effective_from: string;
  effective_to: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export function toCommissionRateResp(r: CommissionRateRow): z.input<typeof commissionRateResp> {
  return {
    rateId: r.rate_id,
    productId: r.product_id,
    productCode: r.product_code,
    productName: r.product_name,
    companyCode: r.company_code,
    commissionYear: r.commission_year,
    ratePct: rate(r.rate_pct),
    payMethodCond: r.pay_method_cond,
    minPremium: money(r.min_premium),
    effectiveFrom: r.effective_from,
    effectiveTo: r.effective_to,
    version: r.version,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  };
}

const columnsOf = (b: CommissionRateSaveReq) => ({
  product_id: b.productId,
  commission_year: b.commissionYear,
  rate_pct: b.ratePct,
  pay_method_cond: b.payMethodCond ?? null,
  min_premium: b.minPremium ?? null,
  effective_from: b.effectiveFrom,
  effective_to: b.effectiveTo ?? null,
});

/** Company commission rates (RULE_COMMISSION: READ/CREATE/UPDATE/DELETE); update needs `version` (B002). */
export const commissionRateResource = defineResource({
  name: 'CommissionRate',
  basePath: '/api/rules/commission-rates',
  table: 'commission_rate',
  idColumn: 'cr.rate_id',
  menu: MENU_COMMISSION,
  tags: ['Commission rate'],
  baseQuery: (db) =>
    (db as unknown as Kysely<any>)
      .selectFrom('commission_rate as cr')
      .leftJoin('product as p', 'p.product_id', 'cr.product_id')
      .leftJoin('insurance_company as ic', 'ic.company_id', 'p.company_id'),
  columns: [
    'cr.rate_id',
    'cr.product_id',
    'p.product_code',
    'p.product_name',
    'ic.company_code',
    'cr.commission_year',
    'cr.rate_pct',
    'cr.pay_method_cond',
    'cr.min_premium',
    'cr.effective_from',
    'cr.effective_to',
    'cr.version',
    'cr.created_at',
    'cr.updated_at',
  ],
  respSchema: commissionRateResp,
  toResp: toCommissionRateResp,
  saveSchema: commissionRateSaveReq,
  validate: async (b, ctx) => {
    checkHalfOpenPeriod(b);
    await requireReference(ctx.trx, 'product', 'product_id', b.productId, 'productId', 'product');
  },
  toInsert: (b, ctx) => ({ ...columnsOf(b), ...insertAudit(ctx) }),
  toUpdate: (b, ctx) => ({ ...columnsOf(b), ...updateAudit(ctx) }),
  filters: {
    shape: {
      productId: zId.optional(),
      commissionYear: z.coerce.number().int().min(1).optional(),
      companyCode: z.string().trim().max(20).optional(),
      effectiveDate: zDate.optional(),
    },
    apply: (qb, f) => {
      let q = qb;
      if (f.productId !== undefined) q = q.where('cr.product_id', '=', f.productId);
      if (f.commissionYear !== undefined) q = q.where('cr.commission_year', '=', f.commissionYear);
      if (f.companyCode) q = q.where('ic.company_code', '=', f.companyCode);
      if (f.effectiveDate) q = q.where(validOnHalfOpen('cr', f.effectiveDate));
      return q;
    },
  },
  sortable: {
    rateId: 'cr.rate_id',
    productId: 'cr.product_id',
    commissionYear: 'cr.commission_year',
    ratePct: 'cr.rate_pct',
    effectiveFrom: 'cr.effective_from',
    version: 'cr.version',
  },
  defaultSort: 'cr.rate_id',
  searchable: { productCode: 'p.product_code', productName: 'p.product_name' },
  dateColumn: 'cr.effective_from',
  versionColumn: 'cr.version',
  delete: { mode: 'hard' },
  exportPerm: 'READ',
  exportColumns: [
    { header: 'Rate ID', key: 'rate_id' },
    { header: 'Product ID', key: 'product_id' },
    { header: 'Product code', key: 'product_code' },
    { header: 'Product', key: 'product_name', width: 30 },
    { header: 'Company', key: 'company_code' },
    { header: 'Commission year', key: 'commission_year' },
    rateColumn<CommissionRateRow>('Rate (%)', 'rate_pct'),
    { header: 'Pay method', key: 'pay_method_cond' },
    moneyColumn<CommissionRateRow>('Min premium', 'min_premium'),
    { header: 'Effective from', key: 'effective_from' },
    { header: 'Effective to', key: 'effective_to' },
    { header: 'Version', key: 'version' },
  ],
});
