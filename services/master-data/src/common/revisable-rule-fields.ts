import { zDate } from '@csp/service-kit';
export { revisableRuleTail } from '@csp/field-tables';
import { filters } from './resource-helpers.js';
import { validOn } from './rules.js';

/** `?effectiveDate=YYYY-MM-DD`: the rows valid on that day (half-open validity of table alias `alias`). */
export function validOnDateFilter(alias: string) {
  return filters({
    shape: { effectiveDate: zDate.optional() },
    apply: (qb, q) => (q.effectiveDate ? qb.where(validOn(alias, q.effectiveDate, 'half-open')) : qb),
  });
}
