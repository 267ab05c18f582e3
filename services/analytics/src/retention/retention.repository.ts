import { sql } from 'kysely';
import type { Db, RetentionScope } from '@csp/db';
import { formatRate, retentionRate, shiftSettleMonth } from '@csp/domain';
import { monthBounds } from '../months.js';
import { orgTreeCte } from '../org-tree.js';

/** DECISIONS: per-agent retention only for agents with at least this many contracts in the cohort. */
export const AGENT_MIN_COHORT = 10;

interface CohortCount {
  scope: RetentionScope;
  org_id: number | null;
  agent_id: number | null;
  cohort_count: number;
  retained_count: number;
}

/**
 * Counts of a cohort (contracts dated in the cohort month) and of those in force on their checkpoint
 * (contract date + horizon months, clamped like addMonths): in total, per organization rolled up the
 * tree, and per agent with at least AGENT_MIN_COHORT contracts (with the agent's organization).
 * "In force" is analytics' inForceOn, written in SQL (test/retention-sql.test.ts proves they agree).
 */
export async function countCohort(db: Db, cohortMonth: string, horizon: number): Promise<CohortCount[]> {
  const { first, last } = monthBounds(cohortMonth);
  const { rows } = await sql<CohortCount>`
    WITH RECURSIVE ${orgTreeCte},
    cohort AS (
      SELECT c.agent_id, a.org_id,
             (c.status <> 'TERMINATE'
              AND NOT (c.lapse_date IS NOT NULL AND c.lapse_date <= x.checkpoint
                       AND NOT (c.revival_date IS NOT NULL AND c.revival_date >= c.lapse_date
                                AND c.revival_date <= x.checkpoint))) AS retained
        FROM contract c
        JOIN agent a ON a.agent_id = c.agent_id
        CROSS JOIN LATERAL (SELECT (c.contract_date + make_interval(months => ${horizon}::int))::date AS checkpoint) x
       WHERE c.contract_date BETWEEN ${first}::date AND ${last}::date
    ), by_agent AS (
      SELECT agent_id, org_id, count(*)::int AS n, (count(*) FILTER (WHERE retained))::int AS r
        FROM cohort GROUP BY agent_id, org_id
    ), by_org AS (
      SELECT org_id, sum(n) AS n, sum(r) AS r FROM by_agent GROUP BY org_id
    )
    SELECT 'TOTAL' AS scope, NULL::bigint AS org_id, NULL::bigint AS agent_id,
           sum(n)::int AS cohort_count, sum(r)::int AS retained_count
      FROM by_agent HAVING count(*) > 0
    UNION ALL
    SELECT 'ORG', t.ancestor_id, NULL, sum(b.n)::int, sum(b.r)::int
      FROM org_tree t JOIN by_org b ON b.org_id = t.org_id
     GROUP BY t.ancestor_id
    UNION ALL
    SELECT 'AGENT', org_id, agent_id, n, r FROM by_agent WHERE n >= ${AGENT_MIN_COHORT}`.execute(db);
  return rows;
}

/**
 * Replaces the kpi_retention rows of one cohort and horizon; the rate of each row is the domain's
 * retentionRate. Returns the number of rows written.
 */
export async function refreshRetention(db: Db, cohortMonth: string, horizon: number): Promise<number> {
  const counts = await countCohort(db, cohortMonth, horizon);
  await db.deleteFrom('kpi_retention').where('cohort_month', '=', cohortMonth).where('horizon', '=', horizon).execute();
  const measureMonth = shiftSettleMonth(cohortMonth, horizon);
  const rows = counts.map((c) => ({
    cohort_month: cohortMonth,
    horizon,
    measure_month: measureMonth,
    scope: c.scope,
    org_id: c.org_id,
    agent_id: c.agent_id,
    cohort_count: c.cohort_count,
    retained_count: c.retained_count,
    retention_rate: formatRate(retentionRate(c.retained_count, c.cohort_count)),
  }));
  for (let i = 0; i < rows.length; i += 1000) {
    await db.insertInto('kpi_retention').values(rows.slice(i, i + 1000)).execute();
  }
  return rows.length;
}

/** Whether retention rows of the cohort and horizon exist. */
export async function hasRetention(db: Db, cohortMonth: string, horizon: number): Promise<boolean> {
  const row = await db
    .selectFrom('kpi_retention')
    .select('retention_id')
    .where('cohort_month', '=', cohortMonth)
    .where('horizon', '=', horizon)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
