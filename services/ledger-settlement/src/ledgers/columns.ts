import { isoTimestamp, money, rate, type SpreadsheetColumn } from '@csp/service-kit';
import type { AnyRow } from './list-definition.js';

/** Export column helpers: money and rates as text (never through a JS number), timestamps ISO. */
export function text<R extends AnyRow>(header: string, key: string, width?: number): SpreadsheetColumn<R> {
  return { header, key, ...(width ? { width } : {}) };
}
export function moneyCol<R extends AnyRow>(header: string, key: string): SpreadsheetColumn<R> {
  return { header, key, width: 16, value: (row) => money(row[key]) };
}
export function rateCol<R extends AnyRow>(header: string, key: string): SpreadsheetColumn<R> {
  return { header, key, value: (row) => rate(row[key]) };
}
export function timeCol<R extends AnyRow>(header: string, key: string): SpreadsheetColumn<R> {
  return { header, key, width: 24, value: (row) => isoTimestamp(row[key]) };
}
