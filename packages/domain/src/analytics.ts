import type { Decimal } from 'decimal.js';
import { addMonths, parseIsoDate, parseSettleMonth } from './calendar.js';
import { D, HUNDRED, ZERO, toDec, type DecimalInput } from './decimal.js';
import { DomainError } from './errors.js';

/*
 * Analytics definitions (DECISIONS "Analytics definitions"): retention, retention alerts and the
 * next-month forecast with its backtest. Money averages are HALF_UP to 2 places, rates (percent)
 * HALF_UP to 4 places, like every other rate on the wire.
 */

export interface ContractLifecycle {
  status: string;
  contractDate: string;
  lapseDate: string | null;
  revivalDate: string | null;
}

/**
 * Whether a contract is in force on a date: it has started, is not TERMINATE (a termination carries no
 * date, so it counts from the start), and has not lapsed on or before the date unless revived (on or
 * after the lapse) on or before it. The current status ACTIVE/REVIVE/LAPSE does not decide alone:
 * a contract that lapsed after the date was still in force on it.
 */
export function inForceOn(contract: ContractLifecycle, date: string): boolean {
  parseIsoDate(date);
  if (contract.contractDate > date || contract.status === 'TERMINATE') return false;
  const { lapseDate, revivalDate } = contract;
  if (lapseDate === null || lapseDate > date) return true;
  return revivalDate !== null && revivalDate >= lapseDate && revivalDate <= date;
}

/** The date a contract's retention is measured on: its contract date plus 13 or 25 months (clamped). */
export function retentionCheckpoint(contractDate: string, horizon: number): string {
  return addMonths(contractDate, horizon);
}

/** Retention of a cohort: retained / total x 100, HALF_UP to 4 places (percent). */
export function retentionRate(retained: number, total: number): Decimal {
  if (!Number.isInteger(total) || total <= 0) {
    throw new DomainError('INVALID_NUMBER', `cohort size must be a positive integer: ${total}`, 'total');
  }
  if (!Number.isInteger(retained) || retained < 0 || retained > total) {
    throw new DomainError('INVALID_NUMBER', `retained must be an integer from 0 to ${total}: ${retained}`, 'retained');
  }
  return new D(retained).times(HUNDRED).div(total).toDecimalPlaces(4, D.ROUND_HALF_UP);
}

export type RetentionAlertType = 'BELOW_THRESHOLD' | 'DROP';

export interface RetentionAlertInput {
  rate: DecimalInput;
  /** The same subject's rate for the previous cohort month; null when unknown. */
  previousRate: DecimalInput | null;
  /** RETENTION_ALERT_13M / RETENTION_ALERT_25M (percent). */
  threshold: DecimalInput;
  /** RETENTION_ALERT_DROP (points). */
  dropPoints: DecimalInput;
}

export interface RetentionAlert {
  type: RetentionAlertType;
  /** previousRate - rate, set for DROP. */
  dropPoints?: Decimal;
}

/** BELOW_THRESHOLD when rate < threshold; DROP when previousRate - rate >= dropPoints. */
export function retentionAlerts(input: RetentionAlertInput): RetentionAlert[] {
  const rate = toDec(input.rate, 'rate');
  const alerts: RetentionAlert[] = [];
  if (rate.lt(toDec(input.threshold, 'threshold'))) alerts.push({ type: 'BELOW_THRESHOLD' });
  if (input.previousRate !== null) {
    const fall = toDec(input.previousRate, 'previousRate').minus(rate);
    if (fall.gte(toDec(input.dropPoints, 'dropPoints'))) alerts.push({ type: 'DROP', dropPoints: fall });
  }
  return alerts;
}

export const FORECAST_WINDOWS = { MA3: 3, MA6: 6, NAIVE: 1 } as const;
export type ForecastMethodName = keyof typeof FORECAST_WINDOWS;

/** Mean of money amounts, HALF_UP to 2 places. */
export function averageMoney(values: readonly DecimalInput[]): Decimal {
  if (values.length === 0) throw new DomainError('INVALID_NUMBER', 'an average needs at least one value', 'values');
  let total = ZERO;
  for (const v of values) total = total.plus(toDec(v, 'value'));
  return total.div(values.length).toDecimalPlaces(2, D.ROUND_HALF_UP);
}

/** One month of an organization's series; value null = no figure for that month. */
export interface SeriesPoint {
  month: string;
  value: DecimalInput | null;
}

export interface Forecast {
  /** Months whose values were averaged (the known ones of the window), oldest first. */
  monthsUsed: string[];
  value: Decimal;
}

function assertConsecutive(series: readonly SeriesPoint[]): void {
  for (let i = 0; i < series.length; i++) {
    const { year, month } = parseSettleMonth(series[i]!.month);
    if (i === 0) continue;
    const prev = parseSettleMonth(series[i - 1]!.month);
    if (year * 12 + month !== prev.year * 12 + prev.month + 1) {
      throw new DomainError('INVALID_SETTLE_MONTH', 'series months must be consecutive and ascending', 'series');
    }
  }
}

/**
 * The forecast of the month after the series' `end` index (exclusive): the mean of the known values of
 * the last `window` months (MA3: 3, MA6: 6, NAIVE: 1 = the last month). Undefined when none is known.
 */
function forecastBefore(series: readonly SeriesPoint[], end: number, window: number): Forecast | undefined {
  const used = series.slice(Math.max(0, end - window), end).filter((p) => p.value !== null);
  if (used.length === 0) return undefined;
  return { monthsUsed: used.map((p) => p.month), value: averageMoney(used.map((p) => p.value!)) };
}

/** Next month's figure from a consecutive ascending series ending with the base month. */
export function forecastNext(series: readonly SeriesPoint[], method: ForecastMethodName): Forecast | undefined {
  assertConsecutive(series);
  return forecastBefore(series, series.length, FORECAST_WINDOWS[method]);
}

export interface Backtest {
  /** Mean absolute percentage error (percent, HALF_UP 4 places); null when no month could be tested. */
  mape: Decimal | null;
  /** Months the mean was taken over. */
  months: string[];
}

/**
 * The method replayed on each of the last `lastMonths` months of the series: forecast from the months
 * before it, APE = |actual - forecast| / |actual| x 100. Months without an actual, with an actual of
 * 0 (APE undefined) or without any earlier value are left out; MAPE = mean of the APEs.
 */
export function backtestMape(series: readonly SeriesPoint[], method: ForecastMethodName, lastMonths = 6): Backtest {
  assertConsecutive(series);
  const window = FORECAST_WINDOWS[method];
  const months: string[] = [];
  let total = ZERO;
  for (let i = Math.max(0, series.length - lastMonths); i < series.length; i++) {
    const point = series[i]!;
    if (point.value === null) continue;
    const actual = toDec(point.value, 'actual');
    if (actual.isZero()) continue;
    const forecast = forecastBefore(series, i, window);
    if (forecast === undefined) continue;
    const error = actual.minus(forecast.value).abs().div(actual.abs()).times(HUNDRED);
    total = total.plus(error);
    months.push(point.month);
  }
  if (months.length === 0) return { mape: null, months };
  return { mape: total.div(months.length).toDecimalPlaces(4, D.ROUND_HALF_UP), months };
}
