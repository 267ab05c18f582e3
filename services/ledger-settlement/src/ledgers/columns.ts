import { isoTimestamp, moneyColumn, rateColumn, type SpreadsheetColumn } from '@csp/service-kit';
import type { AnyRow } from './list-definition.js';

/** Export column helpers: money and rates as number cells (the kit's, exact decimal text), timestamps ISO. */
export function text<R extends AnyRow>(header: string, key: string, width?: number): SpreadsheetColumn<R> {
  return { header, key, ...(width ? { width } : {}) };
}
export function moneyCol<R extends AnyRow>(header: string, key: string): SpreadsheetColumn<R> {
  return moneyColumn<R>(header, key);
}
export function rateCol<R extends AnyRow>(header: string, key: string): SpreadsheetColumn<R> {
  return rateColumn<R>(header, key);
}
export function timeCol<R extends AnyRow>(header: string, key: string): SpreadsheetColumn<R> {
  return { header, key, width: 24, value: (row) => isoTimestamp(row[key]) };
}
