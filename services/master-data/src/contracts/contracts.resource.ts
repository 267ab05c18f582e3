import { sql } from 'kysely';
import { defineResource, f, invalid, requireRow } from '@csp/service-kit';
import { CONTRACT_STATUSES, PAY_CYCLES } from '@csp/db';
import { nonNegative } from '../common/rules.js';

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
  fields: {
    contractId: f.id().label('Contract ID'),
    policyNo: f.text({ max: 50 }).required().sort().search().filter().label('Policy no').export({ width: 18 }),
    agentId: f.ref().required().filter().label('Agent ID'),
    agentName: f
      .joined('a.agent_name', 'text')
      .nullable(false)
      .sort()
      // the agents' ids first: the OR of the search stays on contract's own (trigram) indexes
      .search((pattern) => sql`ct.agent_id = ANY(ARRAY(SELECT x.agent_id FROM agent x WHERE x.agent_name ILIKE ${pattern}))`)
      .label('Agent'),
    orgName: f.joined('o.org_name', 'text').nullable(false).label('Organization').export({ width: 20 }),
    companyName: f.joined('ic.company_name', 'text').nullable(false).label('Company').export({ width: 20 }),
    productName: f.joined('p.product_name', 'text').nullable(false).label('Product').export({ width: 25 }),
    contractorName: f.text({ max: 100 }).save().search().label('Contractor'),
    insuredName: f.text({ max: 100 }).save().search().label('Insured'),
    premium: f.money().required().refine(nonNegative).sort().label('Premium'),
    payCycleName: f.joined('pc.code_name', 'text').label('Pay cycle'),
    statusName: f.joined('cs.code_name', 'text').label('Status'),
    contractDate: f.date().save().sort().label('Contract date'),
    effectiveDate: f.date().save().label('Effective date'),
    lapseDate: f.date().save().label('Lapse date'),
    orgId: f.joined('a.org_id', 'ref').nullable(false).export(false),
    productId: f.ref().required().filter().export(false),
    productCode: f.joined('p.product_code', 'text').nullable(false).export(false),
    companyId: f.joined('p.company_id', 'ref').nullable(false).filter().export(false),
    payCycle: f.enum(PAY_CYCLES).save({ default: 'MONTHLY' }).filter().export(false),
    payPeriod: f.int({ min: 0, max: 100 }).save().describe('years').export(false),
    coveragePeriod: f.int({ min: 0, max: 120 }).save().describe('years').export(false),
    status: f.enum(CONTRACT_STATUSES).save({ default: 'ACTIVE' }).sort().filter().export(false),
    revivalDate: f.date().save().export(false),
    version: f.version().export(false),
    createdAt: f.createdAt().export(false),
    updatedAt: f.updatedAt().export(false),
    createdBy: f.createdBy().hidden(),
    updatedBy: f.updatedBy().hidden(),
  },
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
