import { activeRunId } from '@csp/batch';
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
 * receives, its other-commission rows (collection, renewal, ...), chargeback installments due from it. Chargebacks have no HOLD state: a hold keeps them as
 * they are (the locked month already protects them), a release turns confirmed ones back.
 */
/**
 * The ledger tables that follow an agent's settlement, declared once (settle moves, confirm-month and the
 * PAID event read it). fullLife: the table has the settle row's states (HOLD, PAID); chargeback installments
 * only go CALCULATED <-> CONFIRMED. byUser: the table carries updated_by.
 */
export const SETTLED_LEDGERS = [
  { table: 'recruit_ledger', agentColumn: 'agent_id', byUser: true, fullLife: true },
  { table: 'maintain_ledger', agentColumn: 'agent_id', byUser: true, fullLife: true },
  { table: 'override_settle', agentColumn: 'to_agent_id', byUser: false, fullLife: true },
  { table: 'other_commission_ledger', agentColumn: 'agent_id', byUser: true, fullLife: true },
  { table: 'chargeback', agentColumn: 'agent_id', byUser: false, fullLife: false },
] as const;

type StateMove = { from: string[]; to: string };
const STATE_MOVES: Record<SettleAction, { fullLife: StateMove; chargeback?: StateMove }> = {
  confirm: { fullLife: { from: ['CALCULATED', 'HOLD'], to: 'CONFIRMED' }, chargeback: { from: ['CALCULATED'], to: 'CONFIRMED' } },
  hold: { fullLife: { from: ['CALCULATED', 'CONFIRMED'], to: 'HOLD' } },
  release: { fullLife: { from: ['HOLD', 'CONFIRMED'], to: 'CALCULATED' }, chargeback: { from: ['CONFIRMED'], to: 'CALCULATED' } },
};

type LedgerMove = { table: string; agentColumn: string; byUser: boolean } & StateMove;
const LEDGER_MOVES = Object.fromEntries(
  (Object.keys(STATE_MOVES) as SettleAction[]).map((action) => [
    action,
    SETTLED_LEDGERS.flatMap((l): LedgerMove[] => {
      const move = l.fullLife ? STATE_MOVES[action].fullLife : STATE_MOVES[action].chargeback;
      return move ? [{ table: l.table, agentColumn: l.agentColumn, byUser: l.byUser, ...move }] : [];
    }),
  ]),
) as Record<SettleAction, LedgerMove[]>;

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
  const active = options.duringRun ? null : await activeRunId(trx, before.settle_month);
  if (active !== null) {
    throw new AppError(
      'BATCH_RUNNING',
      `Settlement run ${active} of ${before.settle_month} is in progress; ${input.action} after it has finished`,
    );
  }
  // a row an approved termination settlement took over (counted in its final net) stays withheld
  const takenOver =
    input.action === 'release' &&
    (await trx
      .selectFrom('termination_settlement_item')
      .select('term_id')
      .where('item_kind', '=', 'UNPAID_CONFIRMED')
      .where('item_id', '=', input.settleId)
      .executeTakeFirst());
  if (takenOver) {
    throw new AppError(
      'ALREADY_CONFIRMED',
      `Settlement ${input.settleId} is withheld by a termination settlement and is settled there; it cannot be released`,
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
    const byUser = m.byUser ? sql`, updated_by = ${input.userId}` : sql``;
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

export interface ConfirmMonthInput {
  settleMonth: string;
  /** only these agents' rows (default: every agent) */
  agentIds?: number[] | undefined;
  /** only rows of agents of this organization */
  orgId?: number | undefined;
  userId: number | null;
}

export interface ConfirmMonthResult {
  settleMonth: string;
  /** settle rows of the month the filter selects, whatever their status */
  total: number;
  confirmed: number;
  skippedHold: number;
  /** CALCULATED rows left alone because the agent has an OPEN or IN_REVIEW dispute of the month */
  skippedDispute: number;
  alreadyConfirmed: number;
  alreadyPaid: number;
  /** table -> ledger rows that followed their settlement (as the single confirm moves them) */
  ledgerRows: Record<string, number>;
  approval: {
    /** active SETTLE approval lines */
    lines: string[];
    /** confirming never waits for an approval: a line is used only when someone requests one */
    required: false;
    /** confirmed rows that had a PENDING SETTLE approval request (its later decision changes nothing) */
    openRequests: number;
  };
}

const OPEN_DISPUTE = sql`EXISTS (SELECT 1 FROM commission_dispute d
  WHERE d.agent_id = s.agent_id AND d.settle_month = s.settle_month AND d.status IN ('OPEN', 'IN_REVIEW'))`;

function monthScope(input: ConfirmMonthInput) {
  const agents = input.agentIds ? sql` AND s.agent_id = ANY(${input.agentIds}::bigint[])` : sql``;
  const org = input.orgId !== undefined ? sql` AND s.agent_id IN (SELECT a.agent_id FROM agent a WHERE a.org_id = ${input.orgId})` : sql``;
  return sql`s.settle_month = ${input.settleMonth}${agents}${org}`;
}

/**
 * Month-wide confirm: every CALCULATED settle row of the month (in the filter) whose agent has no open
 * dispute of the month becomes CONFIRMED, and its ledger rows follow exactly as in the single confirm
 * (LEDGER_MOVES.confirm), in one set-based statement inside one transaction. A CLOSED month is B001 and a
 * running batch of the month BATCH_RUNNING, as for the single confirm.
 */
export async function confirmMonth(db: Db, input: ConfirmMonthInput): Promise<ConfirmMonthResult> {
  return inTransaction(db, async (trx) => {
    const month = input.settleMonth;
    await lockMonthShared(trx, month);
    await assertMonthOpen(trx, month, 'month-wide confirm');
    const active = await activeRunId(trx, month);
    if (active !== null) {
      throw new AppError('BATCH_RUNNING', `Settlement run ${active} of ${month} is in progress; confirm after it has finished`);
    }
    const user = sql`${input.userId}::bigint`;
    const moves = LEDGER_MOVES.confirm;
    const ledgerCtes = moves.map((m, i) => {
      const byUser = m.byUser ? sql`, updated_by = ${user}` : sql``;
      return sql`${sql.id(`l${i}`)} AS (
        UPDATE ${sql.table(m.table)} AS l SET status = ${m.to}, updated_at = now()${byUser}
          FROM moved WHERE ${sql.ref(`l.${m.agentColumn}`)} = moved.agent_id AND l.settle_month = ${month}
           AND l.status IN (${sql.join(m.from)})
        RETURNING 1)`;
    });
    const ledgerCounts = moves.map((_, i) => sql`(SELECT count(*) FROM ${sql.id(`l${i}`)})::int AS ${sql.id(`l${i}`)}`);
    const { rows } = await sql<Record<string, number>>`
      WITH moved AS (
        UPDATE settle_master AS s SET status = 'CONFIRMED', confirmed_by = ${user}, confirmed_at = now(),
               updated_by = ${user}, updated_at = now(), version = s.version + 1
         WHERE ${monthScope(input)} AND s.status = 'CALCULATED' AND NOT ${OPEN_DISPUTE}
        RETURNING s.settle_id, s.agent_id
      ), ${sql.join(ledgerCtes)}
      SELECT (SELECT count(*) FROM moved)::int AS confirmed,
             (SELECT count(*) FROM approval_request r JOIN moved ON r.target_id = moved.settle_id
               WHERE r.target_type = 'SETTLE' AND r.status = 'PENDING')::int AS open_requests,
             ${sql.join(ledgerCounts)}`.execute(trx);
    const moved = rows[0]!;
    const ledgerRows: Record<string, number> = {};
    moves.forEach((m, i) => (ledgerRows[m.table] = moved[`l${i}`] ?? 0));
    // What is left, read after the move in the same transaction.
    const { rows: left } = await sql<{ total: number; hold: number; disputed: number; confirmed: number; paid: number }>`
      SELECT count(*)::int AS total,
             count(*) FILTER (WHERE s.status = 'HOLD')::int AS hold,
             count(*) FILTER (WHERE s.status = 'CALCULATED' AND ${OPEN_DISPUTE})::int AS disputed,
             count(*) FILTER (WHERE s.status = 'CONFIRMED')::int AS confirmed,
             count(*) FILTER (WHERE s.status = 'PAID')::int AS paid
      FROM settle_master s WHERE ${monthScope(input)}`.execute(trx);
    const lines = await trx
      .selectFrom('approval_line')
      .select('line_code')
      .where('target_type', '=', 'SETTLE')
      .where('is_active', '=', true)
      .orderBy('line_code')
      .execute();
    const after = left[0]!;
    return {
      settleMonth: month,
      total: after.total,
      confirmed: moved.confirmed!,
      skippedHold: after.hold,
      skippedDispute: after.disputed,
      alreadyConfirmed: after.confirmed - moved.confirmed!,
      alreadyPaid: after.paid,
      ledgerRows,
      approval: { lines: lines.map((l) => l.line_code), required: false, openRequests: moved.open_requests! },
    };
  });
}
