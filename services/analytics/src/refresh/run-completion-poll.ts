import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { refreshMonth, type RefreshResult } from './refresh.service.js';

/** batch_job_log.job_name of the monthly settlement (packages/batch SETTLEMENT_JOB_NAME). */
const SETTLEMENT_JOB = 'SETTLEMENT';
/** A FAILED refresh of a run is tried this often in all. */
export const MAX_RUN_REFRESH_ATTEMPTS = 3;
/** A RUNNING claim older than this belongs to a process that died: it may be taken over. */
const STALE_CLAIM = '30 minutes';

export interface PollLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The hook on settlement run completion until the events mechanism exists: COMPLETED settlement runs
 * (batch_job_log run rows) that have no kpi_refresh_log row yet, or whose refresh failed fewer than
 * MAX_RUN_REFRESH_ATTEMPTS times, are claimed (the unique run_id of kpi_refresh_log decides between
 * instances) and their month refreshed, oldest run first. Idempotent: a run is refreshed once.
 */
export async function refreshCompletedRuns(db: Db, logger?: PollLogger, limit = 10): Promise<RefreshResult[]> {
  const { rows: runs } = await sql<{ job_log_id: number; settle_month: string }>`
    SELECT r.job_log_id, r.settle_month
      FROM batch_job_log r
     WHERE r.step_name IS NULL AND r.job_name = ${SETTLEMENT_JOB} AND r.status = 'COMPLETED'
       AND NOT EXISTS (
         SELECT 1 FROM kpi_refresh_log k
          WHERE k.run_id = r.job_log_id
            AND (k.status = 'COMPLETED'
                 OR (k.status = 'RUNNING' AND k.started_at > now() - ${STALE_CLAIM}::interval)
                 OR k.attempts >= ${MAX_RUN_REFRESH_ATTEMPTS}))
     ORDER BY r.ended_at NULLS FIRST, r.job_log_id
     LIMIT ${limit}`.execute(db);
  const results: RefreshResult[] = [];
  for (const run of runs) {
    const claim = await claimRun(db, run.job_log_id, run.settle_month);
    if (claim === undefined) continue;
    try {
      const result = await refreshMonth(db, { settleMonth: run.settle_month, trigger: 'RUN', runId: run.job_log_id, refreshId: claim });
      logger?.info({ runId: run.job_log_id, ...result }, 'KPIs refreshed after a settlement run');
      results.push(result);
    } catch (err) {
      logger?.error({ err, runId: run.job_log_id, settleMonth: run.settle_month }, 'KPI refresh after a settlement run failed');
    }
  }
  return results;
}

/** The refresh_id of a new or taken-over claim on the run, undefined when another instance holds it. */
async function claimRun(db: Db, runId: number, settleMonth: string): Promise<number | undefined> {
  const { rows } = await sql<{ refresh_id: number }>`
    INSERT INTO kpi_refresh_log (settle_month, trigger_type, run_id, status)
    VALUES (${settleMonth}, 'RUN', ${runId}, 'RUNNING')
    ON CONFLICT (run_id) WHERE run_id IS NOT NULL DO UPDATE
       SET status = 'RUNNING', attempts = kpi_refresh_log.attempts + 1, started_at = now(), ended_at = NULL,
           error_message = NULL
     WHERE kpi_refresh_log.attempts < ${MAX_RUN_REFRESH_ATTEMPTS}
       AND (kpi_refresh_log.status = 'FAILED'
            OR (kpi_refresh_log.status = 'RUNNING' AND kpi_refresh_log.started_at <= now() - ${STALE_CLAIM}::interval))
    RETURNING refresh_id`.execute(db);
  return rows[0]?.refresh_id;
}

export interface RunPoll {
  /** Waits for a poll in progress, then stops. */
  stop(): Promise<void>;
}

/** Polls every `intervalMs` (no overlapping polls); errors are logged, never thrown. */
export function startRunPoll(db: Db, intervalMs: number, logger: PollLogger): RunPoll {
  let current: Promise<unknown> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    current = refreshCompletedRuns(db, logger)
      .catch((err: unknown) => logger.error({ err }, 'settlement run poll failed'))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await current;
    },
  };
}
