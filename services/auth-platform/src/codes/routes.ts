import { authenticated, envelope, ok, pageResponse, paginate, perm, type ServiceApp } from '@csp/service-kit';
import { z } from 'zod';
import { actorId } from '../common/request.js';
import { CodeCache, codeCacheKey } from './cache.js';
import { CodeRepository, type GroupRow } from './repository.js';
import {
  codeCreateBody,
  codeItem,
  codeParams,
  codeUpdateBody,
  GROUP_SORT,
  groupCreateBody,
  groupDetail,
  groupListQuery,
  groupParams,
  groupResp,
  groupUpdateBody,
  idResult,
} from './schemas.js';
import { CodeService, toGroupResp } from './service.js';

const MENU = 'SYSTEM_CODE';
const tags = ['common-codes'];

export async function codeRoutes(app: ServiceApp): Promise<void> {
  const repo = new CodeRepository(app.db);
  const cache = new CodeCache(app.redis, codeCacheKey(app.config.DATABASE_URL));
  const service = new CodeService(repo, cache, (obj, msg) => app.log.warn(obj, msg));

  app.get(
    '/api/common/codes/groups',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'List code groups', querystring: groupListQuery, response: { 200: pageResponse(groupResp) } } },
    async (request) => {
      const page = await paginate(repo.groupListQuery(request.query), request.query, {
        sortable: GROUP_SORT,
        defaultSort: 'g.sort_order',
      });
      return ok({ ...page, list: page.list.map((row) => toGroupResp(row as GroupRow)) });
    },
  );

  app.get(
    '/api/common/codes/groups/:groupCode',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'A code group with all its codes', params: groupParams, response: { 200: envelope(groupDetail) } } },
    async (request) => ok(await service.groupWithCodes(request.params.groupCode)),
  );

  app.post(
    '/api/common/codes/groups',
    { config: perm(MENU, 'CREATE'), schema: { tags, summary: 'Create a code group', body: groupCreateBody, response: { 200: envelope() } } },
    async (request) => {
      const { groupCode, ...values } = request.body;
      const { after } = await service.createGroup(groupCode, values, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'common_code_group', recordId: groupCode, action: 'CREATE', after });
      return ok();
    },
  );

  app.put(
    '/api/common/codes/groups/:groupCode',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update a code group (system group: B008)', params: groupParams, body: groupUpdateBody, response: { 200: envelope() } },
    },
    async (request) => {
      const { groupCode } = request.params;
      const { before, after } = await service.updateGroup(groupCode, request.body, actorId(request));
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
      schema: { tags, summary: 'Add a code to a group (duplicate: B009)', params: groupParams, body: codeCreateBody, response: { 200: envelope(idResult) } },
    },
    async (request) => {
      const { code, ...values } = request.body;
      const { codeId, after } = await service.createCode(request.params.groupCode, code, values, actorId(request));
      request.changeLog({ menuCode: MENU, tableName: 'common_code', recordId: codeId, action: 'CREATE', after });
      return ok({ id: codeId });
    },
  );

  app.put(
    '/api/common/codes/groups/:groupCode/codes/:code',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update a code (system group: B008)', params: codeParams, body: codeUpdateBody, response: { 200: envelope() } },
    },
    async (request) => {
      const { groupCode, code } = request.params;
      const { codeId, before, after } = await service.updateCode(groupCode, code, request.body, actorId(request));
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
