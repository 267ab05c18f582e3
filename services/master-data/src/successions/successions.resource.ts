import { sql, type SqlBool } from 'kysely';
import { defineResource, f, zId } from '@csp/service-kit';
import { filters } from '../common/resource-helpers.js';
import { SUCCESSION_STATUSES } from '@csp/db';
import { checkSuccession } from './successions.service.js';

/**
 * Contract successions (menu CONTRACT_SUCCESSION): the maintain commission of a contract passes
 * from agent to agent in a chain (successions.service.ts). Create and update go through the chain
 * check; cancel and delete are hand-written. Field order = export column order.
 */
export const successionResource = defineResource({
  name: 'ContractSuccession',
  path: '/api/contract-successions',
  table: 'contract_succession',
  alias: 's',
  menu: 'CONTRACT_SUCCESSION',
  tags: ['Contract succession'],
  baseQuery: (db) =>
    db
      .selectFrom('contract_succession as s')
      .innerJoin('contract as c', 'c.contract_id', 's.contract_id')
      .innerJoin('agent as fa', 'fa.agent_id', 's.from_agent_id')
      .innerJoin('agent as ta', 'ta.agent_id', 's.to_agent_id'),
  fields: {
    successionId: f.id().label('Succession ID'),
    contractId: f.ref().required().filter().label('Contract ID'),
    policyNo: f.joined('c.policy_no', 'text').nullable(false).sort().search().filter().label('Policy no').export({ width: 20 }),
    fromAgentId: f.ref().required().label('From agent ID'),
    fromAgentName: f.joined('fa.agent_name', 'text').nullable(false).search().label('From agent').export({ width: 20 }),
    toAgentId: f.ref().required().label('To agent ID'),
    toAgentName: f.joined('ta.agent_name', 'text').nullable(false).search().label('To agent').export({ width: 20 }),
    effectiveMonth: f.month().required().sort().filter().label('Effective month'),
    status: f.enum(SUCCESSION_STATUSES).nullable(false).filter().label('Status'),
    reason: f.text({ max: 500 }).save().label('Reason').export({ width: 30 }),
    cancelledAt: f.timestamp().label('Cancelled at'),
    contractAgentId: f.joined('c.agent_id', 'ref').nullable(false).export(false),
    cancelReason: f.text().export(false),
    cancelledBy: f.int().export(false),
    createdAt: f.createdAt().sort().export(false),
    createdBy: f.createdBy(),
    updatedAt: f.updatedAt().export(false),
    updatedBy: f.updatedBy().hidden(),
    version: f.version().hidden(),
  },
  defaultSort: '-successionId',
  dateFilter: 'createdAt',
  delete: false,
  filters: filters({
    // the agent on either side
    shape: { agentId: zId.optional() },
    apply: (qb, q) => (q.agentId === undefined ? qb : qb.where(sql<SqlBool>`(s.from_agent_id = ${q.agentId} OR s.to_agent_id = ${q.agentId})`)),
  }),
  validate: checkSuccession,
});
