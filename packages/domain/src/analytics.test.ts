import { describe, expect, it } from 'vitest';
import {
  averageMoney,
  backtestMape,
  forecastNext,
  inForceOn,
  retentionAlerts,
  retentionCheckpoint,
  retentionRate,
  type SeriesPoint,
} from './analytics.js';
import { DomainError } from './errors.js';

const contract = (extra: Partial<Parameters<typeof inForceOn>[0]> = {}) => ({
  status: 'ACTIVE',
  contractDate: '2023-01-10',
  lapseDate: null,
  revivalDate: null,
  ...extra,
});

describe('inForceOn', () => {
  it('an active contract is in force from its contract date on', () => {
    expect(inForceOn(contract(), '2023-01-09')).toBe(false);
    expect(inForceOn(contract(), '2023-01-10')).toBe(true);
    expect(inForceOn(contract(), '2030-01-10')).toBe(true);
  });

  it('a lapse ends it on the lapse date, also when the status is still ACTIVE', () => {
    const lapsed = contract({ status: 'LAPSE', lapseDate: '2024-01-20' });
    expect(inForceOn(lapsed, '2024-01-19')).toBe(true);
    expect(inForceOn(lapsed, '2024-01-20')).toBe(false);
    expect(inForceOn({ ...lapsed, status: 'ACTIVE' }, '2024-02-10')).toBe(false);
  });

  it('a revival on or after the lapse puts it back in force from the revival date', () => {
    const revived = contract({ status: 'REVIVE', lapseDate: '2024-01-20', revivalDate: '2024-06-01' });
    expect(inForceOn(revived, '2024-02-10')).toBe(false);
    expect(inForceOn(revived, '2024-06-01')).toBe(true);
    expect(inForceOn({ ...revived, revivalDate: '2023-12-01' }, '2024-06-01')).toBe(false);
  });

  it('a terminated contract is never in force (its termination has no date)', () => {
    expect(inForceOn(contract({ status: 'TERMINATE' }), '2023-06-01')).toBe(false);
  });
});

describe('retention', () => {
  it('measures 13 and 25 months after the contract date, clamped to the month end', () => {
    expect(retentionCheckpoint('2023-01-10', 13)).toBe('2024-02-10');
    expect(retentionCheckpoint('2023-01-10', 25)).toBe('2025-02-10');
    expect(retentionCheckpoint('2024-01-31', 13)).toBe('2025-02-28');
  });

  it('rate = retained / total x 100, HALF_UP to 4 places', () => {
    expect(retentionRate(2, 3).toFixed(4)).toBe('66.6667');
    expect(retentionRate(1, 3).toFixed(4)).toBe('33.3333');
    expect(retentionRate(8, 10).toFixed(4)).toBe('80.0000');
    expect(retentionRate(0, 5).toFixed(4)).toBe('0.0000');
    expect(retentionRate(1, 8).toFixed(4)).toBe('12.5000');
    expect(retentionRate(1, 16).toFixed(4)).toBe('6.2500');
    expect(retentionRate(1, 32).toFixed(4)).toBe('3.1250');
    expect(retentionRate(1, 64).toFixed(4)).toBe('1.5625');
    expect(retentionRate(1, 128).toFixed(4)).toBe('0.7813'); // 0.78125 -> HALF_UP
  });

  it('refuses an empty cohort or more retained than contracts', () => {
    expect(() => retentionRate(0, 0)).toThrow(DomainError);
    expect(() => retentionRate(4, 3)).toThrow(DomainError);
    expect(() => retentionRate(-1, 3)).toThrow(DomainError);
  });
});

describe('retentionAlerts', () => {
  const base = { threshold: '80', dropPoints: '10' };

  it('alerts below the threshold, not at it', () => {
    expect(retentionAlerts({ ...base, rate: '79.9999', previousRate: null })).toEqual([{ type: 'BELOW_THRESHOLD' }]);
    expect(retentionAlerts({ ...base, rate: '80.0000', previousRate: null })).toEqual([]);
  });

  it('alerts a fall of at least the drop points from the previous cohort', () => {
    const drop = retentionAlerts({ ...base, rate: '85', previousRate: '95' });
    expect(drop.map((a) => a.type)).toEqual(['DROP']);
    expect(drop[0]!.dropPoints!.toFixed(4)).toBe('10.0000');
    expect(retentionAlerts({ ...base, rate: '85', previousRate: '94.9999' })).toEqual([]);
    expect(retentionAlerts({ ...base, rate: '85', previousRate: '70' })).toEqual([]);
  });

  it('both at once', () => {
    const both = retentionAlerts({ ...base, rate: '66.6667', previousRate: '100' });
    expect(both.map((a) => a.type)).toEqual(['BELOW_THRESHOLD', 'DROP']);
    expect(both[1]!.dropPoints!.toFixed(4)).toBe('33.3333');
  });
});

describe('forecast', () => {
  const months = ['202401', '202402', '202403', '202404', '202405', '202406', '202407', '202408', '202409', '202410', '202411', '202412'];
  const linear: SeriesPoint[] = months.map((month, i) => ({ month, value: `${(i + 1) * 100}.00` }));

  it('averages money HALF_UP to 2 places', () => {
    expect(averageMoney(['100.00', '200.00', '300.01']).toFixed(2)).toBe('200.00');
    expect(averageMoney(['0.01', '0.02']).toFixed(2)).toBe('0.02');
    expect(averageMoney(['-0.01', '-0.02']).toFixed(2)).toBe('-0.02');
  });

  it('MA3, MA6 and NAIVE forecast the month after the series', () => {
    const half = linear.slice(0, 6); // 100 .. 600
    expect(forecastNext(half, 'MA3')).toEqual({ monthsUsed: ['202404', '202405', '202406'], value: expect.anything() });
    expect(forecastNext(half, 'MA3')!.value.toFixed(2)).toBe('500.00');
    expect(forecastNext(half, 'MA6')!.value.toFixed(2)).toBe('350.00');
    expect(forecastNext(half, 'NAIVE')!.monthsUsed).toEqual(['202406']);
    expect(forecastNext(half, 'NAIVE')!.value.toFixed(2)).toBe('600.00');
  });

  it('uses the known months of the window only and gives nothing without any', () => {
    const gaps: SeriesPoint[] = [
      { month: '202401', value: '90.00' },
      { month: '202402', value: null },
      { month: '202403', value: '30.00' },
    ];
    expect(forecastNext(gaps, 'MA3')!.monthsUsed).toEqual(['202401', '202403']);
    expect(forecastNext(gaps, 'MA3')!.value.toFixed(2)).toBe('60.00');
    expect(forecastNext([{ month: '202401', value: null }], 'NAIVE')).toBeUndefined();
  });

  it('backtests over the last 6 months: on 100, 200, ..., 1200 NAIVE errs 1/t and MA3 2/t', () => {
    // month t (7..12) has actual 100t; NAIVE forecasts 100(t-1), MA3 100(t-2), MA6 100(t-3.5).
    // MAPE NAIVE = 100/6 x (1/7 + ... + 1/12) = 10.886844..., MA3 twice that, MA6 3.5 times.
    const naive = backtestMape(linear, 'NAIVE');
    expect(naive.months).toEqual(months.slice(6));
    expect(naive.mape!.toFixed(4)).toBe('10.8868');
    expect(backtestMape(linear, 'MA3').mape!.toFixed(4)).toBe('21.7737');
    expect(backtestMape(linear, 'MA6').mape!.toFixed(4)).toBe('38.1040');
  });

  it('leaves out months with an actual of 0 or no history', () => {
    const series: SeriesPoint[] = [
      { month: '202401', value: '100.00' },
      { month: '202402', value: '0.00' },
      { month: '202403', value: '150.00' },
    ];
    // 202401: no history; 202402: actual 0; 202403: NAIVE forecast 0 -> APE 100.
    expect(backtestMape(series, 'NAIVE')).toEqual({ mape: expect.anything(), months: ['202403'] });
    expect(backtestMape(series, 'NAIVE').mape!.toFixed(4)).toBe('100.0000');
    expect(backtestMape(series.slice(0, 1), 'NAIVE')).toEqual({ mape: null, months: [] });
  });

  it('refuses a series whose months are not consecutive', () => {
    expect(() => forecastNext([{ month: '202401', value: '1' }, { month: '202403', value: '1' }], 'NAIVE')).toThrow(DomainError);
  });
});
