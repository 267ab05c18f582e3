import { sql } from 'kysely';
import type { Db } from '@csp/db';

/** The org and all of its descendants (ids). */
export async function subtreeIds(db: Db, orgId: number): Promise<number[]> {
  const { rows } = await sql<{ org_id: number }>`
    WITH RECURSIVE t AS (
      SELECT org_id FROM organization WHERE org_id = ${orgId}
      UNION ALL
      SELECT o.org_id FROM organization o JOIN t ON o.parent_org_id = t.org_id
    )
    SELECT org_id FROM t`.execute(db);
  return rows.map((r) => Number(r.org_id));
}

/** Sets org_level of the org's descendants below `level`, the org's new level (after a parent change). */
export async function relevelDescendants(db: Db, orgId: number, level: number): Promise<void> {
  await sql`
    WITH RECURSIVE t AS (
      SELECT org_id, ${level}::int + 1 AS org_level FROM organization WHERE parent_org_id = ${orgId}
      UNION ALL
      SELECT o.org_id, t.org_level + 1 FROM organization o JOIN t ON o.parent_org_id = t.org_id
    )
    UPDATE organization o SET org_level = t.org_level FROM t WHERE o.org_id = t.org_id AND o.org_level <> t.org_level`.execute(db);
}

/** Why an organization cannot be deleted: child organizations, agents, or agent history naming it. */
export async function deleteBlocker(db: Db, orgId: number): Promise<'children' | 'agents' | 'history' | undefined> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('organization').select('org_id').where('parent_org_id', '=', orgId)).as('children'),
      eb.exists(eb.selectFrom('agent').select('agent_id').where('org_id', '=', orgId)).as('agents'),
      eb
        .exists(
          eb
            .selectFrom('agent_org_history')
            .select('history_id')
            .where((w) => w.or([w('from_org_id', '=', orgId), w('to_org_id', '=', orgId)])),
        )
        .as('history'),
    ])
    .executeTakeFirstOrThrow();
  if (row.children) return 'children';
  if (row.agents) return 'agents';
  return row.history ? 'history' : undefined;
}
