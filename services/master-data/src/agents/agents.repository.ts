import { notFound } from '@csp/service-kit';
import type { Insertable } from 'kysely';
import type { AgentOrgHistoryTable, Db } from '@csp/db';

export function orgById(db: Db, orgId: number) {
  return db.selectFrom('organization').select(['org_id', 'is_active']).where('org_id', '=', orgId).executeTakeFirst();
}

export function gradeById(db: Db, gradeId: number) {
  return db.selectFrom('grade').select(['grade_id', 'grade_level', 'is_active']).where('grade_id', '=', gradeId).executeTakeFirst();
}

/** The agent row, locked for the rest of the transaction. */
export async function lockAgent(db: Db, agentId: number) {
  const row = await db.selectFrom('agent').selectAll().where('agent_id', '=', agentId).forUpdate().executeTakeFirst();
  if (!row) throw notFound(`Agent ${agentId}`);
  return row;
}

export function insertHistory(db: Db, row: Insertable<AgentOrgHistoryTable>) {
  return db.insertInto('agent_org_history').values(row).returningAll().executeTakeFirstOrThrow();
}
