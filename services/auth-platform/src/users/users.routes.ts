import { z } from 'zod';
import { action, envelope, ok, perm, registerResource, writeOnlyGuard, zId, type ServiceApp } from '@csp/service-kit';
import { actorId } from '../common/request.js';
import { UserRepository } from './users.repository.js';
import { USER_MENU as MENU, userCreateBody, userDetail, userResource } from './users.resource.js';
import { UserService } from './users.service.js';

const tags = userResource.tags;
const params = z.object({ id: zId });

export async function userRoutes(app: ServiceApp): Promise<void> {
  const repo = new UserRepository(app.db);
  const service = new UserService(app, repo);
  registerResource(app, userResource);

  app.get(
    '/api/users/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'User with roles', params, response: { 200: envelope(userDetail) } } },
    async (request) => ok(await service.detail(request.params.id)),
  );

  app.post(
    '/api/users',
    {
      config: perm(MENU, 'CREATE'),
      preValidation: writeOnlyGuard(userResource.declaration.fields, 'create'),
      schema: { tags, summary: 'Create a user', body: userCreateBody, response: { 200: envelope(z.object({ id: z.number() })) } },
    },
    async (request) => {
      const { userId, after } = await service.create(request, request.body);
      request.changeLog({ menuCode: MENU, tableName: 'users', recordId: userId, action: 'CREATE', after });
      return ok({ id: userId });
    },
  );

  app.put(
    '/api/users/:id',
    {
      config: perm(MENU, 'UPDATE'),
      // phone and e-mail are write-only (kit write-only.ts): null or the masked text keeps them, '' clears
      preValidation: writeOnlyGuard(userResource.declaration.fields, 'update'),
      schema: {
        tags,
        summary: 'Update a user (status RETIRED retires the account)',
        params,
        body: userResource.schemas.update,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const id = request.params.id;
      const { before, after } = await service.update(request, id, request.body);
      // A status or agent-link change must reach every service's guard at once: a retired user's token stops
      // working and an unlinked AGENT sees no rows on its very next request (the guard reads both per request).
      if (before.status !== after?.status || before.agentId !== after?.agentId) await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'users', recordId: id, action: 'UPDATE', before, after });
      return ok();
    },
  );

  action(
    app,
    '/api/users/:id/password-reset',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Reset the password; without newPassword a temporary one is generated and returned once',
        params,
        body: z.object({ newPassword: z.string().min(1).max(200).optional() }).nullish(),
        response: { 200: envelope(z.object({ temporaryPassword: z.string().optional() })) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const result = await service.resetPassword(id, request.body?.newPassword, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'users', recordId: id, action: 'UPDATE', after: { passwordReset: true } });
      return ok(result.temporaryPassword ? { temporaryPassword: result.temporaryPassword } : {});
    },
  );

  action(
    app,
    '/api/users/:id/unlock',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Unlock an account (status ACTIVE, failure count 0)', params, response: { 200: envelope() } },
    },
    async (request) => {
      const id = request.params.id;
      const { before, after } = await service.unlock(id, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'users', recordId: id, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.put(
    '/api/users/:id/roles',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Replace the roles of a user', params, body: z.object({ roleIds: z.array(zId).max(50) }), response: { 200: envelope() } },
    },
    async (request) => {
      const id = request.params.id;
      const { before, after } = await service.assignRoles(id, request.body.roleIds);
      await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'user_role', recordId: id, action: 'UPDATE', before, after });
      return ok();
    },
  );
}
