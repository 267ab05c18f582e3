import { CUMULATIVE_SCOPES, KPI_REFRESH_STATUSES, KPI_REFRESH_TRIGGERS, RETENTION_SCOPES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';
import { analyticsFilters } from '../list-filters.js';
import { orgKpiFields } from '../reports/report.resource.js';

const tags = ['KPI'];

/** Monthly KPI of the agency (KPI_MONTHLY). */
export const kpiMonthlyResource = defineResource({
  name: 'KpiMonthly',
  path: '/api/kpi/monthly',
  table: 'kpi_monthly',
  alias: 'k',
  menu: 'KPI_MONTHLY',
  tags,
  fields: {
    kpiMonthlyId: f.id(),
    settleMonth: f.month().filter('range').sort().label('Settle month'),
    agentsSettled: f.int().label('Agents settled'),
    agentsPaid: f.int().label('Agents paid'),
    newContracts: f.int().label('New contracts'),
    newPremium: f.money().label('New premium'),
    recruitTotal: f.money().label('Recruit'),
    maintainTotal: f.money().label('Maintain'),
    overrideTotal: f.money().label('Override'),
    otherTotal: f.money().label('Other commission'),
    correctionTotal: f.money().label('Corrections'),
    exceptionPlusTotal: f.money().label('Exception +'),
    exceptionMinusTotal: f.money().label('Exception -'),
    chargebackTotal: f.money().label('Chargeback'),
    grossTotal: f.money().sort().label('Gross'),
    taxTotal: f.money().label('Tax'),
    netTotal: f.money().sort().label('Net'),
    avgNetPerAgent: f.money().label('Average net per agent'),
    refreshId: f.ref().label('Refresh ID'),
    refreshedAt: f.timestamp().label('Refreshed at'),
  },
  defaultSort: '-settleMonth',
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});

/** Organization KPI (KPI_ORG): every figure includes the organization's subtree. */
export const kpiOrganizationResource = defineResource({
  name: 'KpiOrganization',
  path: '/api/kpi/organization',
  table: 'kpi_org_monthly',
  alias: 'k',
  menu: 'KPI_ORG',
  tags,
  baseQuery: (db) => db.selectFrom('kpi_org_monthly as k').innerJoin('organization as o', 'o.org_id', 'k.org_id'),
  fields: orgKpiFields,
  filters: analyticsFilters({ org: 'k.org_id', orgLevel: 'k.org_level' }),
  defaultSort: '-settleMonth',
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});

/** Retention (KPI_RETENTION): 13- and 25-month persistency per cohort, in total, per organization and per agent. */
export const kpiRetentionResource = defineResource({
  name: 'KpiRetention',
  path: '/api/kpi/retention',
  table: 'kpi_retention',
  alias: 'r',
  menu: 'KPI_RETENTION',
  tags,
  baseQuery: (db) =>
    db
      .selectFrom('kpi_retention as r')
      .leftJoin('organization as o', 'o.org_id', 'r.org_id')
      .leftJoin('agent as a', 'a.agent_id', 'r.agent_id'),
  fields: {
    retentionId: f.id(),
    cohortMonth: f.month().filter('range').sort().label('Cohort month'),
    horizon: f.int().label('Months'),
    measureMonth: f.month().filter('range').sort().label('Measured in'),
    scope: f.enum(RETENTION_SCOPES).filter().label('Scope'),
    orgId: f.ref().label('Org ID'),
    orgName: f.joined('o.org_name', 'text').search().label('Organization'),
    agentId: f.ref().filter(),
    agentName: f.joined('a.agent_name', 'text').search().label('Agent'),
    cohortCount: f.int().sort().label('Contracts'),
    retainedCount: f.int().label('In force'),
    retentionRate: f.rate().sort().label('Retention (%)'),
    refreshedAt: f.timestamp().label('Refreshed at'),
  },
  filters: analyticsFilters({ org: 'r.org_id', horizon: 'r.horizon' }),
  defaultSort: '-cohortMonth',
  agentScope: 'agentId',
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});

/** Year-to-date sums per agent and organization (KPI_CUMULATIVE). */
export const kpiCumulativeResource = defineResource({
  name: 'KpiCumulative',
  path: '/api/kpi/cumulative',
  table: 'kpi_cumulative',
  alias: 'c',
  menu: 'KPI_CUMULATIVE',
  tags,
  baseQuery: (db) =>
    db
      .selectFrom('kpi_cumulative as c')
      .innerJoin('organization as o', 'o.org_id', 'c.org_id')
      .leftJoin('agent as a', 'a.agent_id', 'c.agent_id')
      .leftJoin('grade as g', 'g.grade_id', 'c.grade_id'),
  fields: {
    cumulativeId: f.id(),
    settleMonth: f.month().filter().sort().label('누적 기준월', 'Up to month'),
    scope: f.enum(CUMULATIVE_SCOPES).filter().label('Scope'),
    orgId: f.ref().label('Org ID'),
    orgName: f.joined('o.org_name', 'text').search().sort().label('Organization'),
    agentId: f.ref().filter(),
    agentName: f.joined('a.agent_name', 'text').search().sort().label('Agent'),
    gradeId: f.ref().filter(),
    gradeName: f.joined('g.grade_name', 'text').label('Grade'),
    monthsCount: f.int().label('Months'),
    newContracts: f.int().sort().label('New contracts'),
    newPremium: f.money().sort().label('New premium'),
    recruitTotal: f.money().sort().label('Recruit'),
    maintainTotal: f.money().sort().label('Maintain'),
    overrideTotal: f.money().label('Override'),
    otherTotal: f.money().label('Other commission'),
    correctionTotal: f.money().label('Corrections'),
    exceptionPlusTotal: f.money().label('Exception +'),
    exceptionMinusTotal: f.money().label('Exception -'),
    chargebackTotal: f.money().label('Chargeback'),
    grossTotal: f.money().sort().label('Gross'),
    taxTotal: f.money().label('Tax'),
    netTotal: f.money().sort().label('Net'),
  },
  filters: analyticsFilters({ org: 'c.org_id' }),
  defaultSort: '-settleMonth',
  agentScope: 'agentId',
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});

/** KPI refreshes (KPI_MONTHLY): when each month was refreshed, by whom or by which run, how long it took. */
export const kpiRefreshResource = defineResource({
  name: 'KpiRefresh',
  path: '/api/kpi/refreshes',
  table: 'kpi_refresh_log',
  alias: 'l',
  menu: 'KPI_MONTHLY',
  tags,
  fields: {
    refreshId: f.id(),
    settleMonth: f.month().filter().sort().label('Settle month'),
    triggerType: f.enum(KPI_REFRESH_TRIGGERS).filter().label('Trigger'),
    runId: f.ref().filter().label('Run ID'),
    status: f.enum(KPI_REFRESH_STATUSES).label('Status'),
    attempts: f.int().label('Attempts'),
    agentRows: f.int().label('Agent rows'),
    orgRows: f.int().label('Organization rows'),
    exposureRows: f.int().label('Exposure rows'),
    retentionRows: f.int().label('Retention rows'),
    alertRows: f.int().label('Alerts'),
    errorMessage: f.text().label('Error'),
    startedAt: f.timestamp().sort().label('Started at'),
    endedAt: f.timestamp().label('Ended at'),
    durationMs: f.int().sort().label('Duration (ms)'),
    requestedBy: f.ref().label('Requested by'),
  },
  statusField: 'status',
  defaultSort: '-refreshId',
  create: false,
  update: false,
  delete: false,
  export: false,
});
