import { getHolidayPreset } from '@hyunbinseo/holidays-kr';

/** Years the holiday package has no calendar for (its presets cover 2018 onwards, a few years ahead). */
export class NoHolidayCalendarError extends Error {
  constructor(readonly year: string) {
    super(`no Korean public-holiday calendar for ${year}: update @hyunbinseo/holidays-kr`);
  }
}

async function holidaysOf(year: string): Promise<Readonly<Record<string, readonly string[]>>> {
  try {
    return await getHolidayPreset(year);
  } catch (err) {
    if (err instanceof RangeError) throw new NoHolidayCalendarError(year);
    throw err;
  }
}

function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function isWeekend(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6;
}

export interface BusinessDay {
  date: string;
  /** Why earlier days were skipped, e.g. ["2025-10-03 Sat", "2025-10-05 추석"]. */
  skipped: string[];
}

/**
 * The first Korean bank business day on or after `date` (YYYY-MM-DD): weekends, public holidays
 * (@hyunbinseo/holidays-kr, the official gazette) and the configured extra closed days are skipped.
 * A year the package does not cover throws NoHolidayCalendarError rather than guessing.
 */
export async function nextBusinessDay(date: string, closedDays: ReadonlySet<string> = new Set()): Promise<BusinessDay> {
  const skipped: string[] = [];
  let day = date;
  for (let i = 0; i < 60; i += 1) {
    const holidays = await holidaysOf(day.slice(0, 4));
    const names = holidays[day];
    if (isWeekend(day)) skipped.push(`${day} weekend`);
    else if (names && names.length > 0) skipped.push(`${day} ${names.join(', ')}`);
    else if (closedDays.has(day)) skipped.push(`${day} closed (BANK_CLOSED_DAYS)`);
    else return { date: day, skipped };
    day = nextDay(day);
  }
  throw new Error(`no business day within 60 days of ${date}`);
}

/** Today's date in Korea (UTC+9, no daylight saving). */
export function todayInKorea(now = new Date()): string {
  return new Date(now.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
}
