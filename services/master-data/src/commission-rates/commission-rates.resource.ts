import { defineResource, zDate } from '@csp/service-kit';
import { commissionRateFields } from '@csp/field-tables';
import { filters, trxOf } from '../common/resource-helpers.js';
import { checkHalfOpenPeriod, requireReference, validOn } from '../common/rules.js';

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
  fields: commissionRateFields,
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
