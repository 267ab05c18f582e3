import { f } from '@csp/service-kit';
import { INSURANCE_TYPE_CODE } from './payout-rule.fields.js';
import { nonNegative } from './refinements.js';
import { revisableRuleTail } from './revisable-rule-tail.js';

/**
 * The field table of master-data's chargeback-rule resource (POST /api/rules/chargeback); the
 * joined field reads its baseQuery (cbr, ic). Field order = export column order.
 */
export const chargebackRuleFields = {
  cbRuleId: f.id().label('Rule ID'),
  companyCode: f.text({ max: 20 }).required().sort().search().filter().label('Company'),
  companyName: f.joined('ic.company_name', 'text').search().label('Company name').export({ width: 25 }),
  insuranceType: f.text(INSURANCE_TYPE_CODE).required().sort().search().filter().label('Insurance type'),
  insuranceTypeName: f.codeName('INSURANCE_TYPE', 'insuranceType').export(false),
  lapseMonthFrom: f.int({ min: 0, max: 1200 }).required().sort().label('Lapse month from'),
  lapseMonthTo: f.int({ min: 0, max: 1200 }).save().label('Lapse month to'),
  cbRate: f.rate().required().refine(nonNegative).sort().label('Chargeback (%)'),
  includeOverride: f.bool().save({ default: false }).label('Include override'),
  installmentAllowed: f.bool().save({ default: false }).label('Installments'),
  maxInstallments: f.int({ min: 1, max: 120 }).save({ default: 1 }).label('Max installments'),
  ...revisableRuleTail(),
  version: f.version().label('Version'), // not sortable here
};
