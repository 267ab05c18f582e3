import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { monthBounds } from '../months.js';

/**
 * kpi_agent_monthly of a month: every agent with a settle_master row of the month or a contract dated
 * in it; settlement figures from settle_master, new business from contract; organization and grade as
 * they are now. Upserted and stamped with the refresh; rows of the month it did not write are removed.
 */
export async function refreshAgentKpi(db: Db, settleMonth: string, refreshId: number): Promise<number> {
  const { first, last } = monthBounds(settleMonth);
  const result = await sql`
    WITH sm AS (
      SELECT agent_id, status, recruit_total, maintain_total, override_total, other_total, correction_total,
             exception_plus, exception_minus,
             chargeback_total, gross_amount, tax_amount, net_amount
        FROM settle_master WHERE settle_month = ${settleMonth}
    ), nc AS (
      SELECT agent_id, count(*)::int AS n, sum(premium) AS premium
        FROM contract WHERE contract_date BETWEEN ${first}::date AND ${last}::date
       GROUP BY agent_id
    ), ids AS (
      SELECT agent_id FROM sm UNION SELECT agent_id FROM nc
    )
    INSERT INTO kpi_agent_monthly AS k (
      settle_month, agent_id, org_id, grade_id, settled, settle_status, new_contracts, new_premium,
      recruit_amount, maintain_amount, override_amount, other_amount, correction_amount, exception_plus,
      exception_minus, chargeback_amount, gross_amount, tax_amount, net_amount, refresh_id)
    SELECT ${settleMonth}, a.agent_id, a.org_id, a.grade_id, sm.agent_id IS NOT NULL, sm.status,
           coalesce(nc.n, 0), coalesce(nc.premium, 0),
           coalesce(sm.recruit_total, 0), coalesce(sm.maintain_total, 0), coalesce(sm.override_total, 0),
           coalesce(sm.other_total, 0), coalesce(sm.correction_total, 0),
           coalesce(sm.exception_plus, 0), coalesce(sm.exception_minus, 0), coalesce(sm.chargeback_total, 0),
           coalesce(sm.gross_amount, 0), coalesce(sm.tax_amount, 0), coalesce(sm.net_amount, 0), ${refreshId}
      FROM ids
      JOIN agent a ON a.agent_id = ids.agent_id
      LEFT JOIN sm ON sm.agent_id = ids.agent_id
      LEFT JOIN nc ON nc.agent_id = ids.agent_id
    ON CONFLICT (settle_month, agent_id) DO UPDATE SET
      org_id = excluded.org_id, grade_id = excluded.grade_id, settled = excluded.settled,
      settle_status = excluded.settle_status, new_contracts = excluded.new_contracts,
      new_premium = excluded.new_premium, recruit_amount = excluded.recruit_amount,
      maintain_amount = excluded.maintain_amount, override_amount = excluded.override_amount,
      other_amount = excluded.other_amount, correction_amount = excluded.correction_amount,
      exception_plus = excluded.exception_plus, exception_minus = excluded.exception_minus,
      chargeback_amount = excluded.chargeback_amount, gross_amount = excluded.gross_amount,
      tax_amount = excluded.tax_amount, net_amount = excluded.net_amount, refresh_id = excluded.refresh_id`.execute(db);
  await db.deleteFrom('kpi_agent_monthly').where('settle_month', '=', settleMonth).where('refresh_id', '<>', refreshId).execute();
  return Number(result.numAffectedRows ?? 0n);
}
