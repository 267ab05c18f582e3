import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '@csp/db';
import { AppError, notFound } from '@csp/service-kit';
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
}

export interface SettleMoveResult {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** table -> rows whose status followed the settlement */
  ledgerRows: Record<string, number>;
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
  const move = MOVES[input.action];
  return db.transaction().execute(async (trx: Transaction<Database>) => {
    const before = await trx
      .selectFrom('settle_master')
      .selectAll()
      .where('settle_id', '=', input.settleId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound(`Settlement ${input.settleId}`);
    // While the batch recalculates the month its figures are moving: decide after the run.
    const active = await trx
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
    return { before, after, ledgerRows };
  });
}
