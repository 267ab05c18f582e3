import { z } from 'zod';
import { authenticated, envelope, ok, perm, registerResource, type ServiceApp } from '@csp/service-kit';
import { CodeCache, codeCacheKey } from './cache.js';
import { CodeRepository } from './codes.repository.js';
import { CODE_MENU as MENU, codeGroupResource, codeItem, codeParams, codeResource, groupDetail, groupParams } from './codes.resource.js';
import { CodeService } from './codes.service.js';

const tags = codeGroupResource.tags;

export async function codeRoutes(app: ServiceApp): Promise<void> {
  const cache = new CodeCache(app.redis, codeCacheKey(app.config.DATABASE_URL));
  const service = new CodeService(app, new CodeRepository(app.db), cache, (obj, msg) => app.log.warn(obj, msg));
  registerResource(app, codeGroupResource);

  app.get(
    '/api/common/codes/groups/:groupCode',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'A code group with all its codes', params: groupParams, response: { 200: envelope(groupDetail) } } },
    async (request) => ok(await service.groupWithCodes(request.params.groupCode)),
  );

  app.post(
    '/api/common/codes/groups',
    { config: perm(MENU, 'CREATE'), schema: { tags, summary: 'Create a code group', body: codeGroupResource.schemas.save, response: { 200: envelope() } } },
    async (request) => {
      const { after } = await service.createGroup(request, request.body);
      request.changeLog({ menuCode: MENU, tableName: 'common_code_group', recordId: after.groupCode!, action: 'CREATE', after });
      return ok();
    },
  );

  app.put(
    '/api/common/codes/groups/:groupCode',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Update a code group (system group: B008)',
        params: groupParams,
        body: codeGroupResource.schemas.update,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const { groupCode } = request.params;
      const { before, after } = await service.updateGroup(request, groupCode, request.body);
      request.changeLog({ menuCode: MENU, tableName: 'common_code_group', recordId: groupCode, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.delete(
    '/api/common/codes/groups/:groupCode',
    {
      config: perm(MENU, 'DELETE'),
      schema: { tags, summary: 'Delete a code group and its codes (system group: B008)', params: groupParams, response: { 200: envelope() } },
    },
    async (request) => {
      const { groupCode } = request.params;
      const { before } = await service.deleteGroup(groupCode);
      request.changeLog({ menuCode: MENU, tableName: 'common_code_group', recordId: groupCode, action: 'DELETE', before });
      return ok();
    },
  );

  app.post(
    '/api/common/codes/groups/:groupCode/codes',
    {
      config: perm(MENU, 'CREATE'),
      schema: {
        tags,
        summary: 'Add a code to a group (duplicate: B009)',
        params: groupParams,
        body: codeResource.schemas.save,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
    },
    async (request) => {
      const { codeId, after } = await service.createCode(request, request.params.groupCode, request.body);
      request.changeLog({ menuCode: MENU, tableName: 'common_code', recordId: codeId, action: 'CREATE', after });
      return ok({ id: codeId });
    },
  );

  app.put(
    '/api/common/codes/groups/:groupCode/codes/:code',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update a code (system group: B008)', params: codeParams, body: codeResource.schemas.update, response: { 200: envelope() } },
    },
    async (request) => {
      const { groupCode, code } = request.params;
      const { codeId, before, after } = await service.updateCode(request, groupCode, code, request.body);
      request.changeLog({ menuCode: MENU, tableName: 'common_code', recordId: codeId, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.delete(
    '/api/common/codes/groups/:groupCode/codes/:code',
    {
      config: perm(MENU, 'DELETE'),
      schema: { tags, summary: 'Delete a code (system group: B008)', params: codeParams, response: { 200: envelope() } },
    },
    async (request) => {
      const { groupCode, code } = request.params;
      const { codeId, before } = await service.deleteCode(groupCode, code);
      request.changeLog({ menuCode: MENU, tableName: 'common_code', recordId: codeId, action: 'DELETE', before });
      return ok();
    },
  );

  // Every screen needs code lists, so any logged-in user may read them.
  app.get(
    '/api/common/codes/:groupCode',
    {
      config: authenticated(),
      schema: { tags, summary: 'Active codes of a group (cached)', params: groupParams, response: { 200: envelope(z.array(codeItem)) } },
    },
    async (request) => ok(await service.activeCodes(request.params.groupCode)),
  );

  app.get(
    '/api/common/codes/:groupCode/:code/validate',
    {
      config: authenticated(),
      schema: { tags, summary: 'Check that a code exists and is active (E411 otherwise)', params: codeParams, response: { 200: envelope(codeItem) } },
    },
    async (request) => ok(await service.validate(request.params.groupCode, request.params.code)),
  );

  app.post(
    '/api/codes/refresh',
    { config: perm(MENU, 'UPDATE'), schema: { tags, summary: 'Clear the common-code cache (all instances)', response: { 200: envelope() } } },
    async () => {
      await service.refresh();
      return ok();
    },
  );
}
