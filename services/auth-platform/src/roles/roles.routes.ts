import { z } from 'zod';
import { envelope, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { RoleRepository } from './roles.repository.js';
import { grantsBody, matrixResp, ROLE_MENU as MENU, roleResource } from './roles.resource.js';
import { RoleService } from './roles.service.js';

const tags = roleResource.tags;
const params = z.object({ id: zId });

export async function roleRoutes(app: ServiceApp): Promise<void> {
  const service = new RoleService(app, new RoleRepository(app.db));
  registerResource(app, roleResource);

  app.put(
    '/api/roles/:id',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update a role (the role code stays)', params, body: roleResource.schemas.update, response: { 200: envelope() } },
    },
    async (request) => {
      const id = request.params.id;
      const { before, after } = await service.update(request, id, request.body);
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
      schema: { tags, summary: 'Delete a role (system roles: B008; assigned roles: E400)', params, response: { 200: envelope() } },
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
      schema: { tags, summary: 'Permission matrix: every menu with its permission codes and granted flags', params, response: { 200: envelope(matrixResp) } },
    },
    async (request) => ok(await service.matrix(request.params.id)),
  );

  app.put(
    '/api/roles/:id/permissions',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: "Replace the role's grants with the entries marked granted", params, body: grantsBody, response: { 200: envelope() } },
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
