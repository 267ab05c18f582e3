import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** Deepest organization tree the queries follow (HQ > BR > TM is 3; the guard only stops a cycle). */
const MAX_DEPTH = 30;

/**
 * The recursive CTE `org_tree(ancestor_id, org_id)`: every organization paired with itself and with
 * each organization below it. Put it first after `WITH RECURSIVE`. Joining figures per org_id and
 * grouping by ancestor_id rolls them up the tree (a branch includes its teams).
 */
export const orgTreeCte: RawBuilder<unknown> = sql`org_tree (ancestor_id, org_id, depth) AS (
    SELECT o.org_id, o.org_id, 0 FROM organization o
    UNION ALL
    SELECT t.ancestor_id, o.org_id, t.depth + 1
      FROM org_tree t JOIN organization o ON o.parent_org_id = t.org_id
     WHERE t.depth < ${sql.lit(MAX_DEPTH)}
  )`;

/** `column` is the organization or one below it (filters "by org" include the subtree). */
export function inSubtree(column: string, orgId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} IN (
    WITH RECURSIVE sub (org_id, depth) AS (
      SELECT ${orgId}::bigint, 0
      UNION ALL
      SELECT o.org_id, s.depth + 1 FROM sub s JOIN organization o ON o.parent_org_id = s.org_id
       WHERE s.depth < ${sql.lit(MAX_DEPTH)}
    )
    SELECT org_id FROM sub)`;
}
