import { sql } from 'kysely';
import { f } from '@csp/service-kit';
import { CONTRACT_STATUSES, PAY_CYCLES } from '@csp/db';
import { nonNegative } from './refinements.js';

/**
 * The field table of master-data's contract resource (POST /api/contracts). The joined fields read
 * the joins of master-data's baseQuery (ct, a, o, p, ic, pc, cs). Field order = export column order.
 */
export const contractFields = {
  contractId: f.id().label('Contract ID'),
  policyNo: f.text({ max: 50 }).required().sort().search().filter().label('Policy no').export({ width: 18 }),
  agentId: f.ref().required().filter().label('Agent ID'),
  agentName: f
    .joined('a.agent_name', 'text')
    .nullable(false)
    .sort()
    // the agents' ids first: the OR of the search stays on contract's own (trigram) indexes
    .search(
      (pattern) =>
        sql`ct.agent_id = ANY(ARRAY(SELECT x.agent_id FROM agent x WHERE x.agent_name ILIKE ${pattern}))`,
    )
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
};
