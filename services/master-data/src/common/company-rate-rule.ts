import { defineResource, f, type FieldTable } from '@csp/service-kit';
import { INSURANCE_TYPE_CODE } from '../payout-rules/payout-rules.resource.js';
import { trxOf } from './resource-helpers.js';
import { revisableRuleTail, validOnDateFilter } from './revisable-rule-fields.js';
import { checkHalfOpenPeriod, nonNegative, requireReference } from './rules.js';

interface CompanyRateRuleDef<E extends FieldTable> {
  name: string;
  path: string;
  table: 'collection_rule' | 'renewal_rule' | 'reinstatement_rule';
  alias: string;
  menu: string;
  tag: string;
  /** Fields between the insurance type and the rate (collection: the first commission year). */
  extra: E;
}

/**
 * Collection, renewal and reinstatement rules share one shape (V090): company, insurance type, rate in
 * percent (scale 4, >= 0), half-open validity [effectiveFrom, effectiveTo) and a version. Like the
 * commission and payout rules, periods may overlap: the lookup takes the highest version, then the latest
 * effectiveFrom; a change over time is a revision (POST|PUT /{id}/revise). Field order = export order.
 */
export function companyRateRuleResource<E extends FieldTable>(def: CompanyRateRuleDef<E>) {
  const { alias } = def;
  return defineResource({
    name: def.name,
    path: def.path,
    table: def.table,
    alias,
    menu: def.menu,
    tags: [def.tag],
    baseQuery: (db) =>
      db.selectFrom(`${def.table} as ${alias}`).leftJoin('insurance_company as ic', 'ic.company_code', `${alias}.company_code`),
    fields: {
      ruleId: f.id().label('Rule ID'),
      companyCode: f.text({ max: 20 }).required().sort().search().filter().label('Company'),
      companyName: f.joined('ic.company_name', 'text').search().label('Company name').export({ width: 25 }),
      insuranceType: f.text(INSURANCE_TYPE_CODE).required().sort().search().filter().label('Insurance type'),
      insuranceTypeName: f.codeName('INSURANCE_TYPE', 'insuranceType').export(false),
      ...def.extra,
      ratePct: f.rate().required().refine(nonNegative).sort().label('Rate (%)'),
      ...revisableRuleTail(),
    },
    defaultSort: 'ruleId',
    dateFilter: 'effectiveFrom',
    filters: validOnDateFilter(alias),
    validate: async (b, ctx) => {
      checkHalfOpenPeriod(b as { effectiveFrom: string; effectiveTo?: string | null });
      await requireReference(trxOf(ctx), 'insurance_company', 'company_code', b.companyCode, 'companyCode', 'insurance company');
    },
  });
}
