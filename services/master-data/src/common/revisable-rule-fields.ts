import { f, zDate } from '@csp/service-kit';
import { filters } from './resource-helpers.js';
import { validOn } from './rules.js';

/**
 * The fields every revisable rule table ends with (half-open validity, revision version, audit): one
 * definition for the rule resources of issue 16 instead of the same eight lines in each. Fresh builders per
 * call (a resource compiles its own).
 */
export function revisableRuleTail() {
  return {
    effectiveFrom: f.date().required().sort().label('Effective from'),
    effectiveTo: f.date().save().label('Effective to'),
    version: f.version().sort().label('Version'),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  };
}

/** `?effectiveDate=YYYY-MM-DD`: the rows valid on that day (half-open validity of table alias `alias`). */
export function validOnDateFilter(alias: string) {
  return filters({
    shape: { effectiveDate: zDate.optional() },
    apply: (qb, q) => (q.effectiveDate ? qb.where(validOn(alias, q.effectiveDate, 'half-open')) : qb),
  });
}
