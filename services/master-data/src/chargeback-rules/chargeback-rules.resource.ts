import { defineResource, invalid, zDate } from '@csp/service-kit';
import { chargebackRuleFields } from '@csp/field-tables';
import { filters, trxOf } from '../common/resource-helpers.js';
import { checkHalfOpenPeriod, requireReference, validOn } from '../common/rules.js';

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
  fields: chargebackRuleFields,
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
