import { envelope, ok, pageResponse, paginate, perm, type ServiceApp } from '@csp/service-kit';
import { actorId } from '../common/request.js';
import { UserRepository, type UserRow } from './repository.js';
import {
  idResult,
  passwordResetBody,
  passwordResetResult,
  roleAssignBody,
  USER_SORT,
  userCreateBody,
  userDetail,
  userIdParams,
  userListItem,
  userListQuery,
  userUpdateBody,
} from './schemas.js';
import { toUserResp, UserService } from './service.js';

const MENU = 'SYSTEM_USER';
const tags = ['users'];

export async function userRoutes(app: ServiceApp): Promise<void> {
  const repo = new UserRepository(app.db);
  const service = new UserService(repo, app.db);

  app.get(
    '/api/users',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'List users (phone and e-mail masked)', querystring: userListQuery, response: { 200: pageResponse(userListItem) } },
    },
    async (request) => {
      const q = request.query;
      const page = await paginate(
        repo.listQuery({ ...q, loginId: q.loginId, userName: q.userName }),
        q,
        { sortable: USER_SORT, defaultSort: 'users.user_id desc' },
      );
      return ok({
        ...page,
        list: page.list.map((row) => ({ ...toUserResp(row as UserRow, { masked: true }), roleCodes: row.role_codes })),
      });
    },
  );

  app.get(
    '/api/users/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'User with roles', params: userIdParams, response: { 200: envelope(userDetail) } } },
    async (request) => ok(await service.detail(request.params.id)),
  );

  app.post(
    '/api/users',
    { config: perm(MENU, 'CREATE'), schema: { tags, summary: 'Create a user', body: userCreateBody, response: { 200: envelope(idResult) } } },
    async (request) => {
      const { userId, after } = await service.create(request.body, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'users', recordId: userId, action: 'CREATE', after });
      return ok({ id: userId });
    },
  );

  app.put(
    '/api/users/:id',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update a user (status RETIRED retires the account)', params: userIdParams, body: userUpdateBody, response: { 200: envelope() } },
    },
    async (request) => {
      const id = request.params.id;
      const { before, after } = await service.update(id, request.body, actorId(request));
      // A status change must reach the guard's positive-answer cache at once (a retired user's token stops working).
      if (request.body.status !== undefined && before?.status !== after?.status) await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'users', recordId: id, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.put(
    '/api/users/:id/password-reset',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Reset the password; without newPassword a temporary one is generated and returned once',
        params: userIdParams,
        body: passwordResetBody,
        response: { 200: envelope(passwordResetResult) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const result = await service.resetPassword(id, request.body?.newPassword, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'users', recordId: id, action: 'UPDATE', after: { passwordReset: true } });
      return ok(result.temporaryPassword ? { temporaryPassword: result.temporaryPassword } : {});
    },
  );

  app.put(
    '/api/users/:id/unlock',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Unlock an account (status ACTIVE, failure count 0)', params: userIdParams, response: { 200: envelope() } },
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
      schema: { tags, summary: 'Replace the roles of a user', params: userIdParams, body: roleAssignBody, response: { 200: envelope() } },
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
