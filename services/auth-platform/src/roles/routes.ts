import { envelope, ok, pageResponse, paginate, perm, type ServiceApp } from '@csp/service-kit';
import { actorId } from '../common/request.js';
import { RoleRepository, type RoleRow } from './repository.js';
import { grantsBody, idResult, matrixResp, ROLE_SORT, roleCreateBody, roleIdParams, roleListQuery, roleResp, roleUpdateBody } from './schemas.js';
import { RoleService, toRoleResp } from './service.js';

const MENU = 'SYSTEM_ROLE';
const tags = ['roles'];

export async function roleRoutes(app: ServiceApp): Promise<void> {
  const repo = new RoleRepository(app.db);
  const service = new RoleService(repo, app.db);

  app.get(
    '/api/roles',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'List roles', querystring: roleListQuery, response: { 200: pageResponse(roleResp) } } },
    async (request) => {
      const page = await paginate(repo.listQuery(request.query), request.query, { sortable: ROLE_SORT, defaultSort: 'role.role_id' });
      return ok({ ...page, list: page.list.map((row) => toRoleResp(row as RoleRow)) });
    },
  );

  app.get(
    '/api/roles/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Get a role', params: roleIdParams, response: { 200: envelope(roleResp) } } },
    async (request) => ok(toRoleResp(await service.get(request.params.id))),
  );

  app.post(
    '/api/roles',
    { config: perm(MENU, 'CREATE'), schema: { tags, summary: 'Create a role', body: roleCreateBody, response: { 200: envelope(idResult) } } },
    async (request) => {
      const { roleCode, ...values } = request.body;
      const id = await repo.insert(roleCode, values, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'role', recordId: id, action: 'CREATE', after: toRoleResp(await service.get(id)) });
      return ok({ id });
    },
  );

  app.put(
    '/api/roles/:id',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update a role (the role code stays)', params: roleIdParams, body: roleUpdateBody, response: { 200: envelope() } },
    },
    async (request) => {
      const id = request.params.id;
      const { before, after } = await service.update(id, request.body, actorId(request));
      // Activating or deactivating a role changes what its users may do.
      if (request.body.isActive !== undefined) await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'role', recordId: id, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.delete(
    '/api/roles/:id',
    {
      config: perm(MENU, 'DELETE'),
      schema: { tags, summary: 'Delete a role (system roles: B008; assigned roles: E400)', params: roleIdParams, response: { 200: envelope() } },
    },
    async (request) => {
      const id = request.params.id;
      const { before } = await service.delete(id);
      await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'role', recordId: id, action: 'DELETE', before });
      return ok();
    },
  );

  app.get(
    '/api/roles/:id/permissions',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Permission matrix: every menu with its permission codes and granted flags', params: roleIdParams, response: { 200: envelope(matrixResp) } },
    },
    async (request) => ok(await service.matrix(request.params.id)),
  );

  app.put(
    '/api/roles/:id/permissions',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Replace the role\'s grants with the entries marked granted',
        params: roleIdParams,
        body: grantsBody,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const id = request.params.id;
      const { before, after } = await service.replaceGrants(id, request.body.grants);
      await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'role_menu_permission', recordId: id, action: 'UPDATE', before, after });
      return ok();
    },
  );
}
