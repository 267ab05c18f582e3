import { AppError, invalid, isoTimestamp, notFound } from '@csp/service-kit';
import type { MdDb, MdExecutor } from '../people-db.js';
import { latestActive, lockContract, type SuccessionRow } from './succession-repository.js';
import type { SuccessionResp, SuccessionSaveReq } from './succession-schemas.js';

export function toSuccessionResp(r: SuccessionRow): SuccessionResp {
  return {
    successionId: r.succession_id,
    contractId: r.contract_id,
    policyNo: r.policy_no,
    contractAgentId: r.contract_agent_id,
    fromAgentId: r.from_agent_id,
    fromAgentName: r.from_agent_name,
    toAgentId: r.to_agent_id,
    toAgentName: r.to_agent_name,
    effectiveMonth: r.effective_month,
    status: r.status,
    reason: r.reason,
    cancelReason: r.cancel_reason,
    cancelledAt: isoTimestamp(r.cancelled_at),
    cancelledBy: r.cancelled_by,
    createdAt: isoTimestamp(r.created_at),
    createdBy: r.created_by,
    updatedAt: isoTimestamp(r.updated_at),
  };
}

/**
 * Successions of a contract form a chain: the from-agent must be the current holder of the
 * maintain commission, i.e. the to-agent of the latest ACTIVE succession, or the contract's own
 * agent when there is none; the new effective month must be later than that succession's.
 * The to-agent must exist and be ACTIVE. Runs with the contract row locked.
 */
async function checkChain(trx: MdExecutor, body: SuccessionSaveReq, exceptId?: number) {
  const contract = await lockContract(trx, body.contractId);
  if (!contract) throw invalid('contractId', 'contract not found');
  const agents = await trx
    .selectFrom('agent')
    .select(['agent_id', 'status'])
    .where('agent_id', 'in', [body.fromAgentId, body.toAgentId])
    .execute();
  if (!agents.some((a) => a.agent_id === body.fromAgentId)) throw invalid('fromAgentId', 'agent not found');
  const to = agents.find((a) => a.agent_id === body.toAgentId);
  if (!to) throw invalid('toAgentId', 'agent not found');
  if (to.status !== 'ACTIVE') throw invalid('toAgentId', 'the successor must be an ACTIVE agent');

  const head = await latestActive(trx, body.contractId, exceptId);
  const holder = head ? head.to_agent_id : contract.agent_id;
  if (body.fromAgentId !== holder) {
    throw invalid('fromAgentId', `must be the current holder of the contract (agent ${holder})`);
  }
  if (head && body.effectiveMonth <= head.effective_month) {
    throw invalid('effectiveMonth', `must be later than the previous succession's month ${head.effective_month}`);
  }
}

async function lockSuccession(trx: MdExecutor, id: number) {
  const row = await trx.selectFrom('contract_succession').selectAll().where('succession_id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw notFound(`Contract succession ${id}`);
  return row;
}

/** Only the head of the chain may change; an earlier one would break the chain after it. */
async function assertChainHead(trx: MdExecutor, row: { succession_id: number; contract_id: number }, action: string) {
  await lockContract(trx, row.contract_id);
  const head = await latestActive(trx, row.contract_id);
  if (head && head.succession_id !== row.succession_id) {
    throw new AppError('BAD_REQUEST', `A later succession (${head.succession_id}) exists for this contract; ${action} it first`);
  }
}

export async function createSuccession(db: MdDb, body: SuccessionSaveReq, userId: number | null) {
  return db.transaction().execute(async (trx) => {
    await checkChain(trx, body);
    return trx
      .insertInto('contract_succession')
      .values({
        contract_id: body.contractId,
        from_agent_id: body.fromAgentId,
        to_agent_id: body.toAgentId,
        effective_month: body.effectiveMonth,
        status: 'ACTIVE',
        reason: body.reason ?? null,
        created_by: userId,
        updated_by: userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export async function updateSuccession(db: MdDb, id: number, body: SuccessionSaveReq, userId: number | null) {
  return db.transaction().execute(async (trx) => {
    const before = await lockSuccession(trx, id);
    if (before.status !== 'ACTIVE') throw new AppError('BAD_REQUEST', 'A cancelled succession cannot be changed');
    if (body.contractId !== before.contract_id) throw invalid('contractId', 'the contract of a succession cannot change');
    await assertChainHead(trx, before, 'change');
    await checkChain(trx, body, id);
    const after = await trx
      .updateTable('contract_succession')
      .set({
        from_agent_id: body.fromAgentId,
        to_agent_id: body.toAgentId,
        effective_month: body.effectiveMonth,
        reason: body.reason ?? null,
        version: before.version + 1,
        updated_at: new Date(),
        updated_by: userId,
      })
      .where('succession_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after };
  });
}

export async function cancelSuccession(db: MdDb, id: number, reason: string | null, userId: number | null) {
  return db.transaction().execute(async (trx) => {
    const before = await lockSuccession(trx, id);
    if (before.status !== 'ACTIVE') throw new AppError('BAD_REQUEST', 'The succession is already cancelled');
    await assertChainHead(trx, before, 'cancel');
    const now = new Date();
    const after = await trx
      .updateTable('contract_succession')
      .set({
        status: 'CANCELLED',
        cancel_reason: reason,
        cancelled_at: now,
        cancelled_by: userId,
        version: before.version + 1,
        updated_at: now,
        updated_by: userId,
      })
      .where('succession_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after };
  });
}

/** Hard delete: any cancelled succession, or the ACTIVE head of the chain. */
export async function deleteSuccession(db: MdDb, id: number) {
  return db.transaction().execute(async (trx) => {
    const before = await lockSuccession(trx, id);
    if (before.status === 'ACTIVE') await assertChainHead(trx, before, 'delete');
    await trx.deleteFrom('contract_succession').where('succession_id', '=', id).execute();
    return before;
  });
}
