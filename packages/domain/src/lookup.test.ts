import { describe, expect, it } from 'vitest';
import { categoryMatches, findClosed, findHalfOpen, isGeneralCategory, type EffectiveRow } from './lookup.js';

interface Row extends EffectiveRow {
  id: number;
}

const row = (id: number, effectiveFrom: string, effectiveTo: string | null, extra: Partial<Row> = {}): Row => ({
  id,
  effectiveFrom,
  effectiveTo,
  ...extra,
});

describe('half-open lookup (commission, payout, chargeback rule)', () => {
  it('includes effective_from and excludes effective_to', () => {
    const rows = [row(1, '2024-01-01', '2024-02-01')];
    expect(findHalfOpen(rows, '2024-01-01')?.id).toBe(1);
    expect(findHalfOpen(rows, '2024-01-31')?.id).toBe(1);
    expect(findHalfOpen(rows, '2024-02-01')).toBeUndefined();
    expect(findHalfOpen(rows, '2023-12-31')).toBeUndefined();
  });

  it('prefers the highest version, then the latest effective_from; a missing version counts as 0', () => {
    const rows = [row(1, '2024-03-01', null), row(2, '2024-01-01', null, { version: 3 }), row(3, '2024-02-01', null, { version: 3 })];
    expect(findHalfOpen(rows, '2024-04-01')?.id).toBe(3);
    expect(findHalfOpen([row(1, '2024-01-01', null, { version: null }), row(2, '2023-01-01', null, { version: 1 })], '2024-04-01')?.id).toBe(2);
  });

  it('keeps the first of two identical candidates', () => {
    expect(findHalfOpen([row(1, '2024-01-01', null), row(2, '2024-01-01', null)], '2024-04-01')?.id).toBe(1);
  });

  it('applies the predicate and skips inactive rows', () => {
    const rows = [row(1, '2024-01-01', null, { isActive: false }), row(2, '2023-01-01', null), row(3, '2024-01-01', null)];
    expect(findHalfOpen(rows, '2024-05-01', (r) => r.id !== 3)?.id).toBe(2);
  });

  it('validates the date', () => {
    expect(() => findHalfOpen([], '2024-02-30')).toThrow(expect.objectContaining({ code: 'INVALID_DATE' }));
  });
});

describe('closed lookup (regulatory limit, chargeback grade, installment ratio)', () => {
  it('includes both ends and prefers the newest effective_from, then the highest version', () => {
    const rows = [
      row(1, '2020-01-01', '2024-01-01'),
      row(2, '2023-01-01', null, { version: 1 }),
      row(3, '2023-01-01', null, { version: 2 }),
      row(4, '2024-01-02', null),
    ];
    expect(findClosed(rows, '2024-01-01')?.id).toBe(3);
    expect(findClosed([rows[0]!], '2024-01-01')?.id).toBe(1);
    expect(findClosed(rows, '2024-01-02')?.id).toBe(4);
    expect(findClosed(rows, '2019-12-31')).toBeUndefined();
  });

  it('skips inactive rows and applies the predicate', () => {
    const rows = [row(1, '2020-01-01', null), row(2, '2023-01-01', null, { isActive: false }), row(3, '2024-01-01', null, { isActive: true })];
    expect(findClosed(rows, '2023-06-01')?.id).toBe(1);
    expect(findClosed(rows, '2024-06-01', (r) => r.id < 3)?.id).toBe(1);
  });
});

describe('product category', () => {
  const rows = [
    row(1, '2024-01-01', null, { productCategory: null }),
    row(2, '2020-01-01', null, { productCategory: 'LIFE' }),
    row(3, '2024-06-01', null, { productCategory: 'ALL' }),
    row(4, '2024-01-01', null, { productCategory: 'ANNUITY' }),
  ];

  it('treats NULL and ALL as all categories', () => {
    expect(isGeneralCategory(null)).toBe(true);
    expect(isGeneralCategory(undefined)).toBe(true);
    expect(isGeneralCategory('ALL')).toBe(true);
    expect(isGeneralCategory('LIFE')).toBe(false);
    expect(categoryMatches(null, 'LIFE')).toBe(true);
    expect(categoryMatches('LIFE', 'LIFE')).toBe(true);
    expect(categoryMatches('LIFE', 'ANNUITY')).toBe(false);
    expect(categoryMatches('LIFE', null)).toBe(false);
  });

  it('prefers the exact category row even when a general row is newer', () => {
    expect(findClosed(rows, '2024-07-01', undefined, { category: 'LIFE' })?.id).toBe(2);
    expect(findHalfOpen(rows, '2024-07-01', undefined, { category: 'LIFE' })?.id).toBe(2);
  });

  it('falls back to the newest general row for another category', () => {
    expect(findClosed(rows, '2024-07-01', undefined, { category: 'SAVINGS' })?.id).toBe(3);
  });

  it('asks only for general rows when the category is null, and ignores categories when omitted', () => {
    expect(findClosed(rows, '2024-03-01', undefined, { category: null })?.id).toBe(1);
    expect(findClosed(rows, '2024-03-01')?.id).toBe(1);
    expect(findClosed(rows, '2024-03-01', (r) => r.id !== 1)?.id).toBe(4);
  });

  it('keeps an earlier exact row over a later exact row only by date order', () => {
    const exact = [row(5, '2021-01-01', null, { productCategory: 'LIFE' }), row(6, '2022-01-01', null, { productCategory: 'LIFE' })];
    expect(findClosed([...exact, ...rows], '2024-07-01', undefined, { category: 'LIFE' })?.id).toBe(6);
  });
});
