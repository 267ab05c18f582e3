import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { januaryOf } from '../months.js';

/**
 * kpi_cumulative of a month: year-to-date sums (January to the month) per agent from kpi_agent_monthly
 * and per organization (already rolled up) from kpi_org_monthly. An agent's organization and grade are
 * those of its latest month in the range.
 */
export async function refreshCumulative(db: Db, settleMonth: string, refreshId: number): Promise<number> {
  const from = januaryOf(settleMonth);
  const agents = await sql`
    INSERT INTO kpi_cumulative AS k (
      settle_month, scope, org_id, agent_id, grade_id, months_count, new_contracts, new_premium, recruit_total,
      maintain_total, override_total, other_total, correction_total, exception_plus_total, exception_minus_total,
      chargeback_total, gross_total, tax_total, net_total, refresh_id)
    SELECT ${settleMonth}, 'AGENT', (array_agg(org_id ORDER BY settle_month DESC))[1], agent_id,
           (array_agg(grade_id ORDER BY settle_month DESC))[1], count(*)::int, sum(new_contracts)::int,
           sum(new_premium), sum(recruit_amount), sum(maintain_amount), sum(override_amount), sum(other_amount),
           sum(correction_amount), sum(exception_plus), sum(exception_minus), sum(chargeback_amount),
           sum(gross_amount), sum(tax_amount), sum(net_amount), ${refreshId}
      FROM kpi_agent_monthly
     WHERE settle_month BETWEEN ${from} AND ${settleMonth}
     GROUP BY agent_id
    ON CONFLICT (settle_month, scope, (coalesce(agent_id, org_id))) DO UPDATE SET
      org_id = excluded.org_id, grade_id = excluded.grade_id, months_count = excluded.months_count,
      new_contracts = excluded.new_contracts, new_premium = excluded.new_premium,
      recruit_total = excluded.recruit_total, maintain_total = excluded.maintain_total,
      override_total = excluded.override_total, other_total = excluded.other_total,
      correction_total = excluded.correction_total, exception_plus_total = excluded.exception_plus_total,
      exception_minus_total = excluded.exception_minus_total, chargeback_total = excluded.chargeback_total,
      gross_total = excluded.gross_total, tax_total = excluded.tax_total, net_total = excluded.net_total,
      refresh_id = excluded.refresh_id`.execute(db);
  const orgs = await sql`
    INSERT INTO kpi_cumulative AS k (
      settle_month, scope, org_id, agent_id, grade_id, months_count, new_contracts, new_premium, recruit_total,
      maintain_total, override_total, other_total, correction_total, exception_plus_total, exception_minus_total,
      chargeback_total, gross_total, tax_total, net_total, refresh_id)
    SELECT ${settleMonth}, 'ORG', org_id, NULL, NULL, count(*)::int, sum(new_contracts)::int, sum(new_premium),
           sum(recruit_total), sum(maintain_total), sum(override_total), sum(other_total), sum(correction_total),
           sum(exception_plus_total), sum(exception_minus_total), sum(chargeback_total), sum(gross_total),
           sum(tax_total), sum(net_total), ${refreshId}
      FROM kpi_org_monthly
     WHERE settle_month BETWEEN ${from} AND ${settleMonth}
     GROUP BY org_id
    ON CONFLICT (settle_month, scope, (coalesce(agent_id, org_id))) DO UPDATE SET
      months_count = excluded.months_count, new_contracts = excluded.new_contracts,
      new_premium = excluded.new_premium, recruit_total = excluded.recruit_total,
      maintain_total = excluded.maintain_total, override_total = excluded.override_total,
      other_total = excluded.other_total, correction_total = excluded.correction_total,
      exception_plus_total = excluded.exception_plus_total, exception_minus_total = excluded.exception_minus_total,
      chargeback_total = excluded.chargeback_total, gross_total = excluded.gross_total,
      tax_total = excluded.tax_total, net_total = excluded.net_total, refresh_id = excluded.refresh_id`.execute(db);
  await db.deleteFrom('kpi_cumulative').where('settle_month', '=', settleMonth).where('refresh_id', '<>', refreshId).execute();
  return Number(agents.numAffectedRows ?? 0n) + Number(orgs.numAffectedRows ?? 0n);
}

/**
 * Later months of the same year that already have KPIs: their year-to-date rows include this month,
 * so they are recomputed from the stored monthly rows (nothing else of those months changes).
 */
export async function laterMonthsOfYear(db: Db, settleMonth: string): Promise<string[]> {
  const rows = await db
    .selectFrom('kpi_monthly')
    .select('settle_month')
    .where('settle_month', '>', settleMonth)
    .where('settle_month', '<=', `${settleMonth.slice(0, 4)}12`)
    .orderBy('settle_month')
    .execute();
  return rows.map((r) => r.settle_month);
}
