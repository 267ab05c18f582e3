import {
  archiveMonth,
  archivedMonths,
  ensureMonthPartitions,
  monthsAhead,
  partitionMonths,
  restoreMonth,
} from '@csp/db';
import { invalid, type ServiceApp } from '@csp/service-kit';
import { inTransaction, isMonthClosed, lockMonthExclusive, type Executor } from './month-guard.js';

export interface PartitionState {
  /** Months with live partitions (maintain_ledger's), ascending. */
  liveMonths: string[];
  /** Months detached into schema archive, ascending. */
  archivedMonths: string[];
}

export async function partitionState(db: Executor): Promise<PartitionState> {
  return { liveMonths: await partitionMonths(db, 'maintain_ledger'), archivedMonths: await archivedMonths(db) };
}

const monthsOfYear = (year: number) => monthsAhead(`${year}01`, 11);

/**
 * Detaches a closed year's month partitions into schema archive (settle_master stays attached: payments, holds
 * and disputes reference it). Every month of the year that has partitions must be CLOSED (E411 naming the first
 * open one); a year without partitions is E411 too. One transaction; the months are locked like a close.
 */
export async function archiveYear(db: Executor, year: number): Promise<{ months: string[]; tables: string[] }> {
  return inTransaction(db, async (trx) => {
    const live = new Set(await partitionMonths(trx, 'maintain_ledger'));
    for (const table of ['recruit_ledger', 'contract_accounting_entry'] as const) {
      for (const m of await partitionMonths(trx, table)) live.add(m);
    }
    const months = monthsOfYear(year).filter((m) => live.has(m));
    if (months.length === 0) throw invalid('year', `no live month partitions in ${year}`);
    for (const month of months) {
      await lockMonthExclusive(trx, month);
      if (!(await isMonthClosed(trx, month))) {
        throw invalid('year', `settle month ${month} is not closed: only a closed year is archived`);
      }
    }
    const tables = new Set<string>();
    for (const month of months) for (const t of await archiveMonth(trx, month)) tables.add(t);
    return { months, tables: [...tables].sort() };
  });
}

/** Re-attaches a year's archived months (E411 when none is archived). */
export async function restoreYear(db: Executor, year: number): Promise<{ months: string[]; tables: string[] }> {
  return inTransaction(db, async (trx) => {
    const archived = new Set(await archivedMonths(trx));
    const months = monthsOfYear(year).filter((m) => archived.has(m));
    if (months.length === 0) throw invalid('year', `no archived months in ${year}`);
    const tables = new Set<string>();
    for (const month of months) for (const t of await restoreMonth(trx, month)) tables.add(t);
    return { months, tables: [...tables].sort() };
  });
}

/** The current month (UTC) and `ahead` months after it. */
export function monthsToPrepare(today: Date, ahead: number): string[] {
  const current = `${today.getUTCFullYear()}${String(today.getUTCMonth() + 1).padStart(2, '0')}`;
  return monthsAhead(current, ahead);
}

/** One maintenance pass: the partitions of this month and the next `ahead`. Returns the partitions created. */
export async function preparePartitions(db: Executor, today: Date, ahead: number): Promise<number> {
  let created = 0;
  for (const month of monthsToPrepare(today, ahead)) created += await ensureMonthPartitions(db, month);
  return created;
}

/**
 * The partition maintenance job of the API process: a pass at start and every PARTITION_MAINTENANCE_MS
 * (default hourly; 0 = off, as in the tests, where the run's own hook makes what a test needs). Every replica
 * may run it: ensureMonthPartitions is idempotent and serialized in PostgreSQL.
 */
export function startPartitionMaintenance(app: ServiceApp, env: NodeJS.ProcessEnv = process.env): void {
  const fallback = env.NODE_ENV === 'test' || env.VITEST ? 0 : 3_600_000;
  const intervalMs = env.PARTITION_MAINTENANCE_MS === undefined ? fallback : Number(env.PARTITION_MAINTENANCE_MS);
  const ahead = Number(env.PARTITION_MONTHS_AHEAD ?? 2);
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) return;
  const log = app.log.child({ component: 'partition-maintenance' });
  const pass = async () => {
    try {
      const created = await preparePartitions(app.db, new Date(), ahead);
      if (created > 0) log.info({ created }, `month partitions created: ${created}`);
    } catch (err) {
      log.warn({ err }, 'month partition maintenance failed; retried at the next pass');
    }
  };
  const first = setTimeout(() => void pass(), 1_000);
  const timer = setInterval(() => void pass(), intervalMs);
  first.unref();
  timer.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
  });
}

