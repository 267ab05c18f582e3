import { firstDayOfMonth, lastDayOfMonth, shiftSettleMonth } from '@csp/domain';

/** The first and last day of a settle month ('202403' -> '2024-03-01', '2024-03-31'). */
export function monthBounds(settleMonth: string): { first: string; last: string } {
  return { first: firstDayOfMonth(settleMonth), last: lastDayOfMonth(settleMonth) };
}

/** January of the settle month's year ('202403' -> '202401'). */
export function januaryOf(settleMonth: string): string {
  return `${settleMonth.slice(0, 4)}01`;
}

/** The settle months from `from` to `to`, both included, ascending. */
export function monthRange(from: string, to: string): string[] {
  const months: string[] = [];
  for (let m = from; m <= to; m = shiftSettleMonth(m, 1)) months.push(m);
  return months;
}

/** The settle month of a date in UTC ('2026-11-25T..' -> '202611'). */
export function settleMonthOfNow(now: Date = new Date()): string {
  return now.toISOString().slice(0, 7).replace('-', '');
}
