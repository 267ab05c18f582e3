import { AppError } from '@csp/service-kit';
import { LOCKED_SETTLE_STATUSES } from '../calc/db.js';
import { assertMonthOpen, type Executor } from '../period-closes/month-guard.js';

/** An adjustment (or its removal) needs an open month and an agent settlement the next aggregate still rewrites. */
export async function assertAdjustable(db: Executor, settleMonth: string, agentId: number): Promise<void> {
  await assertMonthOpen(db, settleMonth, 'commission master adjustment');
  const settle = await db
    .selectFrom('settle_master')
    .select('status')
    .where('agent_id', '=', agentId)
    .where('settle_month', '=', settleMonth)
    .executeTakeFirst();
  if (settle && (LOCKED_SETTLE_STATUSES as readonly string[]).includes(settle.status)) {
    throw new AppError(
      'ALREADY_CONFIRMED',
      `The settlement of agent ${agentId} for ${settleMonth} is ${settle.status}: adjust it through a settlement correction`,
    );
  }
}

/** Clears a row's adjustment (DELETE): amount 0, no reason; the computed figure stays. */
export async function clearAdjustment(db: Executor, cmId: number, userId: number | null) {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('commission_master').selectAll().where('cm_id', '=', cmId).forUpdate().executeTakeFirst();
    if (!before) return undefined;
    await assertAdjustable(trx, before.settle_month, before.agent_id);
    const after = await trx
      .updateTable('commission_master')
      .set((eb) => ({
        adjustment_amount: '0',
        adjust_reason: null,
        version: eb('version', '+', 1),
        updated_by: userId,
        updated_at: new Date(),
      }))
      .where('cm_id', '=', cmId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after };
  });
}
