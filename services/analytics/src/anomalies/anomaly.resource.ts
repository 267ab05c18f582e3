import { ANOMALY_SCOPES, ANOMALY_STATUSES, ANOMALY_TYPES } from '@csp/db';
import { defineResource, f } from '@csp/service-kit';
import { analyticsFilters } from '../list-filters.js';

export const MENU_RETENTION = 'KPI_RETENTION';

/** Retention anomaly alerts (spec 2.7 retention_anomaly_alert, 4.5). */
export const anomalyResource = defineResource({
  name: 'RetentionAnomaly',
  path: '/api/retention-anomalies',
  table: 'retention_anomaly_alert',
  alias: 'x',
  menu: MENU_RETENTION,
  tags: ['Retention anomalies'],
  baseQuery: (db) =>
    db
      .selectFrom('retention_anomaly_alert as x')
      .innerJoin('organization as o', 'o.org_id', 'x.org_id')
      .leftJoin('agent as a', 'a.agent_id', 'x.agent_id'),
  fields: {
    alertId: f.id(),
    cohortMonth: f.month().filter('range').sort().label('Cohort month'),
    horizon: f.int().label('Months'),
    scope: f.enum(ANOMALY_SCOPES).filter().label('Scope'),
    orgId: f.ref().label('Org ID'),
    orgName: f.joined('o.org_name', 'text').search().sort().label('Organization'),
    agentId: f.ref().filter(),
    agentName: f.joined('a.agent_name', 'text').search().sort().label('Agent'),
    alertType: f.enum(ANOMALY_TYPES).filter().label('Alert'),
    retentionRate: f.rate().sort().label('Retention (%)'),
    previousRate: f.rate().label('Previous cohort (%)'),
    threshold: f.rate().label('Threshold (%)'),
    dropPoints: f.rate().sort().label('Drop (points)'),
    cohortCount: f.int().label('Contracts'),
    retainedCount: f.int().label('In force'),
    status: f.enum(ANOMALY_STATUSES).label('Status'),
    reviewNote: f.text().label('Review note'),
    reviewedBy: f.ref().label('Reviewed by'),
    reviewedAt: f.timestamp().label('Reviewed at'),
    detectedAt: f.timestamp().sort().label('Detected at'),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
  },
  filters: analyticsFilters({ org: 'x.org_id', horizon: 'x.horizon' }),
  statusField: 'status',
  defaultSort: '-alertId',
  agentScope: 'agentId',
  create: false,
  update: false,
  delete: false,
  export: 'READ',
});
