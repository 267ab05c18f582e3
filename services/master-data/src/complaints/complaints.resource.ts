import { defineResource, f, invalid, requireRow } from '@csp/service-kit';
import { COMPLAINT_STATUSES, COMPLAINT_TYPES } from '@csp/db';

/** Customer complaints on contracts (menu COMPLAINT, hard delete). */
export const complaintResource = defineResource({
  name: 'ContractComplaint',
  path: '/api/contract-complaints',
  table: 'contract_complaint',
  alias: 'cp',
  menu: 'COMPLAINT',
  tags: ['Contract complaint'],
  baseQuery: (db) =>
    db
      .selectFrom('contract_complaint as cp')
      .innerJoin('contract as ct', 'ct.contract_id', 'cp.contract_id')
      .innerJoin('agent as a', 'a.agent_id', 'cp.agent_id'),
  fields: {
    complaintId: f.id(),
    contractId: f.ref().required().filter(),
    policyNo: f.joined('ct.policy_no', 'text').nullable(false).sort().search(),
    agentId: f.ref().required().filter().describe('the agent responsible for the sale (usually the contract\'s agent)'),
    agentName: f.joined('a.agent_name', 'text').nullable(false).search(),
    complaintDate: f.date().required().sort(),
    complaintType: f.enum(COMPLAINT_TYPES).required().filter(),
    content: f.text({ max: 4000 }).required().search(),
    status: f.enum(COMPLAINT_STATUSES).save({ default: 'RECEIVED' }).filter(),
    resolution: f.text({ max: 4000 }).save(),
    resolvedDate: f.date().save(),
    chargebackYn: f.bool().save({ default: false }).filter(),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'complaintId',
  dateFilter: 'complaintDate',
  validate: async (b, ctx) => {
    if (b.resolvedDate && b.resolvedDate < b.complaintDate) throw invalid('resolvedDate', 'must not be before complaintDate');
    await requireRow(ctx.trx, 'contract', 'contract_id', b.contractId, 'contractId', 'contract');
    await requireRow(ctx.trx, 'agent', 'agent_id', b.agentId, 'agentId', 'agent');
  },
});
