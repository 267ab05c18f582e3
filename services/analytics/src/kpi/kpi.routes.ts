import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, zSettleMonth, type ServiceApp } from '@csp/service-kit';
import { refreshMonth } from '../refresh/refresh.service.js';
import {
  kpiCumulativeResource,
  kpiMonthlyResource,
  kpiOrganizationResource,
  kpiRefreshResource,
  kpiRetentionResource,
} from './kpi.resource.js';

const tags = ['KPI'];

const refreshResult = z.object({
  refreshId: z.number().int(),
  settleMonth: z.string(),
  agentRows: z.number().int(),
  orgRows: z.number().int(),
  exposureRows: z.number().int(),
  retentionRows: z.number().int(),
  alertRows: z.number().int(),
  cumulativeMonths: z.array(z.string()),
  timings: z.record(z.string(), z.number().int()),
  durationMs: z.number().int(),
});

/**
 * KPI views (spec 4.4, DECISIONS "Analytics definitions") and the on-demand refresh of one month.
 * The refresh is a batch-like job over the whole book, so it takes the batch run permission
 * (BATCH_RUN APPROVE): the KPI menus only have READ (spec 5.5).
 */
export async function registerKpiRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, kpiMonthlyResource);
  registerResource(app, kpiOrganizationResource);
  registerResource(app, kpiRetentionResource);
  registerResource(app, kpiCumulativeResource);
  registerResource(app, kpiRefreshResource);

  action(
    app,
    '/api/kpi/refresh',
    {
      config: perm('BATCH_RUN', 'APPROVE'),
      schema: {
        tags,
        summary: 'Refresh the KPIs of one settle month (replaces that month only)',
        querystring: z.object({ settleMonth: zSettleMonth }),
        response: { 200: envelope(refreshResult) },
      },
    },
    async (request) => {
      const result = await refreshMonth(app.db, {
        settleMonth: request.query.settleMonth,
        trigger: 'MANUAL',
        userId: request.user?.userId ?? null,
      });
      request.changeLog({
        menuCode: 'BATCH_RUN',
        tableName: 'kpi_refresh_log',
        recordId: result.refreshId,
        action: 'CREATE',
        after: result,
      });
      return ok(result);
    },
  );
}
