import { notFound } from '@csp/service-kit';
import type { Db } from '@csp/db';

/** The chain head: latest ACTIVE succession of the contract (greatest month, then id), optionally ignoring one. */
export function latestActive(db: Db, contractId: number, exceptId?: number) {
  let q = db.selectFrom('contract_succession').selectAll().where('contract_id', '=', contractId).where('status', '=', 'ACTIVE');
  if (exceptId !== undefined) q = q.where('succession_id', '<>', exceptId);
  return q.orderBy('effective_month', 'desc').orderBy('succession_id', 'desc').limit(1).executeTakeFirst();
}

export function lockContract(db: Db, contractId: number) {
  return db.selectFrom('contract').select(['contract_id', 'agent_id']).where('contract_id', '=', contractId).forUpdate().executeTakeFirst();
}

export async function lockSuccession(db: Db, id: number) {
  const row = await db.selectFrom('contract_succession').selectAll().where('succession_id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw notFound(`ContractSuccession ${id}`);
  return row;
}

export function agentStatuses(db: Db, agentIds: number[]) {
  return db.selectFrom('agent').select(['agent_id', 'status']).where('agent_id', 'in', agentIds).execute();
}
