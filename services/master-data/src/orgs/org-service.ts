import { AppError, invalid, isoTimestamp, notFound } from '@csp/service-kit';
import type { MdDb, MdExecutor } from '../people-db.js';
import { countAgents, countChildren, findOrg, relevelSubtree, subtreeIds, type OrgRow } from './org-repository.js';
import { ORG_RANK, type OrgResp, type OrgSaveReq, type OrgTreeNode } from './org-schemas.js';

export function toOrgResp(row: OrgRow): OrgResp {
  return {
    orgId: row.org_id,
    parentOrgId: row.parent_org_id,
    parentOrgName: row.parent_org_name,
    orgName: row.org_name,
    orgType: row.org_type,
    orgTypeName: row.org_type_name,
    orgLevel: row.org_level,
    region: row.region,
    effectiveFrom: row.effective_from,
    effectiveTo: row.effective_to,
    isActive: row.is_active,
    sortOrder: row.sort_order,
    agentCount: row.agent_count,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
    createdBy: row.created_by,
  };
}

/** Nests the flat rows under their parents; rows whose parent is filtered out become roots. */
export function buildTree(rows: OrgRow[]): OrgTreeNode[] {
  const nodes = new Map<number, OrgTreeNode>();
  for (const r of rows) {
    nodes.set(r.org_id, {
      orgId: r.org_id,
      parentOrgId: r.parent_org_id,
      orgName: r.org_name,
      orgType: r.org_type,
      orgTypeName: r.org_type_name,
      orgLevel: r.org_level,
      region: r.region,
      effectiveFrom: r.effective_from,
      effectiveTo: r.effective_to,
      isActive: r.is_active,
      sortOrder: r.sort_order,
      agentCount: r.agent_count,
      children: [],
    });
  }
  const roots: OrgTreeNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.org_id)!;
    const parent = r.parent_org_id === null ? undefined : nodes.get(r.parent_org_id);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** Parent must exist and rank above the child; returns the child's org_level. */
async function levelUnder(db: MdExecutor, parentOrgId: number | null | undefined, orgType: OrgSaveReq['orgType']): Promise<number> {
  if (parentOrgId === null || parentOrgId === undefined) {
    if (orgType !== 'HQ') throw invalid('parentOrgId', 'a BR or TM organization needs a parent organization');
    return 1;
  }
  const parent = await findOrg(db, parentOrgId);
  if (!parent) throw invalid('parentOrgId', 'parent organization not found');
  if (ORG_RANK[parent.org_type] <= ORG_RANK[orgType]) {
    throw invalid('orgType', `a ${orgType} organization cannot be placed under a ${parent.org_type} organization`);
  }
  return parent.org_level + 1;
}

/** The columns a save request sets (create and update alike); the level follows the parent. */
function orgColumns(body: OrgSaveReq, orgLevel: number) {
  return {
    parent_org_id: body.parentOrgId ?? null,
    org_name: body.orgName,
    org_type: body.orgType,
    org_level: orgLevel,
    region: body.region ?? null,
    effective_from: body.effectiveFrom ?? null,
    effective_to: body.effectiveTo ?? null,
    is_active: body.isActive,
    sort_order: body.sortOrder,
  };
}

export async function createOrg(db: MdDb, body: OrgSaveReq, userId: number | null) {
  return db.transaction().execute(async (trx) => {
    const orgLevel = await levelUnder(trx, body.parentOrgId, body.orgType);
    return trx
      .insertInto('organization')
      .values({
        ...orgColumns(body, orgLevel),
        created_by: userId,
        updated_by: userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

export async function updateOrg(db: MdDb, orgId: number, body: OrgSaveReq, userId: number | null) {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('organization').selectAll().where('org_id', '=', orgId).forUpdate().executeTakeFirst();
    if (!before) throw notFound(`Organization ${orgId}`);
    const parentOrgId = body.parentOrgId ?? null;
    if (parentOrgId !== null && (await subtreeIds(trx, orgId)).includes(parentOrgId)) {
      throw invalid('parentOrgId', 'an organization cannot be moved under itself or one of its descendants');
    }
    const orgLevel = await levelUnder(trx, parentOrgId, body.orgType);
    if (body.orgType !== before.org_type) {
      const child = await trx
        .selectFrom('organization')
        .select('org_type')
        .where('parent_org_id', '=', orgId)
        .execute();
      if (child.some((c) => ORG_RANK[c.org_type] >= ORG_RANK[body.orgType])) {
        throw invalid('orgType', 'the organization has children that would rank at or above it');
      }
    }
    const after = await trx
      .updateTable('organization')
      .set({
        ...orgColumns(body, orgLevel),
        version: before.version + 1,
        updated_at: new Date(),
        updated_by: userId,
      })
      .where('org_id', '=', orgId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (orgLevel !== before.org_level) await relevelSubtree(trx, orgId);
    return { before, after };
  });
}

export async function deleteOrg(db: MdDb, orgId: number) {
  return db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('organization').selectAll().where('org_id', '=', orgId).forUpdate().executeTakeFirst();
    if (!before) throw notFound(`Organization ${orgId}`);
    if ((await countChildren(trx, orgId)) > 0) {
      throw new AppError('BAD_REQUEST', 'The organization has child organizations; move or delete them first');
    }
    if ((await countAgents(trx, orgId)) > 0) {
      throw new AppError('BAD_REQUEST', 'The organization has agents; move them first');
    }
    const history = await trx
      .selectFrom('agent_org_history')
      .select('history_id')
      .where((eb) => eb.or([eb('from_org_id', '=', orgId), eb('to_org_id', '=', orgId)]))
      .limit(1)
      .executeTakeFirst();
    if (history) {
      throw new AppError('BAD_REQUEST', 'The organization appears in agent history; deactivate it instead');
    }
    await trx.deleteFrom('organization').where('org_id', '=', orgId).execute();
    return before;
  });
}
