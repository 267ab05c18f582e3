import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { z } from 'zod';
import { invalid, zDate, zMoney, zRate } from '@csp/service-kit';
import type { Database, ProductCategory } from '@csp/db';

export type { ProductCategory };
// The helpers every master-data area shares live in people-db.ts.
export { codeName, insertAudit, today, updateAudit } from './people-db.js';
export type RulesDatabase = Database;
export type RulesDb = Kysely<RulesDatabase>;
export type RulesExecutor = RulesDb | Transaction<RulesDatabase>;

/** The app's Kysely instance seen with the master-data tables. */
export function rulesDb(app: FastifyInstance<any, any, any, any, any>): RulesDb {
  return app.db as unknown as RulesDb;
}

/** A resource context's transaction seen with the master-data tables. */
export function asRulesExecutor(trx: unknown): RulesExecutor {
  return trx as RulesExecutor;
}

export const PRODUCT_CATEGORIES = [
  'ALL',
  'LIFE',
  'ANNUITY',
  'SAVINGS',
  'EXCLUDED_AUTO',
  'EXCLUDED_HEALTH',
] as const;

// ---- request pieces --------------------------------------------------------------------------

/** Rate in percent, >= 0 (numeric(7,4)). */
export const zNonNegativeRate = zRate.refine((v) => !v.startsWith('-'), 'must not be negative');
/** Rate in percent, > 0. */
export const zPositiveRate = zRate.refine((v) => !v.startsWith('-') && /[1-9]/.test(v), 'must be positive');
/** Money, >= 0. */
export const zNonNegativeMoney = zMoney.refine((v) => !v.startsWith('-'), 'must not be negative');

/** 'true' | 'false' in a query string. */
export const zBoolFilter = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((v) => v === 'true');

export const effectiveFields = {
  effectiveFrom: zDate,
  effectiveTo: zDate.nullable().optional(),
};

/**
 * Half-open rules (commission, payout, override, chargeback): effective_to is exclusive, so it must
 * lie after effective_from.
 */
export function checkHalfOpenPeriod(body: { effectiveFrom: string; effectiveTo?: string | null }): void {
  if (body.effectiveTo && body.effectiveTo <= body.effectiveFrom) {
    throw invalid('effectiveTo', 'must be after effectiveFrom (effectiveTo is exclusive)');
  }
}

/** Closed periods (limits, grades, ratios): effective_to is inclusive and may equal effective_from. */
export function checkClosedPeriod(body: { effectiveFrom: string; effectiveTo?: string | null }): void {
  if (body.effectiveTo && body.effectiveTo < body.effectiveFrom) {
    throw invalid('effectiveTo', 'must not be before effectiveFrom');
  }
}

// ---- SQL pieces ------------------------------------------------------------------------------

/** Rows valid on `date` under the half-open rule: effective_from <= date < effective_to (NULL = open). */
export function validOnHalfOpen(alias: string, date: string): Expression<SqlBool> {
  const from = sql.ref(`${alias}.effective_from`);
  const to = sql.ref(`${alias}.effective_to`);
  return sql<SqlBool>`(${from} <= ${date}::date AND (${to} IS NULL OR ${to} > ${date}::date))`;
}

/** Rows valid on `date` under the closed rule: effective_from <= date <= effective_to (NULL = open). */
export function validOnClosed(alias: string, date: string): Expression<SqlBool> {
  const from = sql.ref(`${alias}.effective_from`);
  const to = sql.ref(`${alias}.effective_to`);
  return sql<SqlBool>`(${from} <= ${date}::date AND (${to} IS NULL OR ${to} >= ${date}::date))`;
}

/** Category filter of a list: 'ALL' also finds the NULL (= all) rows. */
export function categoryFilter(alias: string, category: string): Expression<SqlBool> {
  const column = sql.ref(`${alias}.product_category`);
  return category === 'ALL'
    ? sql<SqlBool>`(${column} IS NULL OR ${column} = 'ALL')`
    : sql<SqlBool>`${column} = ${category}`;
}

/** E411 on `field` unless `table.column = value` exists (nicer than the FK's E400). */
export async function requireReference(
  trx: unknown,
  table: keyof RulesDatabase & string,
  column: string,
  value: number | string,
  field: string,
  label: string,
): Promise<void> {
  const row = await (trx as Kysely<any>)
    .selectFrom(table)
    .select(sql.lit(1).as('one'))
    .where(column, '=', value)
    .executeTakeFirst();
  if (!row) throw invalid(field, `${label} ${value} does not exist`);
}

/**
 * Product category of a product for limits, grades and ratios: product_group when set, otherwise
 * mapped from insurance_type (AUTO -> EXCLUDED_AUTO, HEALTH -> EXCLUDED_HEALTH, LIFE/ANNUITY/SAVINGS
 * as is); NON_LIFE has no category, so only the all-category (NULL/'ALL') rows apply to it.
 */
export function productCategoryOf(product: {
  product_group: string | null;
  insurance_type: string;
}): ProductCategory | null {
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
