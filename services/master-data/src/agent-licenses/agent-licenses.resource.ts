import { zDate, defineResource, f, invalid, requireRow } from '@csp/service-kit';
import { filters } from '../common/resource-helpers.js';
import { LICENSE_STATUSES, LICENSE_TYPES } from '@csp/db';

/**
 * Licenses of agents (menu AGENT_LICENSE, hard delete). (licenseType, licenseNo) is unique (B009).
 * expiryBefore lists licenses expiring on or before a day (renewal follow-up).
 */
export const agentLicenseResource = defineResource({
  name: 'AgentLicense',
  path: '/api/agent-licenses',
  table: 'agent_license',
  alias: 'l',
  menu: 'AGENT_LICENSE',
  tags: ['Agent license'],
  baseQuery: (db) => db.selectFrom('agent_license as l').innerJoin('agent as a', 'a.agent_id', 'l.agent_id'),
  fields: {
    licenseId: f.id(),
    agentId: f.ref().required().filter(),
    agentName: f.joined('a.agent_name', 'text').nullable(false).search(),
    licenseType: f.enum(LICENSE_TYPES).required().filter(),
    licenseNo: f.text({ max: 30 }).required().sort().search(),
    issueDate: f.date().required().sort(),
    expiryDate: f.date().save().sort(),
    status: f.enum(LICENSE_STATUSES).save({ default: 'ACTIVE' }).filter(),
    note: f.text({ max: 1000 }).save(),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'licenseId',
  dateFilter: 'issueDate',
  filters: filters({
    shape: { expiryBefore: zDate.optional() },
    apply: (qb, q) => (q.expiryBefore ? qb.where('l.expiry_date', '<=', q.expiryBefore) : qb),
  }),
  validate: async (b, ctx) => {
    if (b.expiryDate && b.expiryDate < b.issueDate) throw invalid('expiryDate', 'must not be before issueDate');
    await requireRow(ctx.trx, 'agent', 'agent_id', b.agentId, 'agentId', 'agent');
  },
});
