import { sql } from 'kysely';
import type { MdExecutor } from '../people-db.js';
import { escapeLike } from '../orgs/org-repository.js';
import type { SuccessionListQuery } from './succession-schemas.js';

export function successionSelect(db: MdExecutor) {
  return db
    .selectFrom('contract_succession as s')
    .innerJoin('contract as c', 'c.contract_id', 's.contract_id')
    .innerJoin('agent as fa', 'fa.agent_id', 's.from_agent_id')
    .innerJoin('agent as ta', 'ta.agent_id', 's.to_agent_id')
    .select([
      's.succession_id',
      's.contract_id',
      'c.policy_no',
      'c.agent_id as contract_agent_id',
      's.from_agent_id',
      'fa.agent_name as from_agent_name',
      's.to_agent_id',
      'ta.agent_name as to_agent_name',
      's.effective_month',
      's.status',
      's.reason',
      's.cancel_reason',
      's.cancelled_at',
      's.cancelled_by',
      's.created_at',
      's.created_by',
      's.updated_at',
    ]);
}

export type SuccessionQuery = ReturnType<typeof successionSelect>;
export type SuccessionRow = Awaited<ReturnType<SuccessionQuery['executeTakeFirstOrThrow']>>;

export function applySuccessionFilters(qb: SuccessionQuery, f: Omit<SuccessionListQuery, 'pageNum' | 'pageSize'>): SuccessionQuery {
  let q = qb;
  if (f.status) q = q.where('s.status', '=', f.status);
  if (f.contractId !== undefined) q = q.where('s.contract_id', '=', f.contractId);
  if (f.agentId !== undefined) {
    const agentId = f.agentId;
    q = q.where((eb) => eb.or([eb('s.from_agent_id', '=', agentId), eb('s.to_agent_id', '=', agentId)]));
  }
  if (f.policyNo) q = q.where('c.policy_no', '=', f.policyNo);
  if (f.effectiveMonth) q = q.where('s.effective_month', '=', f.effectiveMonth);
  if (f.startDate) q = q.where('s.created_at', '>=', sql<Date>`${f.startDate}::date`);
  if (f.endDate) q = q.where('s.created_at', '<', sql<Date>`${f.endDate}::date + 1`);
  const keyword = f.searchKeyword?.trim();
  if (keyword) {
    const pattern = `%${escapeLike(keyword)}%`;
    q = q.where((eb) =>
      eb.or([eb('c.policy_no', 'ilike', pattern), eb('fa.agent_name', 'ilike', pattern), eb('ta.agent_name', 'ilike', pattern)]),
    );
  }
  return q;
}

/** The chain head: latest ACTIVE succession of the contract (greatest month, then id), optionally ignoring one. */
export async function latestActive(db: MdExecutor, contractId: number, exceptId?: number) {
  let q = db
    .selectFrom('contract_succession')
    .selectAll()
    .where('contract_id', '=', contractId)
    .where('status', '=', 'ACTIVE');
  if (exceptId !== undefined) q = q.where('succession_id', '<>', exceptId);
  return q.orderBy('effective_month', 'desc').orderBy('succession_id', 'desc').limit(1).executeTakeFirst();
}

export async function lockContract(db: MdExecutor, contractId: number) {
  return db
    .selectFrom('contract')
    .select(['contract_id', 'agent_id'])
    .where('contract_id', '=', contractId)
    .forUpdate()
    .executeTakeFirst();
}
