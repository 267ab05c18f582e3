import { sql } from 'kysely';
import type { AnomalyType, Db } from '@csp/db';
import { formatRate, retentionAlerts, shiftSettleMonth } from '@csp/domain';
import { settleMonthOfNow } from '../months.js';
import { hasRetention, refreshRetention } from '../retention/retention.repository.js';
import { readAlertSettings, type AlertSettings } from '../system-config.js';

export interface DetectResult {
  cohortMonth: string;
  horizon: number;
  /** Set when the horizon cannot be measured yet (its measure month is after the current month). */
  skipped: string | null;
  created: number;
  updated: number;
  removed: number;
  /** OPEN and REVIEWED alerts of the cohort and horizon after the detection. */
  alerts: number;
}

interface RateRow {
  scope: 'ORG' | 'AGENT';
  org_id: number;
  agent_id: number | null;
  cohort_count: number;
  retained_count: number;
  retention_rate: string;
}

async function ratesOf(db: Db, cohortMonth: string, horizon: number): Promise<RateRow[]> {
  const rows = await db
    .selectFrom('kpi_retention')
    .select(['scope', 'org_id', 'agent_id', 'cohort_count', 'retained_count', 'retention_rate'])
    .where('cohort_month', '=', cohortMonth)
    .where('horizon', '=', horizon)
    .where('scope', 'in', ['ORG', 'AGENT'])
    .execute();
  return rows as RateRow[];
}

const subjectKey = (r: { scope: string; org_id: number | null; agent_id: number | null }) => `${r.scope}:${r.agent_id ?? r.org_id}`;

/** Retention rows of a cohort, computed first when none exist and the horizon has been reached. */
async function ensureRetention(db: Db, cohortMonth: string, horizon: number, currentMonth: string): Promise<boolean> {
  if (shiftSettleMonth(cohortMonth, horizon) > currentMonth) return false;
  if (!(await hasRetention(db, cohortMonth, horizon))) await refreshRetention(db, cohortMonth, horizon);
  return true;
}

/**
 * Retention anomaly detection of one cohort and horizon (idempotent): an alert per organization or agent
 * whose rate is below the horizon's threshold (BELOW_THRESHOLD) or fell by at least the drop points from
 * the previous cohort (DROP). New alerts are created OPEN; OPEN alerts get the current figures; OPEN
 * alerts whose condition no longer holds are removed; REVIEWED alerts are never touched.
 */
export async function detectAnomalies(
  db: Db,
  cohortMonth: string,
  horizon: number,
  options: { currentMonth?: string; settings?: AlertSettings } = {},
): Promise<DetectResult> {
  const currentMonth = options.currentMonth ?? settleMonthOfNow();
  const result: DetectResult = { cohortMonth, horizon, skipped: null, created: 0, updated: 0, removed: 0, alerts: 0 };
  if (!(await ensureRetention(db, cohortMonth, horizon, currentMonth))) {
    return { ...result, skipped: `the ${horizon}-month retention of ${cohortMonth} is measured in ${shiftSettleMonth(cohortMonth, horizon)}` };
  }
  const previousMonth = shiftSettleMonth(cohortMonth, -1);
  await ensureRetention(db, previousMonth, horizon, currentMonth);
  const settings = options.settings ?? (await readAlertSettings(db));
  const previous = new Map((await ratesOf(db, previousMonth, horizon)).map((r) => [subjectKey(r), r.retention_rate]));
  const threshold = settings.threshold[horizon]!;

  const alerts = (await ratesOf(db, cohortMonth, horizon)).flatMap((r) => {
    const previousRate = previous.get(subjectKey(r)) ?? null;
    return retentionAlerts({ rate: r.retention_rate, previousRate, threshold, dropPoints: settings.dropPoints }).map((a) => ({
      cohort_month: cohortMonth,
      horizon,
      scope: r.scope,
      org_id: r.org_id,
      agent_id: r.agent_id,
      alert_type: a.type as AnomalyType,
      retention_rate: r.retention_rate,
      previous_rate: previousRate,
      threshold: a.type === 'BELOW_THRESHOLD' ? threshold : null,
      drop_points: a.dropPoints ? formatRate(a.dropPoints) : null,
      cohort_count: r.cohort_count,
      retained_count: r.retained_count,
    }));
  });

  const keep = new Set<string>();
  for (let i = 0; i < alerts.length; i += 1000) {
    const chunk = alerts.slice(i, i + 1000);
    const written = await db
      .insertInto('retention_anomaly_alert')
      .values(chunk)
      .onConflict((oc) =>
        oc
          .expression(sql`cohort_month, horizon, scope, (coalesce(agent_id, org_id)), alert_type`)
          .doUpdateSet({
            org_id: (eb) => eb.ref('excluded.org_id'),
            retention_rate: (eb) => eb.ref('excluded.retention_rate'),
            previous_rate: (eb) => eb.ref('excluded.previous_rate'),
            threshold: (eb) => eb.ref('excluded.threshold'),
            drop_points: (eb) => eb.ref('excluded.drop_points'),
            cohort_count: (eb) => eb.ref('excluded.cohort_count'),
            retained_count: (eb) => eb.ref('excluded.retained_count'),
            detected_at: sql`now()`,
            updated_at: sql`now()`,
            version: sql`retention_anomaly_alert.version + 1`,
          })
          .where('retention_anomaly_alert.status', '=', 'OPEN')
          .where(sql<boolean>`(retention_anomaly_alert.org_id, retention_anomaly_alert.retention_rate,
              retention_anomaly_alert.previous_rate, retention_anomaly_alert.threshold, retention_anomaly_alert.drop_points,
              retention_anomaly_alert.cohort_count, retention_anomaly_alert.retained_count)
            IS DISTINCT FROM (excluded.org_id, excluded.retention_rate, excluded.previous_rate, excluded.threshold,
              excluded.drop_points, excluded.cohort_count, excluded.retained_count)`),
      )
      .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
      .execute();
    for (const w of written) {
      if (w.inserted) result.created++;
      else result.updated++;
    }
    for (const a of chunk) keep.add(`${a.scope}:${a.agent_id ?? a.org_id}:${a.alert_type}`);
  }

  const open = await db
    .selectFrom('retention_anomaly_alert')
    .select(['alert_id', 'scope', 'org_id', 'agent_id', 'alert_type'])
    .where('cohort_month', '=', cohortMonth)
    .where('horizon', '=', horizon)
    .where('status', '=', 'OPEN')
    .execute();
  const stale = open.filter((a) => !keep.has(`${a.scope}:${a.agent_id ?? a.org_id}:${a.alert_type}`)).map((a) => a.alert_id);
  if (stale.length > 0) {
    await db.deleteFrom('retention_anomaly_alert').where('alert_id', 'in', stale).execute();
    result.removed = stale.length;
  }
  const total = await db
    .selectFrom('retention_anomaly_alert')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('cohort_month', '=', cohortMonth)
    .where('horizon', '=', horizon)
    .executeTakeFirstOrThrow();
  result.alerts = Number(total.n);
  return result;
}
