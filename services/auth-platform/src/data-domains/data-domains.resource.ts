import { sql } from 'kysely';
import { z } from 'zod';
import { DOMAIN_CATEGORIES, YN_VALUES } from '@csp/db';
import { defineResource, f, invalid } from '@csp/service-kit';
import { codeKey, optionalText } from '../common/fields.js';

export const DOMAIN_MENU = 'SYSTEM_DATA_DOMAIN';

const size = () => f.int({ min: 0, max: 100_000 }).save();

/**
 * Data domains (menu SYSTEM_DATA_DOMAIN). The path key is the domain code, so the kit serves the
 * list and data-domains.routes.ts the item routes; an update replaces every field but the code.
 */
export const dataDomainResource = defineResource({
  name: 'DataDomain',
  path: '/api/data-domains',
  table: 'data_domain',
  alias: 'd',
  menu: DOMAIN_MENU,
  tags: ['data-domains'],
  fields: {
    domainCode: codeKey(50).key().required().createOnly().search().filter('like'),
    domainName: f.text({ max: 100 }).required().sort().search().filter('like'),
    category: f.enum(DOMAIN_CATEGORIES).required().sort(),
    dataType: f.text({ max: 30 }).required(),
    length: size(),
    precision: size(),
    scale: size(),
    formatPattern: optionalText(100),
    validationRegex: optionalText(500),
    maskingType: optionalText(30),
    encrypted: f.enum(YN_VALUES).save({ default: 'N' }),
    description: optionalText(500),
    isActive: f.enum(YN_VALUES).save({ default: 'Y' }).filter(),
    usageCount: f.computed(sql`(select count(*)::int from data_dictionary dd where dd.domain_code = d.domain_code)`, 'int').nullable(false),
    createdAt: f.createdAt().sort(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'domainCode',
  filters: {
    shape: { domainCategory: z.enum(DOMAIN_CATEGORIES).optional() },
    apply: (qb, q) => (q.domainCategory ? qb.where(sql.ref('d.category'), '=', q.domainCategory) : qb),
  },
  create: false,
  update: false,
  detail: false,
  delete: false,
  export: false,
});

export const domainParams = z.object({ id: dataDomainResource.schemas.save.shape.domainCode as z.ZodType<string> });

/** A usable pattern, and a scale that fits the precision. */
export function assertValidDomain(body: { validationRegex?: unknown; precision?: unknown; scale?: unknown }): void {
  if (typeof body.validationRegex === 'string' && body.validationRegex) {
    try {
      new RegExp(body.validationRegex);
    } catch {
      throw invalid('validationRegex', 'is not a valid regular expression');
    }
  }
  if (typeof body.scale === 'number' && typeof body.precision === 'number' && body.scale > body.precision) {
    throw invalid('scale', 'must not exceed precision');
  }
}
