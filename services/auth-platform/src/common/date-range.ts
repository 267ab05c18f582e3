import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * Inclusive calendar-day range on a timestamp column: `startDate` 00:00 up to the end of `endDate`
 * (both YYYY-MM-DD, in the database session time zone).
 */
export function timestampWithin(
  column: string,
  range: { startDate?: string | undefined; endDate?: string | undefined },
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (range.startDate) conditions.push(sql<SqlBool>`${sql.ref(column)} >= ${range.startDate}::date`);
  if (range.endDate) conditions.push(sql<SqlBool>`${sql.ref(column)} < ${range.endDate}::date + 1`);
  return conditions;
}

/** Escapes LIKE wildcards so a user's search text matches literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
