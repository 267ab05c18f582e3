import { defineResource, invalid, requireRow } from '@csp/service-kit';
import { contractFields } from '@csp/field-tables';

/**
 * Contracts (menu CONTRACT_LIST: READ/CREATE/UPDATE, no DELETE; /excel under READ). policy_no is
 * unique (B009); an update may carry `version` (stale -> B002). agentId is the recruiting agent;
 * successions do not change it. A big table (1,000,000 rows): the default order is the primary key
 * and unfiltered lists take the planner's row estimate. Field order = export column order.
 */
export const contractResource = defineResource({
  name: 'Contract',
  path: '/api/contracts',
  table: 'contract',
  alias: 'ct',
  menu: 'CONTRACT_LIST',
  tags: ['Contract'],
  bigTable: true,
  baseQuery: (db) =>
    db
      .selectFrom('contract as ct')
      .innerJoin('agent as a', 'a.agent_id', 'ct.agent_id')
      .innerJoin('organization as o', 'o.org_id', 'a.org_id')
      .innerJoin('product as p', 'p.product_id', 'ct.product_id')
      .innerJoin('insurance_company as ic', 'ic.company_id', 'p.company_id')
      // joins rather than f.codeName: a hash join for the 1,000,000-row export, removed from id pages
      .leftJoin('common_code as pc', (j) => j.onRef('pc.code', '=', 'ct.pay_cycle').on('pc.group_code', '=', 'PAY_CYCLE'))
      .leftJoin('common_code as cs', (j) => j.onRef('cs.code', '=', 'ct.status').on('cs.group_code', '=', 'CONTRACT_STATUS')),
  fields: contractFields,
  defaultSort: 'contractId',
  dateFilter: 'contractDate',
  delete: false,
  validate: async (b, ctx, existing) => {
    if (b.status === 'LAPSE' && !b.lapseDate) throw invalid('lapseDate', 'is required when status is LAPSE');
    if (b.status === 'REVIVE' && !b.revivalDate) throw invalid('revivalDate', 'is required when status is REVIVE');
    const agent = await requireRow(ctx.trx, 'agent', 'agent_id', b.agentId, 'agentId', 'agent');
    const product = await requireRow(ctx.trx, 'product', 'product_id', b.productId, 'productId', 'product');
    // new business only for working agents and products on sale; existing contracts stay editable
    if ((!existing || Number(existing.agent_id) !== b.agentId) && agent.status === 'LEAVE') {
      throw invalid('agentId', 'the agent has retired');
    }
    if ((!existing || Number(existing.product_id) !== b.productId) && product.is_active === false) {
      throw invalid('productId', 'the product is inactive');
    }
  },
});
