import { defineResource, f, invalid, requireRow } from '@csp/service-kit';
import { AGENT_CONTRACT_STATUSES, AGENT_CONTRACT_TYPES } from '@csp/db';

/** Appointment contracts of agents with the agency (menu AGENT_CONTRACT, hard delete). */
export const agentContractResource = defineResource({
  name: 'AgentContract',
  path: '/api/agent-contracts',
  table: 'agent_contract',
  alias: 'ac',
  menu: 'AGENT_CONTRACT',
  tags: ['Agent contract'],
  baseQuery: (db) =>
    db.selectFrom('agent_contract as ac').innerJoin('agent as a', 'a.agent_id', 'ac.agent_id').innerJoin('organization as o', 'o.org_id', 'a.org_id'),
  fields: {
    agentContractId: f.id(),
    agentId: f.ref().required().filter(),
    agentName: f.joined('a.agent_name', 'text').nullable(false).sort().search(),
    orgName: f.joined('o.org_name', 'text').nullable(false),
    contractType: f.enum(AGENT_CONTRACT_TYPES).required().filter(),
    startDate: f.date().required().sort(),
    endDate: f.date().save().sort(),
    status: f.enum(AGENT_CONTRACT_STATUSES).save({ default: 'ACTIVE' }).filter(),
    commissionSchedule: f.text({ max: 50 }).save().search(),
    note: f.text({ max: 1000 }).save(),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'agentContractId',
  dateFilter: 'startDate',
  validate: async (b, ctx) => {
    if (b.endDate && b.endDate < b.startDate) throw invalid('endDate', 'must not be before startDate');
    await requireRow(ctx.trx, 'agent', 'agent_id', b.agentId, 'agentId', 'agent');
  },
});
