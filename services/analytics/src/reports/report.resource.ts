import { ORG_TYPES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';
import { sql } from 'kysely';
import { analyticsFilters } from '../list-filters.js';

const tags = ['Reports'];

/** Agent performance per month (REPORT_PERFORMANCE): kpi_agent_monthly with names. */
export const agentSummaryResource = defineResource({
  name: 'AgentSummary',
  path: '/api/reports/agent-summary',
  table: 'kpi_agent_monthly',
  alias: 'k',
  menu: 'REPORT_PERFORMANCE',
  tags,
  baseQuery: (db) =>
    db
      .selectFrom('kpi_agent_monthly as k')
      .innerJoin('agent as a', 'a.agent_id', 'k.agent_id')
      .leftJoin('organization as o', 'o.org_id', 'k.org_id')
      .leftJoin('grade as g', 'g.grade_id', 'k.grade_id'),
  fields: {
    agentKpiId: f.id(),
    settleMonth: f.month().filter('range').sort().label('Settle month'),
    agentId: f.ref().filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().sort().label('Agent'),
    orgId: f.ref().label('Org ID'),
    orgName: f.joined('o.org_name', 'text').search().sort().label('Organization'),
    gradeId: f.ref().filter(),
    gradeName: f.joined('g.grade_name', 'text').label('Grade'),
    settled: f.bool().label('Settled'),
    settleStatus: f.text().filter().label('Settle status'),
    newContracts: f.int().sort().label('New contracts'),
    newPremium: f.money().sort().label('New premium'),
    recruitAmount: f.money().sort().label('Recruit'),
    maintainAmount: f.money().sort().label('Maintain'),
    overrideAmount: f.money().label('Override'),
    otherAmount: f.money().label('Other commission'),
    correctionAmount: f.money().label('Corrections'),
    exceptionPlus: f.money().label('Exception +'),
    exceptionMinus: f.money().label('Exception -'),
    chargebackAmount: f.money().sort().label('Chargeback'),
    grossAmount: f.money().sort().label('Gross'),
    taxAmount: f.money().label('Tax'),
    netAmount: f.money().sort().label('Net'),
  },
  filters: analyticsFilters({ org: 'k.org_id' }),
  defaultSort: '-settleMonth',
  agentScope: 'agentId',
  create: false,
  update: false,
  delete: false,
  export: 'EXPORT',
});

/** The rolled-up figures of an organization (its whole subtree) per month. */
export const orgKpiFields = {
  orgKpiId: f.id(),
  settleMonth: f.month().filter('range').sort().label('Settle month'),
  orgId: f.ref().label('Org ID'),
  orgName: f.joined('o.org_name', 'text').search().sort().label('Organization'),
  orgType: f.enum(ORG_TYPES).filter().label('Type'),
  orgLevel: f.int().sort().label('Level'),
  parentOrgId: f.ref().filter().label('Parent ID'),
  agentsSettled: f.int().sort().label('Agents settled'),
  agentsPaid: f.int().sort().label('Agents paid'),
  newContracts: f.int().sort().label('New contracts'),
  newPremium: f.money().sort().label('New premium'),
  recruitTotal: f.money().sort().label('Recruit'),
  maintainTotal: f.money().sort().label('Maintain'),
  overrideTotal: f.money().label('Override'),
  otherTotal: f.money().label('Other commission'),
  correctionTotal: f.money().label('Corrections'),
  exceptionPlusTotal: f.money().label('Exception +'),
  exceptionMinusTotal: f.money().label('Exception -'),
  chargebackTotal: f.money().sort().label('Chargeback'),
  grossTotal: f.money().sort().label('Gross'),
  taxTotal: f.money().label('Tax'),
  netTotal: f.money().sort().label('Net'),
  avgNetPerAgent: f.money().sort().label('Average net per agent'),
};

/** Organization performance per month (REPORT_ORG). */
export const orgSummaryResource = defineResource({
  name: 'OrgSummary',
  path: '/api/reports/org-summary',
  table: 'kpi_org_monthly',
  alias: 'k',
  menu: 'REPORT_ORG',
  tags,
  baseQuery: (db) => db.selectFrom('kpi_org_monthly as k').innerJoin('organization as o', 'o.org_id', 'k.org_id'),
  fields: orgKpiFields,
  filters: analyticsFilters({ org: 'k.org_id', orgLevel: 'k.org_level' }),
  defaultSort: '-settleMonth',
  create: false,
  update: false,
  delete: false,
  export: 'EXPORT',
});

/**
 * Chargeback exposure per agent and month (REPORT_CHARGEBACK_RISK): what a lapse of every in-force
 * contract on the last day of the month would charge back (rule 7 bands on the commission paid so far)
 * and the chargeback installments still due after the month.
 */
export const chargebackRiskResource = defineResource({
  name: 'ChargebackRisk',
  path: '/api/reports/chargeback-risk',
  table: 'kpi_chargeback_exposure',
  alias: 'e',
  menu: 'REPORT_CHARGEBACK_RISK',
  tags,
  baseQuery: (db) =>
    db
      .selectFrom('kpi_chargeback_exposure as e')
      .innerJoin('agent as a', 'a.agent_id', 'e.agent_id')
      .leftJoin('organization as o', 'o.org_id', 'e.org_id')
      .leftJoin('grade as g', 'g.grade_id', 'e.grade_id'),
  fields: {
    exposureId: f.id(),
    settleMonth: f.month().filter('range').sort().label('Settle month'),
    asOfDate: f.date().label('As of'),
    agentId: f.ref().filter().sort(),
    agentName: f.joined('a.agent_name', 'text').search().sort().label('Agent'),
    orgId: f.ref().label('Org ID'),
    orgName: f.joined('o.org_name', 'text').search().sort().label('Organization'),
    gradeId: f.ref().filter(),
    gradeName: f.joined('g.grade_name', 'text').label('Grade'),
    inForceContracts: f.int().sort().label('In-force contracts'),
    paidCommission: f.money().sort().label('Commission paid'),
    exposureAmount: f.money().sort().label('Exposure'),
    installmentsDueCount: f.int().label('Installments due'),
    installmentsDueAmount: f.money().sort().label('Installments due amount'),
    totalRisk: f.computed(sql`(e.exposure_amount + e.installments_due_amount)`, 'money').sort().label('Total risk'),
  },
  filters: analyticsFilters({ org: 'e.org_id' }),
  defaultSort: '-settleMonth',
  agentScope: 'agentId',
  create: false,
  update: false,
  delete: false,
  export: 'EXPORT',
});

/** Chargeback exposure per organization (its subtree) and month. */
export const chargebackRiskOrgResource = defineResource({
  name: 'ChargebackRiskByOrg',
  path: '/api/reports/chargeback-risk/orgs',
  table: 'kpi_org_monthly',
  alias: 'k',
  menu: 'REPORT_CHARGEBACK_RISK',
  tags,
  baseQuery: (db) => db.selectFrom('kpi_org_monthly as k').innerJoin('organization as o', 'o.org_id', 'k.org_id'),
  fields: {
    orgKpiId: f.id(),
    settleMonth: f.month().filter('range').sort().label('Settle month'),
    orgId: f.ref().label('Org ID'),
    orgName: f.joined('o.org_name', 'text').search().sort().label('Organization'),
    orgType: f.enum(ORG_TYPES).filter().label('Type'),
    parentOrgId: f.ref().filter().label('Parent ID'),
    exposureAmount: f.money().sort().label('Exposure'),
    installmentsDueCount: f.int().label('Installments due'),
    installmentsDueAmount: f.money().sort().label('Installments due amount'),
    totalRisk: f.computed(sql`(k.exposure_amount + k.installments_due_amount)`, 'money').sort().label('Total risk'),
  },
  filters: analyticsFilters({ org: 'k.org_id' }),
  defaultSort: '-settleMonth',
  create: false,
  update: false,
  delete: false,
  export: 'EXPORT',
});
