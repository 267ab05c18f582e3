import { invalid, type ChangeLogEntry } from '@csp/service-kit';
import { applySettleMove, type SettleMoveResult } from '../settle/settle.service.js';
import { inTransaction, type Executor } from '../period-closes/month-guard.js';
import type { HoldConditionInput } from './hold-condition.js';

/** spec 8: 12 training hours per year (design assumption; system_config TRAINING_HOURS_REQUIRED). */
const DEFAULT_TRAINING_HOURS = '12';

export interface HoldInput {
  settleId: number;
  userId: number | null;
  reason: string;
  reasonCode?: string | null | undefined;
  condition?: HoldConditionInput | undefined;
}

async function requiredTrainingHours(db: Executor): Promise<string> {
  const row = await db
    .selectFrom('system_config')
    .select('config_value')
    .where('config_key', '=', 'TRAINING_HOURS_REQUIRED')
    .executeTakeFirst();
  const value = row?.config_value?.trim();
  return value && /^\d+(\.\d{1,2})?$/.test(value) ? value : DEFAULT_TRAINING_HOURS;
}

/** Checks a hold's reason code and condition and fills the training default; E411 on a bad reference. */
export async function resolveHold(
  db: Executor,
  agentId: number,
  input: Pick<HoldInput, 'reasonCode' | 'condition'>,
): Promise<HoldConditionInput | undefined> {
  if (input.reasonCode) {
    const code = await db
      .selectFrom('common_code')
      .select('code')
      .where('group_code', '=', 'HOLD_REASON')
      .where('code', '=', input.reasonCode)
      .executeTakeFirst();
    if (!code) throw invalid('reasonCode', 'is not a HOLD_REASON code');
  }
  const c = input.condition;
  if (c?.type === 'DISPUTE_CLOSED') {
    const dispute = await db
      .selectFrom('commission_dispute')
      .select('agent_id')
      .where('dispute_id', '=', c.disputeId!)
      .executeTakeFirst();
    if (!dispute || Number(dispute.agent_id) !== agentId) {
      throw invalid('condition.disputeId', "is not a dispute of the settlement's agent");
    }
  }
  if (c?.type === 'TRAINING_HOURS' && c.trainingHours === undefined) {
    return { ...c, trainingHours: await requiredTrainingHours(db) };
  }
  return c;
}

/** Holds a CALCULATED or CONFIRMED settlement with a HOLD_REASON code and an optional release condition. */
export async function holdSettlement(
  db: Executor,
  input: HoldInput,
): Promise<SettleMoveResult & { changes: ChangeLogEntry[] }> {
  return inTransaction(db, async (trx) => {
    const settle = await trx
      .selectFrom('settle_master')
      .select('agent_id')
      .where('settle_id', '=', input.settleId)
      .executeTakeFirst();
    const condition = settle ? await resolveHold(trx, Number(settle.agent_id), input) : input.condition;
    const result = await applySettleMove(
      trx,
      {
        settleId: input.settleId,
        action: 'hold',
        userId: input.userId,
        reason: input.reason,
        reasonCode: input.reasonCode ?? null,
        ...(condition && { condition }),
      },
      { duringRun: false },
    );
    return {
      ...result,
      changes: [
        {
          menuCode: 'SETTLE_LIST',
          tableName: 'settle_master',
          recordId: input.settleId,
          action: 'UPDATE',
          before: result.before,
          after: { ...result.after, ledgerRows: result.ledgerRows, hold: result.hold },
        },
      ],
    };
  });
}
