import { describe, expect, it } from 'vitest';
import { NoHolidayCalendarError, nextBusinessDay, todayInKorea } from './business-day.js';

describe('nextBusinessDay', () => {
  it('keeps a business day as it is', async () => {
    expect(await nextBusinessDay('2025-05-07')).toEqual({ date: '2025-05-07', skipped: [] });
  });

  it('moves past weekends and Korean public holidays (Chuseok 2025 with its substitute day)', async () => {
    // 2025-10-03 National Foundation Day (Fri), weekend, 10-05..10-07 Chuseok, 10-08 substitute, 10-09 Hangul Day.
    const day = await nextBusinessDay('2025-10-03');
    expect(day.date).toBe('2025-10-10');
    expect(day.skipped.map((s) => s.slice(0, 10))).toEqual([
      '2025-10-03',
      '2025-10-04',
      '2025-10-05',
      '2025-10-06',
      '2025-10-07',
      '2025-10-08',
      '2025-10-09',
    ]);
  });

  it('also skips the configured extra closed days', async () => {
    expect((await nextBusinessDay('2025-12-31', new Set(['2025-12-31']))).date).toBe('2026-01-02');
  });

  it('refuses a year the holiday calendar does not cover instead of guessing', async () => {
    await expect(nextBusinessDay('2099-01-05')).rejects.toBeInstanceOf(NoHolidayCalendarError);
  });

  it('takes today in Korea, nine hours ahead of UTC', () => {
    expect(todayInKorea(new Date('2025-01-31T15:00:00Z'))).toBe('2025-02-01');
    expect(todayInKorea(new Date('2025-01-31T14:59:59Z'))).toBe('2025-01-31');
  });
});
