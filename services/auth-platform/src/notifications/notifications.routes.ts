import { z } from 'zod';
import { action, authenticated, envelope, listPage, notFound, ok, pageResponse, zId, type PageQuery, type ServiceApp } from '@csp/service-kit';
import { currentUser } from '../common/request.js';
import { NotificationRepository } from './notifications.repository.js';
import { notificationResource } from './notifications.resource.js';

const tags = notificationResource.tags;

/**
 * The caller's own notifications only. Read receipts are not change-logged: they are the user's
 * own inbox state, not business data.
 */
export async function notificationRoutes(app: ServiceApp): Promise<void> {
  const repo = new NotificationRepository(app.db);

  app.get(
    '/api/notifications',
    {
      config: authenticated(),
      schema: {
        tags,
        summary: 'My notifications (newest first)',
        querystring: notificationResource.schemas.listQuery,
        response: { 200: pageResponse(notificationResource.schemas.response) },
      },
    },
    async (request) => {
      const query = request.query as PageQuery;
      const page = await listPage(app, notificationResource, query, currentUser(request));
      return ok({ ...page, list: page.list.map((row) => notificationResource.toResp(row, app.cipher)) });
    },
  );

  app.get(
    '/api/notifications/unread-count',
    { config: authenticated(), schema: { tags, summary: 'Number of my unread notifications', response: { 200: envelope(z.number().int()) } } },
    async (request) => ok(await repo.unreadCount(currentUser(request).userId)),
  );

  action(
    app,
    '/api/notifications/read-all',
    { config: authenticated(), schema: { tags, summary: 'Mark all my notifications read', response: { 200: envelope() } } },
    async (request) => {
      await repo.markAllRead(currentUser(request).userId);
      return ok();
    },
  );

  action(
    app,
    '/api/notifications/:id/read',
    {
      config: authenticated(),
      schema: { tags, summary: 'Mark one of my notifications read', params: z.object({ id: zId }), response: { 200: envelope() } },
    },
    async (request) => {
      if (!(await repo.markRead(currentUser(request).userId, request.params.id))) throw notFound(`Notification ${request.params.id}`);
      return ok();
    },
  );
}
