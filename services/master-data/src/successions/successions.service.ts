import { AppError, invalid, type AnyRow, type ResourceContext } from '@csp/service-kit';
import { trxOf } from '../common/resource-helpers.js';
import type { Db } from '@csp/db';
import { agentStatuses, latestActive, lockContract, lockSuccession } from './successions.repository.js';

interface ChainLink {
  contractId: number;
  fromAgentId: number;
  toAgentId: number;
  effectiveMonth: string;
}

/**
 * Successions of a contract form a chain: the from-agent must be the current holder of the
 * maintain commission, i.e. the to-agent of the latest ACTIVE succession, or the contract's own
 * agent when there is none; the new effective month must be later than that succession's.
 * The to-agent must exist and be ACTIVE. Runs with the contract row locked.
 */
async function checkChain(trx: Db, body: ChainLink, exceptId?: number) {
  const contract = await lockContract(trx, body.contractId);
  if (!contract) throw invalid('contractId', 'contract not found');
  const agents = await agentStatuses(trx, [body.fromAgentId, body.toAgentId]);
  if (!agents.some((a) => a.agent_id === body.fromAgentId)) throw invalid('fromAgentId', 'agent not found');
  const to = agents.find((a) => a.agent_id === body.toAgentId);
  if (!to) throw invalid('toAgentId', 'agent not found');
  if (to.status !== 'ACTIVE') throw invalid('toAgentId', 'the successor must be an ACTIVE agent');

  const head = await latestActive(trx, body.contractId, exceptId);
  const holder = head ? head.to_agent_id : contract.agent_id;
  if (body.fromAgentId !== holder) throw invalid('fromAgentId', `must be the current holder of the contract (agent ${holder})`);
  if (head && body.effectiveMonth <= head.effective_month) {
    throw invalid('effectiveMonth', `must be later than the previous succession's month ${head.effective_month}`);
  }
}

/** Only the head of the chain may change; an earlier one would break the chain after it. */
async function assertChainHead(trx: Db, row: { succession_id: number; contract_id: number }, action: string) {
  await lockContract(trx, row.contract_id);
  const head = await latestActive(trx, row.contract_id);
  if (head && head.succession_id !== row.succession_id) {
    throw new AppError('BAD_REQUEST', `A later succession (${head.succession_id}) exists for this contract; ${action} it first`);
  }
}

/** validate of the succession resource: create and update (head of the chain only, same contract). */
export async function checkSuccession(body: AnyRow, ctx: ResourceContext, existing?: AnyRow): Promise<void> {
  const trx = trxOf(ctx);
  const link = body as ChainLink;
  if (link.fromAgentId === link.toAgentId) throw invalid('toAgentId', 'must differ from fromAgentId');
  if (existing) {
    if (existing.status !== 'ACTIVE') throw new AppError('BAD_REQUEST', 'A cancelled succession cannot be changed');
    if (link.contractId !== Number(existing.contract_id)) throw invalid('contractId', 'the contract of a succession cannot change');
    await assertChainHead(trx, { succession_id: Number(existing.succession_id), contract_id: link.contractId }, 'change');
  }
  await checkChain(trx, link, existing ? Number(existing.succession_id) : undefined);
}

export async function cancelSuccession(db: Db, id: number, reason: string | null, userId: number | null) {
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
export async function deleteSuccession(db: Db, id: number) {
  return db.transaction().execute(async (trx) => {
    const before = await lockSuccession(trx, id);
    if (before.status === 'ACTIVE') await assertChainHead(trx, before, 'delete');
    await trx.deleteFrom('contract_succession').where('succession_id', '=', id).execute();
    return before;
  });
}
