import { parseIsoDate } from './calendar.js';

/** The columns every rule row shares (spec 2.4), camelCased; dates 'YYYY-MM-DD'. */
export interface EffectiveRow {
  effectiveFrom: string;
  effectiveTo: string | null;
  version?: number | null;
  /** Missing means active; `false` rows are never chosen. */
  isActive?: boolean | null;
  productCategory?: string | null;
}

export interface LookupOptions {
  /**
   * The product category asked for. Omitted: categories are ignored. Given: a row matches when its
   * category is NULL or 'ALL' (applies to all) or equals it; an exact row is preferred over a
   * NULL/'ALL' row even when the general row is newer, because a category-specific rule is the more
   * specific decision. `null` asks for the general rows only.
   */
  category?: string | null;
}

const ALL = 'ALL';

export function isGeneralCategory(category: string | null | undefined): boolean {
  return category === null || category === undefined || category === ALL;
}

/** Row category NULL/'ALL' applies to every product; otherwise it must equal the wanted one. */
export function categoryMatches(rowCategory: string | null | undefined, wanted: string | null): boolean {
  return isGeneralCategory(rowCategory) || rowCategory === wanted;
}

type Rank<T> = (a: T, b: T) => number;

function pick<T extends EffectiveRow>(
  rows: readonly T[],
  applies: (row: T) => boolean,
  options: LookupOptions | undefined,
  rank: Rank<T>,
): T | undefined {
  const wanted = options?.category;
  const byCategory = wanted !== undefined;
  let best: T | undefined;
  let bestExact = false;
  for (const row of rows) {
    if (row.isActive === false || !applies(row)) continue;
    if (byCategory && !categoryMatches(row.productCategory, wanted)) continue;
    const exact = byCategory && !isGeneralCategory(row.productCategory);
    if (best === undefined || (exact && !bestExact) || (exact === bestExact && rank(row, best) > 0)) {
      best = row;
      bestExact = exact;
    }
  }
  return best;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const byVersionThenFrom: Rank<EffectiveRow> = (a, b) =>
  (a.version ?? 0) - (b.version ?? 0) || compareStrings(a.effectiveFrom, b.effectiveFrom);

const byFromThenVersion: Rank<EffectiveRow> = (a, b) =>
  compareStrings(a.effectiveFrom, b.effectiveFrom) || (a.version ?? 0) - (b.version ?? 0);

/**
 * Commission, payout, chargeback-rule semantics (2.4): effectiveFrom <= date < effectiveTo (NULL =
 * open), highest version; equal versions -> latest effectiveFrom; full ties keep the first row.
 */
export function findHalfOpen<T extends EffectiveRow>(
  rows: readonly T[],
  date: string,
  predicate: (row: T) => boolean = () => true,
  options?: LookupOptions,
): T | undefined {
  parseIsoDate(date);
  return pick(
    rows,
    (r) => r.effectiveFrom <= date && (r.effectiveTo === null || date < r.effectiveTo) && predicate(r),
    options,
    byVersionThenFrom,
  );
}

/**
 * Regulatory limit, chargeback grade, installment ratio semantics (2.4): active rows with
 * effectiveFrom <= date and (effectiveTo NULL or effectiveTo >= date), newest effectiveFrom
 * (then highest version); one row.
 */
export function findClosed<T extends EffectiveRow>(
  rows: readonly T[],
  date: string,
  predicate: (row: T) => boolean = () => true,
  options?: LookupOptions,
): T | undefined {
  parseIsoDate(date);
  return pick(
    rows,
    (r) => r.effectiveFrom <= date && (r.effectiveTo === null || r.effectiveTo >= date) && predicate(r),
    options,
    byFromThenVersion,
  );
}
