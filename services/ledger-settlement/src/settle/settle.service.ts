import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { AppError, notFound } from '@csp/service-kit';
import { holdColumns, type HoldConditionInput } from '../holds/hold-condition.js';
import { assertMonthOpen, inTransaction, lockMonthShared, type Executor } from '../period-closes/month-guard.js';
import type { SettleStatus } from './settle.resource.js';

export type SettleAction = 'confirm' | 'hold' | 'release';

/** Which settle states each action accepts, and where it leads (spec 3.2; release goes back to CALCULATED). */
const MOVES: Record<SettleAction, { from: readonly SettleStatus[]; to: SettleStatus }> = {
  confirm: { from: ['CALCULATED'], to: 'CONFIRMED' },
  hold: { from: ['CALCULATED', 'CONFIRMED'], to: 'HOLD' },
  release: { from: ['HOLD'], to: 'CALCULATED' },
};

/**
 * The rows behind an agent's month follow its settlement, so a re-run leaves them alone (the batch
 * skips ledger rows that are not CALCULATED): recruit and maintain rows of the agent, overrides it
 * receives, chargeback installments due from it. Chargebacks have no HOLD state: a hold keeps them as
 * they are (the locked month already protects them), a release turns confirmed ones back.
 */
const LEDGER_MOVES: Record<
  SettleAction,
  Array<{ table: string; agentColumn: string; from: string[]; to: string }>
> = {
  confirm: [
    { table: 'recruit_ledger', agentColumn: 'agent_id', from: ['CALCULATED', 'HOLD'], to: 'CONFIRMED' },
    { table: 'maintain_ledger', agentColumn: 'agent_id', from: ['CALCULATED', 'HOLD'], to: 'CONFIRMED' },
    { table: 'override_settle', agentColumn: 'to_agent_id', from: ['CALCULATED', 'HOLD'], to: 'CONFIRMED' },
    { table: 'chargeback', agentColumn: 'agent_id', from: ['CALCULATED'], to: 'CONFIRMED' },
  ],
  hold: [
    { table: 'recruit_ledger', agentColumn: 'agent_id', from: ['CALCULATED', 'CONFIRMED'], to: 'HOLD' },
    { table: 'maintain_ledger', agentColumn: 'agent_id', from: ['CALCULATED', 'CONFIRMED'], to: 'HOLD' },
    { table: 'override_settle', agentColumn: 'to_agent_id', from: ['CALCULATED', 'CONFIRMED'], to: 'HOLD' },
  ],
  release: [
    { table: 'recruit_ledger', agentColumn: 'agent_id', from: ['HOLD', 'CONFIRMED'], to: 'CALCULATED' },
    { table: 'maintain_ledger', agentColumn: 'agent_id', from: ['HOLD', 'CONFIRMED'], to: 'CALCULATED' },
    { table: 'override_settle', agentColumn: 'to_agent_id', from: ['HOLD', 'CONFIRMED'], to: 'CALCULATED' },
    { table: 'chargeback', agentColumn: 'agent_id', from: ['CONFIRMED'], to: 'CALCULATED' },
  ],
};

export interface SettleMoveInput {
  settleId: number;
  action: SettleAction;
  userId: number | null;
  reason?: string;
  reasonCode?: string | null;
  /** hold: when the next runs release it by themselves (settle_hold; default: by hand only) */
  condition?: HoldConditionInput;
  /** release: by hand (default) or by a run whose hold condition was met */
  release?: { kind: 'MANUAL' | 'CONDITION'; note?: string; runId?: number };
}

export interface SettleMoveResult {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** table -> rows whose status followed the settlement */
  ledgerRows: Record<string, number>;
  /** the settle_hold row written (hold) or released (release) */
  hold?: Record<string, unknown>;
}

function settleValues(input: SettleMoveInput, to: SettleStatus): Record<string, unknown> {
  const common = { status: to, updated_by: input.userId, updated_at: sql`now()`, version: sql`version + 1` };
  switch (input.action) {
    case 'confirm':
      return { ...common, confirmed_by: input.userId, confirmed_at: sql`now()` };
    case 'hold':
      return { ...common, hold_reason: input.reason ?? null, hold_reason_code: input.reasonCode ?? null };
    case 'release':
      // back to a plain calculated row: a confirmation before the hold no longer stands
      return {
        ...common,
        released_by: input.userId,
        released_at: sql`now()`,
        hold_reason: null,
        hold_reason_code: null,
        confirmed_by: null,
        confirmed_at: null,
      };
  }
}

/** One transaction: lock the settle row, check the move (B001 otherwise), move it and its ledger rows. */
export async function moveSettlement(db: Db, input: SettleMoveInput): Promise<SettleMoveResult> {
  return inTransaction(db, (trx) => applySettleMove(trx, input, { duringRun: false }));
}

/**
 * The move inside the caller's transaction. `duringRun`: the batch itself releases holds whose condition is
 * met (step 6), so the in-progress check does not apply to it. A CLOSED month refuses every move (B001).
 */
export async function applySettleMove(
  trx: Executor,
  input: SettleMoveInput,
  options: { duringRun: boolean },
): Promise<SettleMoveResult> {
  const move = MOVES[input.action];
  const before = await trx
    .selectFrom('settle_master')
    .selectAll()
    .where('settle_id', '=', input.settleId)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw notFound(`Settlement ${input.settleId}`);
  await lockMonthShared(trx, before.settle_month);
  await assertMonthOpen(trx, before.settle_month, input.action);
  // While the batch recalculates the month its figures are moving: decide after the run.
  const active = options.duringRun ? undefined : await trx
    .selectFrom('batch_job_log')
    .select('job_log_id')
    .where('step_name', 'is', null)
    .where('settle_month', '=', before.settle_month)
    .where('status', 'in', ['REQUESTED', 'RUNNING'])
    .executeTakeFirst();
  if (active) {
    throw new AppError(
      'BATCH_RUNNING',
      `Settlement run ${active.job_log_id} of ${before.settle_month} is in progress; ${input.action} after it has finished`,
    );
  }
  if (!move.from.includes(before.status)) {
    throw new AppError(
      'ALREADY_CONFIRMED',
      `Settlement ${input.settleId} is ${before.status}; ${input.action} needs ${move.from.join(' or ')}`,
    );
  }
  const after = await trx
    .updateTable('settle_master')
    .set(settleValues(input, move.to))
    .where('settle_id', '=', input.settleId)
    .returningAll()
    .executeTakeFirstOrThrow();

  const ledgerRows: Record<string, number> = {};
  for (const m of LEDGER_MOVES[input.action]) {
    // Four ledger tables share these columns; one statement shape moves each of them.
    const byUser = m.table === 'recruit_ledger' || m.table === 'maintain_ledger' ? sql`, updated_by = ${input.userId}` : sql``;
    const result = await sql`
      update ${sql.table(m.table)} set status = ${m.to}, updated_at = now()${byUser}
       where ${sql.ref(m.agentColumn)} = ${before.agent_id} and settle_month = ${before.settle_month}
         and status in (${sql.join(m.from)})`.execute(trx);
    ledgerRows[m.table] = Number(result.numAffectedRows ?? 0);
  }
  const hold = await followHold(trx, input, before);
  return { before, after, ledgerRows, ...(hold && { hold }) };
}

/** settle_hold follows the move: a hold writes the ACTIVE row with its condition, a release closes it. */
async function followHold(
  trx: Executor,
  input: SettleMoveInput,
  settle: { settle_id: number; agent_id: number; settle_month: string },
): Promise<Record<string, unknown> | undefined> {
  if (input.action === 'hold') {
    return trx
      .insertInto('settle_hold')
      .values({
        settle_id: settle.settle_id,
        agent_id: settle.agent_id,
        settle_month: settle.settle_month,
        reason_code: input.reasonCode ?? null,
        reason: input.reason ?? 'held',
        ...holdColumns(input.condition ?? { type: 'NONE' }),
        held_by: input.userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  if (input.action === 'release') {
    const release = input.release ?? { kind: 'MANUAL' as const };
    return trx
      .updateTable('settle_hold')
      .set({
        status: 'RELEASED',
        released_by: input.userId,
        released_at: sql`now()`,
        release_kind: release.kind,
        release_note: release.note ?? null,
        release_run_id: release.runId ?? null,
        updated_at: sql`now()`,
        version: sql`version + 1`,
      })
      .where('settle_id', '=', settle.settle_id)
      .where('status', '=', 'ACTIVE')
      .returningAll()
      .executeTakeFirst();
  }
  return undefined;
}
