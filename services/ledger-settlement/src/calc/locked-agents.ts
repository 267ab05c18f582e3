import type { Trx } from '@csp/batch';
import { ledgerDb, LOCKED_SETTLE_STATUSES } from './db.js';

/** Agents whose settle row of the month is CONFIRMED/HOLD/PAID: the batch leaves their month alone. */
export async function lockedAgents(
  trx: Trx,
  settleMonth: string,
  range?: { from: number; to: number },
): Promise<Set<number>> {
  const rows = await ledgerDb(trx)
    .selectFrom('settle_master')
    .select('agent_id')
    .where('settle_month', '=', settleMonth)
    .where('status', 'in', [...LOCKED_SETTLE_STATUSES])
    .$if(range !== undefined, (qb) =>
      qb.where('agent_id', '>=', range!.from).where('agent_id', '<=', range!.to),
    )
    .execute();
  return new Set(rows.map((r) => r.agent_id));
}
