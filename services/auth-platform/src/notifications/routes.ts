import { authenticated, envelope, isoTimestamp, notFound, ok, pageResponse, paginate, type ServiceApp } from '@csp/service-kit';
import { z } from 'zod';
import { currentUser } from '../common/request.js';
import { NotificationRepository } from './repository.js';
import { NOTIFICATION_SORT, notificationIdParams, notificationListQuery, notificationResp } from './schemas.js';

const tags = ['notifications'];

type Row = Awaited<ReturnType<ReturnType<NotificationRepository['listQuery']>['execute']>>[number];

function toResp(row: Row) {
  return {
    notiId: row.noti_id,
    notiType: row.noti_type,
    title: row.title,
    content: row.content,
    linkUrl: row.link_url,
    isRead: row.is_read,
    readAt: isoTimestamp(row.read_at),
    createdAt: isoTimestamp(row.created_at),
  };
}

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
      schema: { tags, summary: 'My notifications (newest first)', querystring: notificationListQuery, response: { 200: pageResponse(notificationResp) } },
    },
    async (request) => {
      const page = await paginate(repo.listQuery(currentUser(request).userId, request.query), request.query, {
        sortable: NOTIFICATION_SORT,
        defaultSort: 'noti_id desc',
      });
      return ok({ ...page, list: page.list.map(toResp) });
    },
  );

  app.get(
    '/api/notifications/unread-count',
    { config: authenticated(), schema: { tags, summary: 'Number of my unread notifications', response: { 200: envelope(z.number().int()) } } },
    async (request) => ok(await repo.unreadCount(currentUser(request).userId)),
  );

  app.put(
    '/api/notifications/read-all',
    { config: authenticated(), schema: { tags, summary: 'Mark all my notifications read', response: { 200: envelope() } } },
    async (request) => {
      await repo.markAllRead(currentUser(request).userId);
      return ok();
    },
  );

  app.put(
    '/api/notifications/:id/read',
    { config: authenticated(), schema: { tags, summary: 'Mark one of my notifications read', params: notificationIdParams, response: { 200: envelope() } } },
    async (request) => {
      if (!(await repo.markRead(currentUser(request).userId, request.params.id))) throw notFound(`Notification ${request.params.id}`);
      return ok();
    },
  );
}
