import { authenticated, envelope, ok, pageResponse, paginate, perm, type ServiceApp } from '@csp/service-kit';
import { z } from 'zod';
import { actorId, currentUser } from '../common/request.js';
import { MenuRepository, type MenuRow } from './repository.js';
import {
  fullMenuNode,
  idResult,
  MENU_SORT,
  menuCreateBody,
  menuDetail,
  menuIdParams,
  menuListQuery,
  menuResp,
  menuUpdateBody,
  myMenuNode,
} from './schemas.js';
import { MenuService, toMenuResp } from './service.js';

const MENU = 'SYSTEM_MENU';
const tags = ['menus'];

export async function menuRoutes(app: ServiceApp): Promise<void> {
  const repo = new MenuRepository(app.db);
  const service = new MenuService(repo, app.db);

  app.get(
    '/api/menus/my',
    {
      config: authenticated(),
      schema: { tags, summary: 'Menu tree of the current user with the granted permission codes per node', response: { 200: envelope(z.array(myMenuNode)) } },
    },
    async (request) => ok(await service.myTree(currentUser(request).userId)),
  );

  app.get(
    '/api/menus/tree',
    {
      config: perm(MENU, 'READ'),
      schema: { tags, summary: 'Full menu tree with every available permission code', response: { 200: envelope(z.array(fullMenuNode)) } },
    },
    async () => ok(await service.fullTree()),
  );

  app.get(
    '/api/menus',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'List menus (flat)', querystring: menuListQuery, response: { 200: pageResponse(menuResp) } } },
    async (request) => {
      const page = await paginate(repo.listQuery(request.query), request.query, {
        sortable: MENU_SORT,
        defaultSort: 'menu.menu_id',
      });
      return ok({ ...page, list: page.list.map((row) => toMenuResp(row as MenuRow)) });
    },
  );

  app.get(
    '/api/menus/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Menu with its permission rows', params: menuIdParams, response: { 200: envelope(menuDetail) } } },
    async (request) => ok(await service.detail(request.params.id)),
  );

  app.post(
    '/api/menus',
    {
      config: perm(MENU, 'CREATE'),
      schema: { tags, summary: 'Create a menu with its permission codes (granted to SUPER_ADMIN)', body: menuCreateBody, response: { 200: envelope(idResult) } },
    },
    async (request) => {
      const { permissions, ...values } = request.body;
      const { menuId, after } = await service.create(values, permissions ?? [], actorId(request));
      await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'menu', recordId: menuId, action: 'CREATE', after });
      return ok({ id: menuId });
    },
  );

  app.put(
    '/api/menus/:id',
    {
      config: perm(MENU, 'UPDATE'),
      schema: { tags, summary: 'Update a menu; permissions, when given, replace its permission rows', params: menuIdParams, body: menuUpdateBody, response: { 200: envelope() } },
    },
    async (request) => {
      const id = request.params.id;
      const { permissions, ...values } = request.body;
      const { before, after } = await service.update(id, values, permissions, actorId(request));
      await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'menu', recordId: id, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.delete(
    '/api/menus/:id',
    {
      config: perm(MENU, 'DELETE'),
      schema: { tags, summary: 'Delete a leaf menu (with its permission rows and grants)', params: menuIdParams, response: { 200: envelope() } },
    },
    async (request) => {
      const id = request.params.id;
      const { before } = await service.delete(id);
      await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'menu', recordId: id, action: 'DELETE', before });
      return ok();
    },
  );
}
