import { sql, type SqlBool } from 'kysely';
import { defineResource, f, invalid, zDate } from '@csp/service-kit';
import { filters } from '../common/resource-helpers.js';
import { ORG_TYPES } from '@csp/db';
import { placeOrg } from './orgs.service.js';

/**
 * Organizations (menu ORG_TREE). GET /api/orgs is the nested tree (orgs.routes.ts); the paged flat
 * list is /api/orgs/list. The level follows the parent (HQ > BR > TM); DELETE is hand-written
 * because children, agents and history refuse it. Field order = export column order.
 */
export const orgResource = defineResource({
  name: 'Organization',
  path: '/api/orgs',
  listPath: '/api/orgs/list',
  table: 'organization',
  alias: 'o',
  menu: 'ORG_TREE',
  tags: ['Organization'],
  baseQuery: (db) => db.selectFrom('organization as o').leftJoin('organization as p', 'p.org_id', 'o.parent_org_id'),
  fields: {
    orgId: f.id().label('Org ID'),
    parentOrgId: f.ref().save().filter().label('Parent ID'),
    parentOrgName: f.joined('p.org_name', 'text').label('Parent').export({ width: 25 }),
    orgName: f.text({ max: 100 }).required().sort().search().label('Name').export({ width: 25 }),
    orgType: f.enum(ORG_TYPES).required().sort().filter().export(false),
    orgTypeName: f.codeName('ORG_TYPE', 'orgType').label('Type'),
    orgLevel: f.int().nullable(false).sort().label('Level'),
    region: f.text({ max: 50 }).save().sort().filter().label('Region'),
    effectiveFrom: f.date().save().label('Effective from'),
    effectiveTo: f.date().save().label('Effective to'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    agentCount: f
      .computed(sql`(SELECT count(*)::int FROM agent a WHERE a.org_id = o.org_id AND a.status = 'ACTIVE')`, 'int')
      .nullable(false)
      .describe('ACTIVE agents directly in this organization')
      .label('Agents'),
    sortOrder: f.int({ min: 0, max: 99999 }).save({ default: 0 }).sort().export(false),
    version: f.version().hidden(),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'orgId',
  delete: false,
  filters: filters({
    // validity overlapping [startDate, endDate]
    shape: { startDate: zDate.optional(), endDate: zDate.optional() },
    apply: (qb, q) => {
      let out = qb;
      if (q.startDate) out = out.where(sql<SqlBool>`(o.effective_to IS NULL OR o.effective_to >= ${q.startDate}::date)`);
      if (q.endDate) out = out.where(sql<SqlBool>`(o.effective_from IS NULL OR o.effective_from <= ${q.endDate}::date)`);
      return out;
    },
  }),
  validate: (b) => {
    if (b.effectiveFrom && b.effectiveTo && b.effectiveTo < b.effectiveFrom) throw invalid('effectiveTo', 'must not be before effectiveFrom');
  },
  beforeWrite: placeOrg,
});
