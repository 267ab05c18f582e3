import { defineResource, f, invalid, zDate } from '@csp/service-kit';
import { filters, trxOf } from '../common/resource-helpers.js';
import { checkHalfOpenPeriod, nonNegative, requireReference, validOn } from '../common/rules.js';
import { INSURANCE_TYPE_CODE } from '../payout-rules/payout-rules.resource.js';

/**
 * Chargeback rules (RULE_CHARGEBACK: READ/CREATE/UPDATE/DELETE), half-open validity; an update may
 * carry `version` (stale -> B002). Field order = export column order.
 */
export const chargebackRuleResource = defineResource({
  name: 'ChargebackRule',
  path: '/api/rules/chargeback',
  table: 'chargeback_rule',
  alias: 'cbr',
  menu: 'RULE_CHARGEBACK',
  tags: ['Chargeback rule'],
  baseQuery: (db) => db.selectFrom('chargeback_rule as cbr').leftJoin('insurance_company as ic', 'ic.company_code', 'cbr.company_code'),
  fields: {
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
    effectiveFrom: f.date().required().sort().label('Effective from'),
    effectiveTo: f.date().save().label('Effective to'),
    version: f.version().label('Version'),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'cbRuleId',
  dateFilter: 'effectiveFrom',
  filters: filters({
    shape: { effectiveDate: zDate.optional() },
    apply: (qb, q) => (q.effectiveDate ? qb.where(validOn('cbr', q.effectiveDate, 'half-open')) : qb),
  }),
  validate: async (b, ctx) => {
    checkHalfOpenPeriod(b as { effectiveFrom: string; effectiveTo?: string | null });
    if (b.lapseMonthTo != null && b.lapseMonthTo < b.lapseMonthFrom) throw invalid('lapseMonthTo', 'must not be less than lapseMonthFrom');
    if (!b.installmentAllowed && b.maxInstallments > 1) throw invalid('maxInstallments', 'must be 1 unless installmentAllowed');
    await requireReference(trxOf(ctx), 'insurance_company', 'company_code', b.companyCode, 'companyCode', 'insurance company');
  },
});
