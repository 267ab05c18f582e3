import { defineResource, f, zDate } from '@csp/service-kit';
import { filters, trxOf } from '../common/resource-helpers.js';
import { checkHalfOpenPeriod, nonNegative, requireReference, validOn } from '../common/rules.js';

export const MENU_COMMISSION = 'RULE_COMMISSION';

/**
 * Company commission rates (RULE_COMMISSION: READ/CREATE/UPDATE/DELETE), half-open validity; an
 * update may carry `version` (stale -> B002), a revision is POST|PUT /{id}/revise. Field order =
 * export column order.
 */
export const commissionRateResource = defineResource({
  name: 'CommissionRate',
  path: '/api/rules/commission-rates',
  table: 'commission_rate',
  alias: 'cr',
  menu: MENU_COMMISSION,
  tags: ['Commission rate'],
  baseQuery: (db) =>
    db
      .selectFrom('commission_rate as cr')
      .leftJoin('product as p', 'p.product_id', 'cr.product_id')
      .leftJoin('insurance_company as ic', 'ic.company_id', 'p.company_id'),
  fields: {
    rateId: f.id().label('Rate ID'),
    productId: f.ref().required().sort().filter().label('Product ID'),
    productCode: f.joined('p.product_code', 'text').search().label('Product code'),
    productName: f.joined('p.product_name', 'text').search().label('Product').export({ width: 30 }),
    companyCode: f.joined('ic.company_code', 'text').filter().label('Company'),
    commissionYear: f.int({ min: 1, max: 99 }).required().sort().filter().label('Commission year'),
    ratePct: f.rate().required().refine(nonNegative).sort().label('Rate (%)'),
    payMethodCond: f.text({ max: 30 }).save().label('Pay method'),
    minPremium: f.money().save().refine(nonNegative).label('Min premium'),
    effectiveFrom: f.date().required().sort().label('Effective from'),
    effectiveTo: f.date().save().label('Effective to'),
    version: f.version().sort().label('Version'),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'rateId',
  dateFilter: 'effectiveFrom',
  filters: filters({
    shape: { effectiveDate: zDate.optional() },
    apply: (qb, q) => (q.effectiveDate ? qb.where(validOn('cr', q.effectiveDate, 'half-open')) : qb),
  }),
  validate: async (b, ctx) => {
    checkHalfOpenPeriod(b as { effectiveFrom: string; effectiveTo?: string | null });
    await requireReference(trxOf(ctx), 'product', 'product_id', b.productId, 'productId', 'product');
  },
});
