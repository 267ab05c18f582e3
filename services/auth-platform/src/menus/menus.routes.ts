import { z } from 'zod';
import { authenticated, envelope, ok, perm, registerResource, zId, type ServiceApp } from '@csp/service-kit';
import { currentUser } from '../common/request.js';
import { MenuRepository } from './menus.repository.js';
import { fullMenuNode, MENU_MENU as MENU, menuCreateBody, menuDetail, menuResource, menuUpdateBody, myMenuNode } from './menus.resource.js';
import { MenuService } from './menus.service.js';

const tags = menuResource.tags;
const params = z.object({ id: zId });

export async function menuRoutes(app: ServiceApp): Promise<void> {
  const service = new MenuService(app, new MenuRepository(app.db));

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

  registerResource(app, menuResource);

  app.get(
    '/api/menus/:id',
    { config: perm(MENU, 'READ'), schema: { tags, summary: 'Menu with its permission rows', params, response: { 200: envelope(menuDetail) } } },
    async (request) => ok(await service.detail(request.params.id)),
  );

  app.post(
    '/api/menus',
    {
      config: perm(MENU, 'CREATE'),
      schema: {
        tags,
        summary: 'Create a menu with its permission codes (granted to SUPER_ADMIN)',
        body: menuCreateBody,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
    },
    async (request) => {
      const { permissions, ...values } = request.body;
      const { menuId, after } = await service.create(request, values, permissions ?? []);
      await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'menu', recordId: menuId, action: 'CREATE', after });
      return ok({ id: menuId });
    },
  );

  app.put(
    '/api/menus/:id',
    {
      config: perm(MENU, 'UPDATE'),
      schema: {
        tags,
        summary: 'Update a menu; permissions, when given, replace its permission rows',
        params,
        body: menuUpdateBody,
        response: { 200: envelope() },
      },
    },
    async (request) => {
      const id = request.params.id;
      const { permissions, ...values } = request.body;
      const { before, after } = await service.update(request, id, values, permissions);
      await app.permissions.invalidate();
      request.changeLog({ menuCode: MENU, tableName: 'menu', recordId: id, action: 'UPDATE', before, after });
      return ok();
    },
  );

  app.delete(
    '/api/menus/:id',
    {
      config: perm(MENU, 'DELETE'),
      schema: { tags, summary: 'Delete a leaf menu (with its permission rows and grants)', params, response: { 200: envelope() } },
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
