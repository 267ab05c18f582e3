import { sql, type RawBuilder } from 'kysely';
import type { Db } from '@csp/db';
import { lastDayOfMonth } from '@csp/domain';

/**
 * Chargeback exposure per contract and agent as of the last day of the month (rule 7 in SQL, for
 * speed; test/sql-vs-domain.test.ts proves it equals calcDifferentialChargeback on generated contracts):
 * - the contracts in force on that date (analytics' inForceOn),
 * - paid = agent_amount of the agent's recruit and maintain ledger rows of the contract up to the month,
 * - monthsElapsed(contract_date, month end) = the calendar months between them: the anniversary in the
 *   last month, clamped to its end like addMonths, never lies after the month's last day,
 * - the band: active grades valid on the date (closed lookup) of the product's category or of all
 *   categories, an exact category first, then the newest effective_from, then the lowest id; looked up
 *   once per (category, months) pair, not per contract,
 * - exposure = round(paid x percent / 100, 0) HALF_UP (numeric round), 0 without a band.
 * Columns: contract_id, agent_id, category, months, percent, paid, exposure.
 */
export function exposureByContract(settleMonth: string): RawBuilder<unknown> {
  const asOf = lastDayOfMonth(settleMonth);
  const asOfIndex = Number(settleMonth.slice(0, 4)) * 12 + Number(settleMonth.slice(4));
  return sql`
    WITH paid AS (
      SELECT l.contract_id, l.agent_id, sum(l.agent_amount) AS amount
        FROM (SELECT contract_id, agent_id, agent_amount FROM recruit_ledger WHERE settle_month <= ${settleMonth}
              UNION ALL
              SELECT contract_id, agent_id, agent_amount FROM maintain_ledger WHERE settle_month <= ${settleMonth}) l
       GROUP BY l.contract_id, l.agent_id
    ), band AS (
      SELECT DISTINCT ON (k.category, k.months) k.category, k.months, g.percent
        FROM (SELECT DISTINCT coalesce(product_group, '') AS category FROM product) cat
        CROSS JOIN LATERAL (
          SELECT cat.category, months
            FROM generate_series(0, ${asOfIndex}::int - coalesce((
                   SELECT (extract(year FROM x.first_date) * 12 + extract(month FROM x.first_date))::int
                     FROM (SELECT min(contract_date) AS first_date FROM contract) x), ${asOfIndex}::int)) AS months) k
        JOIN chargeback_grade g
          ON g.is_active AND g.effective_from <= ${asOf}::date AND (g.effective_to IS NULL OR g.effective_to >= ${asOf}::date)
         AND g.months_from <= k.months AND (g.months_to IS NULL OR g.months_to >= k.months)
         AND (g.product_category IS NULL OR g.product_category = 'ALL' OR g.product_category = k.category)
       ORDER BY k.category, k.months,
                (g.product_category IS NOT NULL AND g.product_category <> 'ALL') DESC, g.effective_from DESC, g.cb_grade_id
    ), in_force AS (
      SELECT pd.contract_id, pd.agent_id, coalesce(p.product_group, '') AS category, pd.amount AS paid,
             ${asOfIndex}::int - (extract(year FROM c.contract_date) * 12 + extract(month FROM c.contract_date))::int AS months
        FROM paid pd
        JOIN contract c ON c.contract_id = pd.contract_id
        JOIN product p ON p.product_id = c.product_id
       WHERE c.contract_date <= ${asOf}::date
         AND c.status <> 'TERMINATE'
         AND NOT (c.lapse_date IS NOT NULL AND c.lapse_date <= ${asOf}::date
                  AND NOT (c.revival_date IS NOT NULL AND c.revival_date >= c.lapse_date AND c.revival_date <= ${asOf}::date))
    )
    SELECT i.contract_id, i.agent_id, i.category, i.months, b.percent, i.paid,
           coalesce(round(i.paid * b.percent / 100, 0), 0) AS exposure
      FROM in_force i
      LEFT JOIN band b ON b.category = i.category AND b.months = i.months`;
}

/**
 * kpi_chargeback_exposure of a month: per agent the exposure of its in-force contracts and the
 * chargeback installments of lapses up to the month that fall due after it (not cancelled).
 */
export async function refreshExposure(db: Db, settleMonth: string, refreshId: number): Promise<number> {
  const asOf = lastDayOfMonth(settleMonth);
  const result = await sql`
    WITH per_contract AS (${exposureByContract(settleMonth)}),
    agg AS (
      SELECT agent_id, count(*)::int AS contracts, sum(paid) AS paid, sum(exposure) AS exposure
        FROM per_contract GROUP BY agent_id
    ), dues AS (
      SELECT agent_id, count(*)::int AS n, sum(cb_amount) AS amount
        FROM chargeback
       WHERE settle_month > ${settleMonth} AND lapse_month <= ${settleMonth} AND status <> 'CANCELLED'
       GROUP BY agent_id
    )
    INSERT INTO kpi_chargeback_exposure AS k (
      settle_month, agent_id, org_id, grade_id, as_of_date, in_force_contracts, paid_commission, exposure_amount,
      installments_due_count, installments_due_amount, refresh_id)
    SELECT ${settleMonth}, a.agent_id, a.org_id, a.grade_id, ${asOf}::date,
           coalesce(agg.contracts, 0), coalesce(agg.paid, 0), coalesce(agg.exposure, 0),
           coalesce(dues.n, 0), coalesce(dues.amount, 0), ${refreshId}
      FROM agg FULL JOIN dues ON dues.agent_id = agg.agent_id
      JOIN agent a ON a.agent_id = coalesce(agg.agent_id, dues.agent_id)
    ON CONFLICT (settle_month, agent_id) DO UPDATE SET
      org_id = excluded.org_id, grade_id = excluded.grade_id, as_of_date = excluded.as_of_date,
      in_force_contracts = excluded.in_force_contracts, paid_commission = excluded.paid_commission,
      exposure_amount = excluded.exposure_amount, installments_due_count = excluded.installments_due_count,
      installments_due_amount = excluded.installments_due_amount, refresh_id = excluded.refresh_id`.execute(db);
  await db
    .deleteFrom('kpi_chargeback_exposure')
    .where('settle_month', '=', settleMonth)
    .where('refresh_id', '<>', refreshId)
    .execute();
  return Number(result.numAffectedRows ?? 0n);
}
