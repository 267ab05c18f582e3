import { f } from '@csp/service-kit';
import { nonNegative } from './refinements.js';
import { revisableRuleTail } from './revisable-rule-tail.js';

/**
 * The field table of master-data's commission-rate resource (POST /api/rules/commission-rates);
 * the joined fields read its baseQuery (cr, p, ic). Field order = export column order.
 */
export const commissionRateFields = {
  rateId: f.id().label('Rate ID'),
  productId: f.ref().required().sort().filter().label('Product ID'),
  productCode: f.joined('p.product_code', 'text').search().label('Product code'),
  productName: f.joined('p.product_name', 'text').search().label('Product').export({ width: 30 }),
  companyCode: f.joined('ic.company_code', 'text').filter().label('Company'),
  commissionYear: f.int({ min: 1, max: 99 }).required().sort().filter().label('Commission year'),
  ratePct: f.rate().required().refine(nonNegative).sort().label('Rate (%)'),
  payMethodCond: f.text({ max: 30 }).save().label('Pay method'),
  minPremium: f.money().save().refine(nonNegative).label('Min premium'),
  ...revisableRuleTail(),
};
