import { sql } from 'kysely';
import type { IncentiveMetric } from '@csp/db';
import { firstDayOfMonth, shiftSettleMonth } from '@csp/domain';
import type { Executor } from '../period-closes/month-guard.js';

export interface Measured {
  agentId: number;
  /** numeric text: a sum of money, or a count */
  measured: string;
}

/**
 * Each agent's figure over [periodFrom, periodTo] (months, both included): NEW_PREMIUM = premium of the
 * contracts dated in the period, by recruiting agent (contract.agent_id); RECRUIT_COUNT = their number;
 * RECRUIT_COMMISSION = recruit_ledger.agent_amount of the period's settle months. Agents without a row in
 * the period are not measured.
 */
export async function measureAgents(db: Executor, metric: IncentiveMetric, periodFrom: string, periodTo: string): Promise<Measured[]> {
  if (metric === 'RECRUIT_COMMISSION') {
    const rows = await db
      .selectFrom('recruit_ledger')
      .select(['agent_id', sql<string>`sum(agent_amount)::text`.as('measured')])
      .where('settle_month', '>=', periodFrom)
      .where('settle_month', '<=', periodTo)
      .groupBy('agent_id')
      .orderBy('agent_id')
      .execute();
    return rows.map((r) => ({ agentId: r.agent_id, measured: r.measured }));
  }
  const figure = metric === 'NEW_PREMIUM' ? sql<string>`sum(premium)::text` : sql<string>`count(*)::text`;
  const rows = await db
    .selectFrom('contract')
    .select(['agent_id', figure.as('measured')])
    .where('contract_date', '>=', firstDayOfMonth(periodFrom))
    .where('contract_date', '<', firstDayOfMonth(shiftSettleMonth(periodTo, 1)))
    .groupBy('agent_id')
    .orderBy('agent_id')
    .execute();
  return rows.map((r) => ({ agentId: r.agent_id, measured: r.measured }));
}

export function lockProgram(db: Executor, programId: number) {
  return db.selectFrom('incentive_program').selectAll().where('program_id', '=', programId).forUpdate().executeTakeFirst();
}

export function tiersOf(db: Executor, programId: number) {
  return db
    .selectFrom('incentive_tier')
    .select(['tier_no', 'threshold', 'reward_amount', 'reward_pct'])
    .where('program_id', '=', programId)
    .orderBy('tier_no')
    .execute();
}

export function lockResultsOfProgram(db: Executor, programId: number) {
  return db.selectFrom('incentive_result').selectAll().where('program_id', '=', programId).orderBy('result_id').forUpdate().execute();
}

export function lockResults(db: Executor, resultIds: readonly number[]) {
  return db
    .selectFrom('incentive_result as r')
    .innerJoin('incentive_program as p', 'p.program_id', 'r.program_id')
    .selectAll('r')
    .select(['p.program_code'])
    .where('r.result_id', 'in', [...resultIds])
    .orderBy('r.result_id')
    .forUpdate('r')
    .execute();
}

export async function resultCountOf(db: Executor, programId: number): Promise<number> {
  const row = await db
    .selectFrom('incentive_result')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('program_id', '=', programId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
