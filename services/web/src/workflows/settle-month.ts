import type { SettleSummary } from './settle-api.js';

/** What a month-wide confirm would take: the month's CALCULATED rows and their net total. */
export function calculatedOf(summary: SettleSummary | undefined): { count: number; net: string } {
  const row = summary?.byStatus.find((b) => b.status === 'CALCULATED');
  return { count: row?.count ?? 0, net: row?.totals.net ?? '0.00' };
}
