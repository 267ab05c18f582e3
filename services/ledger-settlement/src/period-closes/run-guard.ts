import type { FastifyRequest } from 'fastify';
import type { ServiceApp } from '@csp/service-kit';
import { assertMonthOpen } from './month-guard.js';

/** The batch routes that start (or restart) a run of a month. */
const RUN_ROUTES = new Set(['/api/batch/settlement/run', '/api/batch/settlement/:id/restart']);

async function monthOf(app: ServiceApp, request: FastifyRequest): Promise<string | undefined> {
  const url = request.routeOptions.url;
  if (url === '/api/batch/settlement/run') {
    const month = (request.query as { settleMonth?: unknown } | undefined)?.settleMonth;
    return typeof month === 'string' ? month : undefined;
  }
  const id = Number((request.params as { id?: unknown } | undefined)?.id);
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const run = await app.db
    .selectFrom('batch_job_log')
    .select('settle_month')
    .where('job_log_id', '=', id)
    .where('step_name', 'is', null)
    .executeTakeFirst();
  return run?.settle_month ?? undefined;
}

/**
 * A CLOSED month refuses batch runs with B001 naming the month (DECISIONS "Settlement lifecycle"). Added on
 * the service root, so it sees the batch area's routes after their own validation; the batch_job_log
 * trigger of V080 refuses such a run even when it is requested around the API.
 */
export function registerClosedMonthRunGuard(app: ServiceApp): void {
  app.addHook('preHandler', async (request) => {
    if (!RUN_ROUTES.has(request.routeOptions.url ?? '')) return;
    const month = await monthOf(app, request);
    if (month) await assertMonthOpen(app.db, month, 'a settlement run');
  });
}
