import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { createServiceApp, type CreateServiceAppOptions, type ServiceApp } from '@csp/service-kit';
import { registerAnomalyRoutes, registerForecastRoutes, registerKpiRoutes, registerReportRoutes } from './areas.js';
import { startRunPoll, type RunPoll } from './refresh/run-completion-poll.js';

export const SERVICE_NAME = 'analytics';

/** KPI_REFRESH_POLL_MS: how often completed settlement runs are looked for (0 turns the poll off). */
export const analyticsEnv = z.object({
  KPI_REFRESH_POLL_MS: z.coerce.number().int().min(0).default(15_000),
});

export interface AnalyticsDeps {
  config: CreateServiceAppOptions['config'];
  db: CreateServiceAppOptions['db'];
  pool: CreateServiceAppOptions['pool'];
  redis: CreateServiceAppOptions['redis'];
  logger?: FastifyBaseLogger;
  /** Poll interval of the settlement-run hook; default from KPI_REFRESH_POLL_MS (tests pass 0). */
  pollIntervalMs?: number;
}

/**
 * The analytics app: kit infrastructure, then reports, KPIs, retention anomalies and forecasts; and
 * the hook that refreshes a month's KPIs when its settlement run completes (a poll of batch_job_log
 * until the events mechanism exists).
 */
export async function buildApp(deps: AnalyticsDeps): Promise<ServiceApp> {
  const { pollIntervalMs, ...kit } = deps;
  const app = await createServiceApp({ name: SERVICE_NAME, ...kit });
  await registerReportRoutes(app);
  await registerKpiRoutes(app);
  await registerAnomalyRoutes(app);
  await registerForecastRoutes(app);
  const interval = pollIntervalMs ?? analyticsEnv.parse(process.env).KPI_REFRESH_POLL_MS;
  if (interval > 0) {
    let poll: RunPoll | undefined;
    app.addHook('onReady', async () => {
      poll = startRunPoll(app.db, interval, app.log.child({ component: 'kpi-run-poll' }));
    });
    app.addHook('onClose', async () => poll?.stop());
  }
  return app;
}
