import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { orgTreeCte } from '../org-tree.js';

/**
 * kpi_org_monthly of a month: for every organization the sums of the agent rows and exposure rows of
 * its whole subtree (org_tree), read from the month's kpi_agent_monthly and kpi_chargeback_exposure.
 * Average net per agent = round(net / agents settled, 2) HALF_UP, 0 without settled agents.
 */
export async function refreshOrgKpi(db: Db, settleMonth: string, refreshId: number): Promise<number> {
  const result = await sql`
    WITH RECURSIVE ${orgTreeCte},
    a AS (
      SELECT org_id,
             count(*) FILTER (WHERE settled) AS settled,
             count(*) FILTER (WHERE settled AND gross_amount > 0) AS paid,
             sum(new_contracts) AS new_contracts, sum(new_premium) AS new_premium,
             sum(recruit_amount) AS recruit, sum(maintain_amount) AS maintain, sum(override_amount) AS override,
             sum(other_amount) AS other, sum(correction_amount) AS correction,
             sum(exception_plus) AS plus, sum(exception_minus) AS minus, sum(chargeback_amount) AS chargeback,
             sum(gross_amount) AS gross, sum(tax_amount) AS tax, sum(net_amount) AS net
        FROM kpi_agent_monthly WHERE settle_month = ${settleMonth}
       GROUP BY org_id
    ), e AS (
      SELECT org_id, sum(exposure_amount) AS exposure, sum(installments_due_count) AS due_n,
             sum(installments_due_amount) AS due_amount
        FROM kpi_chargeback_exposure WHERE settle_month = ${settleMonth}
       GROUP BY org_id
    ), rolled AS (
      SELECT t.ancestor_id AS org_id,
             coalesce(sum(a.settled), 0)::int AS settled, coalesce(sum(a.paid), 0)::int AS paid,
             coalesce(sum(a.new_contracts), 0)::int AS new_contracts, coalesce(sum(a.new_premium), 0) AS new_premium,
             coalesce(sum(a.recruit), 0) AS recruit, coalesce(sum(a.maintain), 0) AS maintain,
             coalesce(sum(a.override), 0) AS override, coalesce(sum(a.other), 0) AS other,
             coalesce(sum(a.correction), 0) AS correction, coalesce(sum(a.plus), 0) AS plus,
             coalesce(sum(a.minus), 0) AS minus, coalesce(sum(a.chargeback), 0) AS chargeback,
             coalesce(sum(a.gross), 0) AS gross, coalesce(sum(a.tax), 0) AS tax, coalesce(sum(a.net), 0) AS net,
             coalesce(sum(e.exposure), 0) AS exposure, coalesce(sum(e.due_n), 0)::int AS due_n,
             coalesce(sum(e.due_amount), 0) AS due_amount
        FROM org_tree t
        LEFT JOIN a ON a.org_id = t.org_id
        LEFT JOIN e ON e.org_id = t.org_id
       GROUP BY t.ancestor_id
    )
    INSERT INTO kpi_org_monthly AS k (
      settle_month, org_id, parent_org_id, org_type, org_level, agents_settled, agents_paid, new_contracts,
      new_premium, recruit_total, maintain_total, override_total, other_total, correction_total,
      exception_plus_total, exception_minus_total,
      chargeback_total, gross_total, tax_total, net_total, avg_net_per_agent, exposure_amount,
      installments_due_count, installments_due_amount, refresh_id)
    SELECT ${settleMonth}, o.org_id, o.parent_org_id, o.org_type, o.org_level, r.settled, r.paid, r.new_contracts,
           r.new_premium, r.recruit, r.maintain, r.override, r.other, r.correction, r.plus, r.minus, r.chargeback, r.gross, r.tax, r.net,
           CASE WHEN r.settled > 0 THEN round(r.net / r.settled, 2) ELSE 0 END,
           r.exposure, r.due_n, r.due_amount, ${refreshId}
      FROM rolled r JOIN organization o ON o.org_id = r.org_id
    ON CONFLICT (settle_month, org_id) DO UPDATE SET
      parent_org_id = excluded.parent_org_id, org_type = excluded.org_type, org_level = excluded.org_level,
      agents_settled = excluded.agents_settled, agents_paid = excluded.agents_paid,
      new_contracts = excluded.new_contracts, new_premium = excluded.new_premium,
      recruit_total = excluded.recruit_total, maintain_total = excluded.maintain_total,
      override_total = excluded.override_total, other_total = excluded.other_total,
      correction_total = excluded.correction_total, exception_plus_total = excluded.exception_plus_total,
      exception_minus_total = excluded.exception_minus_total, chargeback_total = excluded.chargeback_total,
      gross_total = excluded.gross_total, tax_total = excluded.tax_total, net_total = excluded.net_total,
      avg_net_per_agent = excluded.avg_net_per_agent, exposure_amount = excluded.exposure_amount,
      installments_due_count = excluded.installments_due_count,
      installments_due_amount = excluded.installments_due_amount, refresh_id = excluded.refresh_id`.execute(db);
  await db.deleteFrom('kpi_org_monthly').where('settle_month', '=', settleMonth).where('refresh_id', '<>', refreshId).execute();
  return Number(result.numAffectedRows ?? 0n);
}

/** kpi_monthly of a month: the agency's sums of the month's agent rows. */
export async function refreshMonthlyKpi(db: Db, settleMonth: string, refreshId: number): Promise<void> {
  await sql`
    INSERT INTO kpi_monthly AS k (
      settle_month, agents_settled, agents_paid, new_contracts, new_premium, recruit_total, maintain_total,
      override_total, other_total, correction_total, exception_plus_total, exception_minus_total, chargeback_total, gross_total, tax_total,
      net_total, avg_net_per_agent, refresh_id, refreshed_at)
    SELECT ${settleMonth}, s.settled, s.paid, s.new_contracts, s.new_premium, s.recruit, s.maintain, s.override,
           s.other, s.correction, s.plus, s.minus, s.chargeback, s.gross, s.tax, s.net,
           CASE WHEN s.settled > 0 THEN round(s.net / s.settled, 2) ELSE 0 END, ${refreshId}, now()
      FROM (
        SELECT count(*) FILTER (WHERE settled)::int AS settled,
               count(*) FILTER (WHERE settled AND gross_amount > 0)::int AS paid,
               coalesce(sum(new_contracts), 0)::int AS new_contracts, coalesce(sum(new_premium), 0) AS new_premium,
               coalesce(sum(recruit_amount), 0) AS recruit, coalesce(sum(maintain_amount), 0) AS maintain,
               coalesce(sum(override_amount), 0) AS override, coalesce(sum(other_amount), 0) AS other,
               coalesce(sum(correction_amount), 0) AS correction, coalesce(sum(exception_plus), 0) AS plus,
               coalesce(sum(exception_minus), 0) AS minus, coalesce(sum(chargeback_amount), 0) AS chargeback,
               coalesce(sum(gross_amount), 0) AS gross, coalesce(sum(tax_amount), 0) AS tax,
               coalesce(sum(net_amount), 0) AS net
          FROM kpi_agent_monthly WHERE settle_month = ${settleMonth}) s
    ON CONFLICT (settle_month) DO UPDATE SET
      agents_settled = excluded.agents_settled, agents_paid = excluded.agents_paid,
      new_contracts = excluded.new_contracts, new_premium = excluded.new_premium,
      recruit_total = excluded.recruit_total, maintain_total = excluded.maintain_total,
      override_total = excluded.override_total, other_total = excluded.other_total,
      correction_total = excluded.correction_total, exception_plus_total = excluded.exception_plus_total,
      exception_minus_total = excluded.exception_minus_total, chargeback_total = excluded.chargeback_total,
      gross_total = excluded.gross_total, tax_total = excluded.tax_total, net_total = excluded.net_total,
      avg_net_per_agent = excluded.avg_net_per_agent, refresh_id = excluded.refresh_id,
      refreshed_at = excluded.refreshed_at`.execute(db);
}
