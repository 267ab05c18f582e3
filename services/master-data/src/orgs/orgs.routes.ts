import { z } from 'zod';
import { envelope, ok, perm, readDb, registerResource, zBoolQuery, zId, type ServiceApp } from '@csp/service-kit';
import { orgResource } from './orgs.resource.js';
import { buildTree, deleteOrg } from './orgs.service.js';

const MENU = 'ORG_TREE';
const tags = ['Organization'];

const treeFields = orgResource.schemas.response.omit({ parentOrgName: true, createdAt: true, updatedAt: true, createdBy: true });
type OrgTreeNode = z.infer<typeof treeFields> & { children: OrgTreeNode[] };
/** A named OpenAPI component (`.meta({ id })`), so that the recursive `children` refer to it by name. */
const orgTreeNode: z.ZodType<OrgTreeNode> = z
  .object({
    ...treeFields.shape,
    get children() {
      return z.array(orgTreeNode);
    },
  })
  .meta({ id: 'OrgTreeNode' });

export async function registerOrgRoutes(app: ServiceApp): Promise<void> {
  registerResource(app, orgResource);

  app.get(
    '/api/orgs',
    {
      config: perm(MENU, 'READ'),
      schema: {
        tags,
        summary: 'Organization tree (nested)',
        querystring: z.object({ activeOnly: zBoolQuery.optional() }),
        response: { 200: envelope(z.array(orgTreeNode)) },
      },
    },
    async (request) => {
      let qb = orgResource.select(await readDb(request));
      if (request.query.activeOnly) qb = qb.where('o.is_active', '=', true);
      const rows = await qb.orderBy('o.org_level').orderBy('o.sort_order').orderBy('o.org_id').execute();
      // The tree node schema leaves out parent name and audit fields when the reply is serialized.
      return ok(buildTree(rows.map((row) => orgResource.toResp(row, app.cipher))));
    },
  );

  app.delete(
    '/api/orgs/:id',
    {
      config: perm(MENU, 'DELETE'),
      schema: { tags, summary: 'Delete organization (refused with children or agents)', params: z.object({ id: zId }), response: { 200: envelope() } },
    },
    async (request) => {
      const before = await deleteOrg(app.db, request.params.id);
      request.changeLog({ menuCode: MENU, tableName: 'organization', recordId: before.org_id, action: 'DELETE', before });
      return ok();
    },
  );
}
