import { sql } from 'kysely';
import type { Db, KpiRefreshTrigger } from '@csp/db';
import { shiftSettleMonth } from '@csp/domain';
import { detectAnomalies } from '../anomalies/anomaly.service.js';
import { recordForecastActuals } from '../forecast/forecast.service.js';
import { refreshRetention } from '../retention/retention.repository.js';
import { refreshAgentKpi } from './agent-kpi.repository.js';
import { laterMonthsOfYear, refreshCumulative } from './cumulative.repository.js';
import { refreshExposure } from './exposure.repository.js';
import { refreshMonthlyKpi, refreshOrgKpi } from './org-kpi.repository.js';

/** Second key of the advisory lock: refreshes of one month wait for each other. */
const LOCK_NAMESPACE = 70_106;

export interface RefreshRequest {
  settleMonth: string;
  trigger: KpiRefreshTrigger;
  /** The settlement run (RUN) whose completion asked for it. */
  runId?: number;
  userId?: number | null;
  /** A kpi_refresh_log row already claimed (the run poll claims before it refreshes). */
  refreshId?: number;
}

export interface RefreshResult {
  refreshId: number;
  settleMonth: string;
  agentRows: number;
  orgRows: number;
  exposureRows: number;
  retentionRows: number;
  alertRows: number;
  /** Later months of the same year whose year-to-date rows were recomputed. */
  cumulativeMonths: string[];
  /** Milliseconds per part of the refresh (agents, exposure, orgs, monthly, cumulative, retention, forecast). */
  timings: Record<string, number>;
  durationMs: number;
}

/**
 * Refreshes every KPI of one settle month in one transaction (readers see the previous figures until it
 * commits): agent rows, chargeback exposure, organization roll-ups, the agency row, year-to-date rows,
 * the retention of the cohorts measured in the month (13 and 25 months back) with their anomaly
 * detection, and the actuals of forecasts for the month. Only that month's rows are replaced (plus the
 * year-to-date rows of later months of the year, which include it). The kpi_refresh_log row records
 * the outcome, also a failure.
 */
export async function refreshMonth(db: Db, request: RefreshRequest): Promise<RefreshResult> {
  const { settleMonth } = request;
  const started = Date.now();
  const refreshId =
    request.refreshId ??
    (
      await db
        .insertInto('kpi_refresh_log')
        .values({
          settle_month: settleMonth,
          trigger_type: request.trigger,
          run_id: request.runId ?? null,
          requested_by: request.userId ?? null,
        })
        .returning('refresh_id')
        .executeTakeFirstOrThrow()
    ).refresh_id;
  try {
    const timings: Record<string, number> = {};
    const timed = async <T>(part: string, work: () => Promise<T>): Promise<T> => {
      const t0 = Date.now();
      const result = await work();
      timings[part] = (timings[part] ?? 0) + Date.now() - t0;
      return result;
    };
    const counts = await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}, ${Number(settleMonth)})`.execute(trx);
      // The exposure aggregates every ledger row of the book: let its hash tables stay in memory.
      await sql`SET LOCAL work_mem = '64MB'`.execute(trx);
      const agentRows = await timed('agents', () => refreshAgentKpi(trx, settleMonth, refreshId));
      const exposureRows = await timed('exposure', () => refreshExposure(trx, settleMonth, refreshId));
      const orgRows = await timed('orgs', () => refreshOrgKpi(trx, settleMonth, refreshId));
      await timed('monthly', () => refreshMonthlyKpi(trx, settleMonth, refreshId));
      const cumulativeMonths = await laterMonthsOfYear(trx, settleMonth);
      for (const month of [settleMonth, ...cumulativeMonths]) await timed('cumulative', () => refreshCumulative(trx, month, refreshId));
      let retentionRows = 0;
      let alertRows = 0;
      for (const horizon of [13, 25]) {
        const cohort = shiftSettleMonth(settleMonth, -horizon);
        retentionRows += await timed('retention', () => refreshRetention(trx, cohort, horizon));
        const detected = await timed('anomalies', () => detectAnomalies(trx, cohort, horizon, { currentMonth: settleMonth }));
        alertRows += detected.alerts;
      }
      await timed('forecast', () => recordForecastActuals(trx, settleMonth));
      return { agentRows, exposureRows, orgRows, retentionRows, alertRows, cumulativeMonths };
    });
    const durationMs = Date.now() - started;
    await db
      .updateTable('kpi_refresh_log')
      .set({
        status: 'COMPLETED',
        agent_rows: counts.agentRows,
        org_rows: counts.orgRows,
        exposure_rows: counts.exposureRows,
        retention_rows: counts.retentionRows,
        alert_rows: counts.alertRows,
        error_message: null,
        ended_at: sql`now()`,
        duration_ms: durationMs,
      })
      .where('refresh_id', '=', refreshId)
      .execute();
    return { refreshId, settleMonth, ...counts, timings, durationMs };
  } catch (err) {
    await db
      .updateTable('kpi_refresh_log')
      .set({
        status: 'FAILED',
        error_message: err instanceof Error ? err.message.slice(0, 2000) : String(err),
        ended_at: sql`now()`,
        duration_ms: Date.now() - started,
      })
      .where('refresh_id', '=', refreshId)
      .execute();
    throw err;
  }
}
