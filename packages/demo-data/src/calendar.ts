/** Month arithmetic on (year, month) pairs; dates as 'YYYY-MM-DD' strings (no time zones involved). */
export interface YearMonth {
  year: number;
  month: number;
}

export function addMonths(ym: YearMonth, delta: number): YearMonth {
  const index = ym.year * 12 + (ym.month - 1) + delta;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function daysIn(ym: YearMonth): number {
  return new Date(Date.UTC(ym.year, ym.month, 0)).getUTCDate();
}

const pad = (n: number) => String(n).padStart(2, '0');

export function isoDate(ym: YearMonth, day: number): string {
  return `${ym.year}-${pad(ym.month)}-${pad(day)}`;
}

export function settleMonthOf(ym: YearMonth): string {
  return `${ym.year}${pad(ym.month)}`;
}

export function monthIndex(ym: YearMonth): number {
  return ym.year * 12 + ym.month - 1;
}

export function parseIsoDate(text: string): YearMonth & { day: number } {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) throw new RangeError(`not a date YYYY-MM-DD: ${text}`);
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}
