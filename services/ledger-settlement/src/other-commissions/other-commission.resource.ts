import { LEDGER_STATUSES, OTHER_COMMISSION_TYPES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';

/**
 * other_commission_ledger (read-only, menu COMM_MASTER READ): the collection, renewal, reinstatement, persistency
 * and appointment rows calcOtherCommission wrote; AGENT users see their own rows.
 */
export const otherCommissionResource = defineResource({
  name: 'OtherCommissionLedger',
  path: '/api/ledger/other-commissions',
  table: 'other_commission_ledger',
  alias: 'l',
  menu: 'COMM_MASTER',
  tags: ['Ledger'],
  create: false,
  update: false,
  delete: false,
  detail: false,
  bigTable: true,
  baseQuery: (db) => db.selectFrom('other_commission_ledger as l').leftJoin('agent as a', 'a.agent_id', 'l.agent_id'),
  fields: {
    ledgerId: f.id().label('Ledger ID'),
    settleMonth: f.month().nullable(false).filter().sort().label('Settle month'),
    commissionType: f.enum(OTHER_COMMISSION_TYPES).nullable(false).filter('in').sort().label('Type'),
    agentId: f.ref().nullable(false).filter().sort(),
    agentName: f.joined('a.agent_name', 'text').label('Agent').export({ width: 18 }),
    contractId: f.ref().filter().sort().label('Contract ID'),
    policyNo: f.text().filter().label('Policy no').export({ width: 18 }),
    companyCode: f.text().filter().label('Company'),
    productCode: f.text().label('Product').export({ width: 14 }),
    insuranceType: f.text().label('Insurance type'),
    commissionYear: f.int().label('Commission year'),
    milestoneMonth: f.int().label('Milestone / month no'),
    baseAmount: f.money().nullable(false).label('Base'),
    ratePct: f.rate().nullable(false).label('Rate (%)'),
    agentAmount: f.money().nullable(false).sort().label('Amount'),
    ruleId: f.ref().label('Rule ID'),
    ruleVersion: f.int().label('Rule version'),
    sourceId: f.ref().label('Source ID'),
    status: f.enum(LEDGER_STATUSES).nullable(false).filter().label('Status'),
    runId: f.ref().export(false),
    calcBasis: f.json().export(false),
    createdAt: f.createdAt().export(false),
  },
  defaultSort: 'ledgerId',
  agentScope: 'agentId',
});
