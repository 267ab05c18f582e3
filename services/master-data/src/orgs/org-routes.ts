import { z } from 'zod';
import {
  envelope,
  notFound,
  ok,
  pageResponse,
  paginate,
  perm,
  applySort,
  sendSpreadsheet,
  streamRows,
  zId,
  type ServiceApp,
} from '@csp/service-kit';
import { mdDb } from '../people-db.js';
import { applyOrgFilters, findOrg, listAllOrgs, orgSelect, type OrgRow } from './org-repository.js';
import { orgListQuery, orgResp, orgSaveReq, orgSortable, orgTreeNode, orgTreeQuery } from './org-schemas.js';
import { buildTree, createOrg, deleteOrg, toOrgResp, updateOrg } from './org-service.js';

const MENU = 'ORG_TREE';
const tags = ['Organization'];
const params = z.object({ id: zId });
const sortOptions = { sortable: orgSortable, defaultSort: 'o.org_id' };

export async function registerOrgRoutes(app: ServiceApp): Promise<void> {
  const db = mdDb(app);

  app.get(
    '/api/orgs',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Organization tree (nested)', querystring: orgTreeQuery, response: { 200: envelope(z.array(orgTreeNode)) } },
    },
    async (request) => ok(buildTree(await listAllOrgs(db, request.query.activeOnly ?? false))),
  );

  app.get(
    '/api/orgs/list',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Organizations (flat, paged)', querystring: orgListQuery, response: { 200: pageResponse(orgResp) } },
    },
    async (request) => {
      const page = await paginate(applyOrgFilters(orgSelect(db), request.query), request.query, sortOptions);
      return ok({ ...page, list: page.list.map((r) => toOrgResp(r as OrgRow)) });
    },
  );

  app.get(
    '/api/orgs/excel',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Export organizations (xlsx)', querystring: orgListQuery.omit({ pageNum: true, pageSize: true }) },
    },
    async (request, reply) => {
      const qb = applySort(applyOrgFilters(orgSelect(db), request.query), request.query, sortOptions);
      return sendSpreadsheet(reply, {
        fileName: 'organizations.xlsx',
        sheetName: 'Organizations',
        columns: [
          { header: 'Org ID', key: 'org_id' },
          { header: 'Parent ID', key: 'parent_org_id' },
          { header: 'Parent', key: 'parent_org_name', width: 25 },
          { header: 'Name', key: 'org_name', width: 25 },
          { header: 'Type', key: 'org_type_name' },
          { header: 'Level', key: 'org_level' },
          { header: 'Region', key: 'region' },
          { header: 'Effective from', key: 'effective_from' },
          { header: 'Effective to', key: 'effective_to' },
          { header: 'Active', key: 'is_active', value: (r: OrgRow) => (r.is_active ? 'Y' : 'N') },
          { header: 'Agents', key: 'agent_count' },
        ],
        rows: streamRows<OrgRow>(app.pool, qb.compile()),
      });
    },
  );

  app.get(
    '/api/orgs/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Get organization', params, response: { 200: envelope(orgResp) } } },
    async (request) => {
      const row = await findOrg(db, request.params.id);
      if (!row) throw notFound(`Organization ${request.params.id}`);
      return ok(toOrgResp(row));
    },
  );

  app.post(
    '/api/orgs',
    {
      config: perm(MENU, 'CREATE'),
      schema: { tags, summary: 'Create organization', body: orgSaveReq, response: { 200: envelope(z.object({ id: z.number() })) } },
    },
    async (request) => {
      const created = await createOrg(db, request.body, request.user?.userId ?? null);
      request.changeLog({ menuCode: MENU, tableName: 'organization', recordId: created.org_id, action: 'CREATE', after: created });
      return ok({ id: created.org_id });
    },
  );

  app.put(
    '/api/orgs/:id',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update organization', params, body: orgSaveReq, response: { 200: envelope() } },
    },
    async (request) => {
      const { before, after } = await updateOrg(db, request.params.id, request.body, request.user?.userId ?? null);
      request.changeLog({ menuCode: MENU, tableName: 'organization', recordId: after.org_id, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.delete(
    '/api/orgs/:id',
    {
      config: perm(MENU, 'DELETE'),
      schema: { tags, summary: 'Delete organization (refused with children or agents)', params, response: { 200: envelope() } },
    },
    async (request) => {
      const before = await deleteOrg(db, request.params.id);
      request.changeLog({ menuCode: MENU, tableName: 'organization', recordId: before.org_id, action: 'DELETE', before });
      return ok();
    },
  );
}
