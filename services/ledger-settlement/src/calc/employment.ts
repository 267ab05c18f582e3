import type { Db } from '@csp/db';
import { firstDayOfMonth, lastDayOfMonth } from '@csp/domain';
import { sql, type RawBuilder } from 'kysely';

/**
 * DECISIONS "Settlement semantics": a month settles the agents employed in it, join_date on or before its last day
 * and no leave_date before its first day (a missing date does not limit). `agent` is the alias of an agent row.
 */
export function employedInMonthSql(agent: string, settleMonth: string): RawBuilder<boolean> {
  const join = sql.ref(`${agent}.join_date`);
  const leave = sql.ref(`${agent}.leave_date`);
  return sql<boolean>`((${join} IS NULL OR ${join} <= ${lastDayOfMonth(settleMonth)}::date)
    AND (${leave} IS NULL OR ${leave} >= ${firstDayOfMonth(settleMonth)}::date))`;
}

/** Agents outside the month's employment window: no settle row, never an override receiver. */
export async function agentsNotEmployedIn(db: Db, settleMonth: string): Promise<Set<number>> {
  const { rows } = await sql<{ agent_id: number }>`
    SELECT a.agent_id FROM agent a WHERE NOT ${employedInMonthSql('a', settleMonth)}`.execute(db);
  return new Set(rows.map((r) => Number(r.agent_id)));
}
