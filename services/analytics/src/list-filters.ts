import { sql, type Expression, type SqlBool } from 'kysely';
import { z } from 'zod';
import { zId, type ResourceDeclaration } from '@csp/service-kit';
import { inSubtree } from './org-tree.js';

/** What the filters need of a list query. */
interface Filterable<Q> {
  where(expression: Expression<SqlBool>): Q;
}

/** Restricts `column` to the organization and every organization below it. */
export function withinOrg<Q extends Filterable<Q>>(qb: Q, column: string, orgId: number | undefined): Q {
  return orgId === undefined ? qb : qb.where(inSubtree(column, orgId));
}

// Bounded here: the kit's int filter takes any safe integer, and a value beyond the column's range
// would fail in PostgreSQL after an export has started streaming.
const horizonQuery = z.coerce.number().int().refine((v) => v === 13 || v === 25, 'must be 13 or 25');
const levelQuery = z.coerce.number().int().min(1).max(99);

export interface AnalyticsFilterColumns {
  /** Organization column: `?orgId=` selects the organization and its subtree. */
  org: string;
  /** Retention horizon column: `?horizon=13|25`. */
  horizon?: string;
  /** Organization level column: `?orgLevel=`. */
  orgLevel?: string;
}

/** The extra filters of an analytics list. */
export function analyticsFilters(columns: AnalyticsFilterColumns): NonNullable<ResourceDeclaration['filters']> {
  return {
    shape: {
      orgId: zId.optional().describe('the organization and every organization below it'),
      ...(columns.horizon ? { horizon: horizonQuery.optional().describe('13 or 25 months') } : {}),
      ...(columns.orgLevel ? { orgLevel: levelQuery.optional() } : {}),
    },
    apply: (qb, query) => {
      let q = withinOrg(qb, columns.org, typeof query.orgId === 'number' ? query.orgId : undefined);
      if (columns.horizon && typeof query.horizon === 'number') q = q.where(sql<SqlBool>`${sql.ref(columns.horizon)} = ${query.horizon}`);
      if (columns.orgLevel && typeof query.orgLevel === 'number') q = q.where(sql<SqlBool>`${sql.ref(columns.orgLevel)} = ${query.orgLevel}`);
      return q;
    },
  };
}
