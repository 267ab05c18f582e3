import { activeRunId } from '@csp/batch';
import { sql } from 'kysely';
import { SETTLE_STATUSES } from '@csp/db';
import { AppError, notFound, type ChangeLogEntry } from '@csp/service-kit';
import { MENU_PERIOD_CLOSE } from './period-close.resource.js';
import { inTransaction, lockMonthExclusive, type Executor } from './month-guard.js';

/** Settle rows in these states let a month close (DECISIONS "Settlement lifecycle"). */
const CLOSABLE = ['CONFIRMED', 'HOLD', 'PAID'] as const;

export interface MonthCheck {
  settleMonth: string;
  closeId: number | null;
  status: 'OPEN' | 'CLOSED';
  settleRows: number;
  byStatus: Record<(typeof SETTLE_STATUSES)[number], number>;
  /** Settle rows that keep the month from closing (not CONFIRMED, HOLD or PAID). */
  blocking: number;
  runInProgress: number | null;
  closable: boolean;
}


/** What closing the month would find: its settle rows per status and whether a run is in progress. */
export async function checkMonth(db: Executor, settleMonth: string): Promise<MonthCheck> {
  // one after the other: `db` may be a transaction, i.e. one connection
  const close = await db
    .selectFrom('period_close')
    .select(['close_id', 'status'])
    .where('settle_month', '=', settleMonth)
    .executeTakeFirst();
  const counts = await db
    .selectFrom('settle_master')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('settle_month', '=', settleMonth)
    .groupBy('status')
    .execute();
  const run = await activeRunId(db, settleMonth);
  const byStatus = Object.fromEntries(SETTLE_STATUSES.map((s) => [s, 0])) as MonthCheck['byStatus'];
  for (const c of counts) byStatus[c.status] = Number(c.n);
  const settleRows = Object.values(byStatus).reduce((a, b) => a + b, 0);
  const blocking = settleRows - CLOSABLE.reduce((a, s) => a + byStatus[s], 0);
  const status = close?.status ?? 'OPEN';
  return {
    settleMonth,
    closeId: close ? Number(close.close_id) : null,
    status,
    settleRows,
    byStatus,
    blocking,
    runInProgress: run,
    closable: status === 'OPEN' && blocking === 0 && run === null,
  };
}

export interface PeriodMoveResult {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  changes: ChangeLogEntry[];
}

async function lockRow(trx: Executor, closeId: number) {
  const row = await trx.selectFrom('period_close').selectAll().where('close_id', '=', closeId).forUpdate().executeTakeFirst();
  if (!row) throw notFound(`PeriodClose ${closeId}`);
  return row;
}

function checkVersion(row: { version: number }, version: number | undefined): void {
  if (version !== undefined && version !== row.version) throw new AppError('RULE_VERSION_CONFLICT');
}

/**
 * OPEN -> CLOSED. Every settle row of the month must be CONFIRMED, HOLD or PAID (E400 naming how many are
 * not), no run of the month may be in progress (B010). Confirm/hold/release and corrections take the month
 * lock shared, so none of them slips in between the count and the close.
 */
export async function closeMonth(
  db: Executor,
  input: { closeId: number; userId: number | null; note?: string | undefined; version?: number | undefined },
): Promise<PeriodMoveResult> {
  return inTransaction(db, async (trx) => {
    const before = await lockRow(trx, input.closeId);
    checkVersion(before, input.version);
    const month = before.settle_month;
    if (before.status === 'CLOSED') throw new AppError('ALREADY_CONFIRMED', `Settle month ${month} is already closed`);
    await lockMonthExclusive(trx, month);
    const check = await checkMonth(trx, month);
    if (check.runInProgress !== null) {
      throw new AppError('BATCH_RUNNING', `Settlement run ${check.runInProgress} of ${month} is in progress; close the month after it`);
    }
    if (check.blocking > 0) {
      const detail = (['CALCULATED'] as const).map((s) => `${check.byStatus[s]} ${s}`).join(', ');
      throw new AppError(
        'BAD_REQUEST',
        `${check.blocking} settle rows of ${month} are not CONFIRMED, HOLD or PAID (${detail}); settle them before closing`,
        { settleMonth: month, blocking: check.blocking, byStatus: check.byStatus },
      );
    }
    const totals = await trx
      .selectFrom('settle_master')
      .select([
        sql<number>`count(*)::int`.as('n'),
        sql<string>`coalesce(sum(gross_amount), 0)`.as('gross'),
        sql<string>`coalesce(sum(tax_amount), 0)`.as('tax'),
        sql<string>`coalesce(sum(net_amount), 0)`.as('net'),
      ])
      .where('settle_month', '=', month)
      .executeTakeFirstOrThrow();
    const after = await trx
      .updateTable('period_close')
      .set({
        status: 'CLOSED',
        settle_count: Number(totals.n),
        gross_total: totals.gross,
        tax_total: totals.tax,
        net_total: totals.net,
        ...(input.note !== undefined && { note: input.note }),
        closed_by: input.userId,
        closed_at: sql`now()`,
        updated_by: input.userId,
        updated_at: sql`now()`,
        version: sql`version + 1`,
      })
      .where('close_id', '=', input.closeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      before,
      after,
      changes: [{ menuCode: MENU_PERIOD_CLOSE, tableName: 'period_close', recordId: input.closeId, action: 'UPDATE', before, after }],
    };
  });
}

/** CLOSED -> OPEN with a reason (PERIOD_CLOSE has no APPROVE in spec 5.5: UPDATE plus a reason, logged). */
export async function reopenMonth(
  db: Executor,
  input: { closeId: number; userId: number | null; reason: string; version?: number | undefined },
): Promise<PeriodMoveResult> {
  return inTransaction(db, async (trx) => {
    const before = await lockRow(trx, input.closeId);
    checkVersion(before, input.version);
    if (before.status !== 'CLOSED') {
      throw new AppError('ALREADY_CONFIRMED', `Settle month ${before.settle_month} is not closed`);
    }
    await lockMonthExclusive(trx, before.settle_month);
    const after = await trx
      .updateTable('period_close')
      .set({
        status: 'OPEN',
        reopened_by: input.userId,
        reopened_at: sql`now()`,
        reopen_reason: input.reason,
        reopen_count: sql`reopen_count + 1`,
        updated_by: input.userId,
        updated_at: sql`now()`,
        version: sql`version + 1`,
      })
      .where('close_id', '=', input.closeId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      before,
      after,
      changes: [{ menuCode: MENU_PERIOD_CLOSE, tableName: 'period_close', recordId: input.closeId, action: 'UPDATE', before, after }],
    };
  });
}
