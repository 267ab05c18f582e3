import { AppError, invalid, notFound, type AnyRow, type ResourceContext } from '@csp/service-kit';
import type { Db, OrgType } from '@csp/db';
import { trxOf } from '../common/resource-helpers.js';
import { deleteBlocker, relevelDescendants, subtreeIds } from './orgs.repository.js';

/** HQ > BR > TM: a child must rank strictly below its parent. */
const ORG_RANK: Record<OrgType, number> = { HQ: 3, BR: 2, TM: 1 };

/** Parent must exist and rank above the child; returns the child's org_level. */
async function levelUnder(db: Db, parentOrgId: number | null, orgType: OrgType): Promise<number> {
  if (parentOrgId === null) {
    if (orgType !== 'HQ') throw invalid('parentOrgId', 'a BR or TM organization needs a parent organization');
    return 1;
  }
  const parent = await db.selectFrom('organization').select(['org_type', 'org_level']).where('org_id', '=', parentOrgId).executeTakeFirst();
  if (!parent) throw invalid('parentOrgId', 'parent organization not found');
  if (ORG_RANK[parent.org_type] <= ORG_RANK[orgType]) {
    throw invalid('orgType', `a ${orgType} organization cannot be placed under a ${parent.org_type} organization`);
  }
  return parent.org_level + 1;
}

/**
 * beforeWrite of the org resource: places the organization in the tree. The parent must rank above
 * it and may not be the org itself or one of its descendants; a type change may not rank it at or
 * below a child. The level follows the parent; the descendants are re-levelled with it.
 */
export async function placeOrg(values: AnyRow, body: AnyRow, ctx: ResourceContext, existing?: AnyRow): Promise<AnyRow> {
  const db = trxOf(ctx);
  const orgType = body.orgType as OrgType;
  const parentOrgId = (body.parentOrgId as number | null | undefined) ?? null;
  if (!existing) return { ...values, org_level: await levelUnder(db, parentOrgId, orgType) };

  const orgId = Number(existing.org_id);
  if (parentOrgId !== null && (await subtreeIds(db, orgId)).includes(parentOrgId)) {
    throw invalid('parentOrgId', 'an organization cannot be moved under itself or one of its descendants');
  }
  const orgLevel = await levelUnder(db, parentOrgId, orgType);
  if (orgType !== existing.org_type) {
    const children = await db.selectFrom('organization').select('org_type').where('parent_org_id', '=', orgId).execute();
    if (children.some((c) => ORG_RANK[c.org_type] >= ORG_RANK[orgType])) {
      throw invalid('orgType', 'the organization has children that would rank at or above it');
    }
  }
  if (orgLevel !== existing.org_level) await relevelDescendants(db, orgId, orgLevel);
  return { ...values, org_level: orgLevel };
}

const BLOCKED = {
  children: 'The organization has child organizations; move or delete them first',
  agents: 'The organization has agents; move them first',
  history: 'The organization appears in agent history; deactivate it instead',
} as const;

/** Hard delete of an organization nothing refers to; returns the deleted row. */
export async function deleteOrg(db: Db, orgId: number) {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('organization').selectAll().where('org_id', '=', orgId).forUpdate().executeTakeFirst();
    if (!before) throw notFound(`Organization ${orgId}`);
    const blocker = await deleteBlocker(trx, orgId);
    if (blocker) throw new AppError('BAD_REQUEST', BLOCKED[blocker]);
    await trx.deleteFrom('organization').where('org_id', '=', orgId).execute();
    return before;
  });
}

/** Nests the flat rows under their parents; rows whose parent is filtered out become roots. */
export function buildTree<N extends { orgId: number | null; parentOrgId: number | null }>(nodes: N[]): Array<N & { children: N[] }> {
  type Node = N & { children: Node[] };
  const byId = new Map<number | null, Node>(nodes.map((n) => [n.orgId, { ...n, children: [] }]));
  const roots: Node[] = [];
  for (const node of byId.values()) {
    const parent = node.parentOrgId === null ? undefined : byId.get(node.parentOrgId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}
