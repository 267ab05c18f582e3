import { sql } from 'kysely';
import type { MdExecutor } from '../people-db.js';
import { codeName } from '../people-db.js';

export interface OrgRow {
  org_id: number;
  parent_org_id: number | null;
  parent_org_name: string | null;
  org_name: string;
  org_type: 'HQ' | 'BR' | 'TM';
  org_type_name: string | null;
  org_level: number;
  region: string | null;
  effective_from: string | null;
  effective_to: string | null;
  is_active: boolean;
  sort_order: number;
  agent_count: number;
  created_at: Date;
  updated_at: Date;
  created_by: number | null;
}

export interface OrgFilters {
  orgType?: 'HQ' | 'BR' | 'TM';
  parentOrgId?: number;
  region?: string;
  isActive?: boolean;
  searchKeyword?: string;
  startDate?: string;
  endDate?: string;
}

/** Organizations with parent name, type name and the number of their ACTIVE agents. */
export function orgSelect(db: MdExecutor) {
  return db
    .selectFrom('organization as o')
    .leftJoin('organization as p', 'p.org_id', 'o.parent_org_id')
    .select((eb) => [
      'o.org_id',
      'o.parent_org_id',
      'p.org_name as parent_org_name',
      'o.org_name',
      'o.org_type',
      codeName('ORG_TYPE', eb.ref('o.org_type')).as('org_type_name'),
      'o.org_level',
      'o.region',
      'o.effective_from',
      'o.effective_to',
      'o.is_active',
      'o.sort_order',
      eb
        .selectFrom('agent as a')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('a.org_id', '=', 'o.org_id')
        .where('a.status', '=', 'ACTIVE')
        .as('agent_count'),
      'o.created_at',
      'o.updated_at',
      'o.created_by',
    ]);
}

export type OrgQuery = ReturnType<typeof orgSelect>;

/** Filters of the flat list and its export; searchKeyword matches the name, dates the validity. */
export function applyOrgFilters(qb: OrgQuery, f: OrgFilters): OrgQuery {
  let q = qb;
  if (f.orgType) q = q.where('o.org_type', '=', f.orgType);
  if (f.parentOrgId !== undefined) q = q.where('o.parent_org_id', '=', f.parentOrgId);
  if (f.region) q = q.where('o.region', '=', f.region);
  if (f.isActive !== undefined) q = q.where('o.is_active', '=', f.isActive);
  if (f.searchKeyword) q = q.where('o.org_name', 'ilike', `%${escapeLike(f.searchKeyword)}%`);
  // validity overlaps [startDate, endDate]
  const { startDate, endDate } = f;
  if (startDate) q = q.where((eb) => eb.or([eb('o.effective_to', 'is', null), eb('o.effective_to', '>=', startDate)]));
  if (endDate) q = q.where((eb) => eb.or([eb('o.effective_from', 'is', null), eb('o.effective_from', '<=', endDate)]));
  return q;
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function findOrg(db: MdExecutor, orgId: number): Promise<OrgRow | undefined> {
  return (await orgSelect(db).where('o.org_id', '=', orgId).executeTakeFirst()) as OrgRow | undefined;
}

export async function listAllOrgs(db: MdExecutor, activeOnly: boolean): Promise<OrgRow[]> {
  let q = orgSelect(db);
  if (activeOnly) q = q.where('o.is_active', '=', true);
  return (await q.orderBy('o.org_level').orderBy('o.sort_order').orderBy('o.org_id').execute()) as OrgRow[];
}

/** The org and all of its descendants (ids). */
export async function subtreeIds(db: MdExecutor, orgId: number): Promise<number[]> {
  const { rows } = await sql<{ org_id: number }>`
    WITH RECURSIVE t AS (
      SELECT org_id FROM organization WHERE org_id = ${orgId}
      UNION ALL
      SELECT o.org_id FROM organization o JOIN t ON o.parent_org_id = t.org_id
    )
    SELECT org_id FROM t`.execute(db);
  return rows.map((r) => r.org_id);
}

/** Sets org_level of the org's descendants from the org's own level (after a parent change). */
export async function relevelSubtree(db: MdExecutor, orgId: number): Promise<void> {
  await sql`
    WITH RECURSIVE t AS (
      SELECT org_id, org_level FROM organization WHERE org_id = ${orgId}
      UNION ALL
      SELECT o.org_id, t.org_level + 1 FROM organization o JOIN t ON o.parent_org_id = t.org_id
    )
    UPDATE organization o SET org_level = t.org_level FROM t WHERE o.org_id = t.org_id AND o.org_level <> t.org_level`.execute(db);
}

export async function countChildren(db: MdExecutor, orgId: number): Promise<number> {
  const row = await db
    .selectFrom('organization')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('parent_org_id', '=', orgId)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function countAgents(db: MdExecutor, orgId: number): Promise<number> {
  const row = await db
    .selectFrom('agent')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow();
  return row.n;
}
