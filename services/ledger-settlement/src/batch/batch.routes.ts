import {
  BatchRunningError,
  JobIdCollisionError,
  RunNotFoundError,
  RunStateError,
  describeRun,
  failRun,
  launchRun,
  listRuns,
  restartRun,
} from '@csp/batch';
import { ensureMonthPartitions } from '@csp/db';
import { action, AppError, envelope, notFound, ok, pageResponse, perm, type ServiceApp } from '@csp/service-kit';
import { z } from 'zod';
import type { AreaDeps } from '../areas.js';
import {
  failBody,
  runIdParams,
  runQuery,
  runResp,
  runsQuery,
  statusQuery,
  statusResp,
  toRunResp,
  toStepResp,
  toWatchdogResp,
} from './batch.schemas.js';
import { startBatchWatchdog, watchdogConfig } from './batch.watchdog.js';
import { registerOpsActionLog } from './ops-actions.routes.js';

const tags = ['Batch'];
const MENU = 'BATCH_RUN';

/** The batch package's errors in the spec's codes: B010, E404, and E400 saying which state is needed. */
function toAppError(err: unknown, stateRule: string): unknown {
  if (err instanceof BatchRunningError) {
    return new AppError('BATCH_RUNNING', 'A settlement run is already requested or running');
  }
  if (err instanceof RunNotFoundError) return notFound(`Batch run ${err.runId}`);
  if (err instanceof JobIdCollisionError) return new AppError('INTERNAL_ERROR', err.message);
  if (err instanceof RunStateError) {
    return new AppError('BAD_REQUEST', `Batch run ${err.runId} is ${err.status}: ${stateRule}`);
  }
  return err;
}

async function mapped<T>(work: () => Promise<T>, stateRule = ''): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw toAppError(err, stateRule);
  }
}

/** Monthly settlement run API (spec 1.3, 4.5). One REQUESTED/RUNNING run at a time, decided by PostgreSQL. */
export async function registerBatchRoutes(app: ServiceApp, { queues }: AreaDeps): Promise<void> {
  const watchdog = watchdogConfig();
  startBatchWatchdog(app, queues, watchdog);
  await registerOpsActionLog(app);

  app.post(
    '/api/batch/settlement/run',
    {
      config: perm(MENU, 'APPROVE'),
      schema: {
        tags,
        summary: 'Request a settlement run; data = job log id (B010 while a run is in progress)',
        querystring: runQuery,
        response: { 200: envelope(z.number().int()) },
      },
    },
    async (request) => {
      // the month's partitions exist before step 1 writes (issue 27; calcRecruit's plan makes sure again)
      await ensureMonthPartitions(app.db, request.query.settleMonth);
      const run = await mapped(() =>
        launchRun(app.db, queues, {
          settleMonth: request.query.settleMonth,
          companyCode: request.query.companyCode ?? null,
          requestedBy: request.user?.userId ?? null,
          requestId: request.id,
        }),
      );
      request.changeLog({
        menuCode: MENU,
        tableName: 'batch_job_log',
        recordId: run.jobLogId,
        action: 'CREATE',
        after: toRunResp(run),
      });
      return ok(Number(run.jobLogId));
    },
  );

  app.get(
    '/api/batch/settlement/status',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary:
          'A run with its step rows (counts, progress, rate, time left), live workers per step and the watchdog; without jobLogId the latest run',
        querystring: statusQuery,
        response: { 200: envelope(statusResp) },
      },
    },
    async (request) => {
      let runId = request.query.jobLogId;
      if (runId === undefined) {
        const latest = await listRuns(app.db, { pageSize: 1 });
        if (latest.list.length === 0) throw notFound('Batch run');
        runId = Number(latest.list[0]!.jobLogId);
      }
      const status = await describeRun(app.db, queues, runId, { watchdog: watchdog.settings, logger: request.log });
      if (!status) throw notFound(`Batch run ${runId}`);
      return ok({
        run: toRunResp(status.run),
        steps: status.steps.map((s) => toStepResp(s, status.workers)),
        workers: status.workers,
        watchdog: toWatchdogResp(status.watchdog),
      });
    },
  );

  app.get(
    '/api/batch/settlement/runs',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: 'Run history, newest first',
        querystring: runsQuery,
        response: { 200: pageResponse(runResp) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await listRuns(app.db, {
        pageNum: q.pageNum,
        pageSize: q.pageSize,
        ...(q.settleMonth ? { settleMonth: q.settleMonth } : {}),
        ...(q.status ? { status: q.status } : {}),
      });
      return ok({ ...page, list: page.list.map(toRunResp) });
    },
  );

  action(
    app,
    '/api/batch/settlement/:id/restart',
    {
      config: perm(MENU, 'APPROVE'),
      schema: {
        tags,
        summary: 'Restart a FAILED run (or one the watchdog reports stalled) from its first unfinished step (other states: E400)',
        params: runIdParams,
        response: { 200: envelope(z.number().int()) },
      },
    },
    async (request) => {
      const run = await mapped(
        () => restartRun(app.db, queues, request.params.id, { requestId: request.id }),
        'only a FAILED run, or one the watchdog reports stalled, can be restarted',
      );
      request.changeLog({
        menuCode: MENU,
        tableName: 'batch_job_log',
        recordId: run.jobLogId,
        action: 'UPDATE',
        after: toRunResp(run),
      });
      return ok(Number(run.jobLogId));
    },
  );

  action(
    app,
    '/api/batch/settlement/:id/fail',
    {
      config: perm(MENU, 'APPROVE'),
      schema: {
        tags,
        summary: 'Operator: mark a stuck REQUESTED/RUNNING run FAILED (then it can be restarted)',
        params: runIdParams,
        body: failBody,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const run = await mapped(
        () => failRun(app.db, request.params.id, request.body.reason),
        'only a REQUESTED or RUNNING run can be marked FAILED',
      );
      request.changeLog({
        menuCode: MENU,
        tableName: 'batch_job_log',
        recordId: run.jobLogId,
        action: 'UPDATE',
        after: toRunResp(run),
      });
      return ok();
    },
  );
}
