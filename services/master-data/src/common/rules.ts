import { sql, type Expression, type SqlBool } from 'kysely';
import { z } from 'zod';
import { invalid, type AnyQuery } from '@csp/service-kit';
import type { Db, ProductCategory } from '@csp/db';

// Pieces the rule areas share: sign checks of money/rate fields, validity periods and the product
// category of limits, grades and ratios.

/** `.refine(nonNegative)` of a money or rate field (shared with the field tables of @csp/field-tables). */
export { nonNegative } from '@csp/field-tables';
/** `.refine(positive)` of a rate field. */
export const positive = <T extends z.ZodType>(schema: T): T =>
  schema.refine((v) => !String(v).startsWith('-') && /[1-9]/.test(String(v)), 'must be positive');

interface Period {
  effectiveFrom: string;
  effectiveTo?: string | null;
}

/** Half-open rules (commission, payout, override, chargeback): effective_to is exclusive. */
export function checkHalfOpenPeriod(body: Period): void {
  if (body.effectiveTo && body.effectiveTo <= body.effectiveFrom) {
    throw invalid('effectiveTo', 'must be after effectiveFrom (effectiveTo is exclusive)');
  }
}

/** Closed periods (limits, grades, ratios): effective_to is inclusive and may equal effective_from. */
export function checkClosedPeriod(body: Period): void {
  if (body.effectiveTo && body.effectiveTo < body.effectiveFrom) {
    throw invalid('effectiveTo', 'must not be before effectiveFrom');
  }
}

/** Rows valid on `date`: effective_from <= date < effective_to (half-open) or <= effective_to (closed); NULL = open. */
export function validOn(alias: string, date: string, rule: 'half-open' | 'closed'): Expression<SqlBool> {
  const from = sql.ref(`${alias}.effective_from`);
  const to = sql.ref(`${alias}.effective_to`);
  const end = rule === 'closed' ? sql`>=` : sql`>`;
  return sql<SqlBool>`(${from} <= ${date}::date AND (${to} IS NULL OR ${to} ${end} ${date}::date))`;
}

/** Category filter of a list: 'ALL' also finds the NULL (= all) rows. */
export function categoryFilter(qb: AnyQuery, alias: string, category: string | undefined): AnyQuery {
  if (!category) return qb;
  const column = sql.ref(`${alias}.product_category`);
  return qb.where(category === 'ALL' ? sql<SqlBool>`(${column} IS NULL OR ${column} = 'ALL')` : sql<SqlBool>`${column} = ${category}`);
}

/** E411 on `field` unless `table.column = value` exists (nicer than the foreign key's E400). */
export async function requireReference(
  db: Db,
  table: 'product' | 'grade' | 'insurance_company',
  column: string,
  value: number | string,
  field: string,
  label: string,
): Promise<void> {
  const row = await sql`SELECT 1 FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${value} LIMIT 1`.execute(db);
  if (row.rows.length === 0) throw invalid(field, `${label} ${value} does not exist`);
}

/**
 * Product category of a product for limits, grades and ratios: product_group when set, otherwise
 * mapped from insurance_type (AUTO -> EXCLUDED_AUTO, HEALTH -> EXCLUDED_HEALTH, LIFE/ANNUITY/SAVINGS
 * as is); NON_LIFE has no category, so only the all-category (NULL/'ALL') rows apply to it.
 */
export function productCategoryOf(product: { product_group: string | null; insurance_type: string }): ProductCategory | null {
  if (product.product_group) return product.product_group as ProductCategory;
  switch (product.insurance_type) {
    case 'LIFE':
    case 'ANNUITY':
    case 'SAVINGS':
      return product.insurance_type;
    case 'AUTO':
      return 'EXCLUDED_AUTO';
    case 'HEALTH':
      return 'EXCLUDED_HEALTH';
    default:
      return null;
  }
}
