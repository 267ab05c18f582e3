import { sql, type Kysely } from 'kysely';
import type { Database } from '@csp/db';
import { AppError } from '@csp/service-kit';

export type Executor = Kysely<Database>;

/** Runs `work` in the caller's transaction, or in a new one (service functions are reused by event consumers). */
export function inTransaction<T>(db: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** Advisory-lock namespace of settle months: closing takes it exclusively, moves and bookings shared. */
const MONTH_LOCK = 80_800;

export async function lockMonthShared(trx: Executor, month: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock_shared(${MONTH_LOCK}, ${Number(month)})`.execute(trx);
}

export async function lockMonthExclusive(trx: Executor, month: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${MONTH_LOCK}, ${Number(month)})`.execute(trx);
}

export async function isMonthClosed(db: Executor, month: string): Promise<boolean> {
  const row = await db
    .selectFrom('period_close')
    .select('close_id')
    .where('settle_month', '=', month)
    .where('status', '=', 'CLOSED')
    .executeTakeFirst();
  return row !== undefined;
}

/** B001 naming the month when it is CLOSED (DECISIONS: a closed month refuses runs, moves and ledger changes). */
export async function assertMonthOpen(db: Executor, month: string, refused: string): Promise<void> {
  if (await isMonthClosed(db, month)) {
    throw new AppError('ALREADY_CONFIRMED', `Settle month ${month} is closed: ${refused} refused (reopen it first)`);
  }
}

/** The CLOSED months from `fromMonth` on. */
export async function closedMonthsFrom(db: Executor, fromMonth: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('period_close')
    .select('settle_month')
    .where('status', '=', 'CLOSED')
    .where('settle_month', '>=', fromMonth)
    .execute();
  return new Set(rows.map((r) => r.settle_month));
}
