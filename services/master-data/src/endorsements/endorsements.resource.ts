import { defineResource, f, requireRow } from '@csp/service-kit';
import { ENDORSE_TYPES, ENDORSEMENT_STATUSES } from '@csp/db';

/**
 * Contract endorsements (menu ENDORSE, hard delete). Recording an endorsement does not change
 * the contract itself; contract changes go through PUT /api/contracts/{id}.
 */
export const endorsementResource = defineResource({
  name: 'ContractEndorsement',
  path: '/api/contract-endorsements',
  table: 'contract_endorsement',
  alias: 'e',
  menu: 'ENDORSE',
  tags: ['Contract endorsement'],
  baseQuery: (db) =>
    db
      .selectFrom('contract_endorsement as e')
      .innerJoin('contract as ct', 'ct.contract_id', 'e.contract_id')
      .innerJoin('agent as a', 'a.agent_id', 'ct.agent_id'),
  fields: {
    endorsementId: f.id(),
    contractId: f.ref().required().filter(),
    policyNo: f.joined('ct.policy_no', 'text').nullable(false).sort().search().filter(),
    agentId: f.joined('ct.agent_id', 'ref').nullable(false).filter(),
    agentName: f.joined('a.agent_name', 'text').nullable(false).search(),
    endorseType: f.enum(ENDORSE_TYPES).required().filter(),
    endorseDate: f.date().required().sort(),
    beforeValue: f.text({ max: 1000 }).save(),
    afterValue: f.text({ max: 1000 }).save(),
    premiumChange: f.money().save({ default: '0.00' }).describe('signed: a premium decrease is negative'),
    status: f.enum(ENDORSEMENT_STATUSES).save({ default: 'REQUESTED' }).filter(),
    note: f.text({ max: 1000 }).save(),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
  defaultSort: 'endorsementId',
  dateFilter: 'endorseDate',
  validate: async (b, ctx) => {
    await requireRow(ctx.trx, 'contract', 'contract_id', b.contractId, 'contractId', 'contract');
  },
});
