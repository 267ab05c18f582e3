import { sql, type SqlBool } from 'kysely';
import { defineResource, f } from '@csp/service-kit';

/**
 * The caller's own notifications (no menu: every signed-in user has an inbox). Not registered with
 * the kit: its routes are `authenticated()`, not menu-guarded (notifications.routes.ts).
 */
export const notificationResource = defineResource({
  name: 'Notification',
  path: '/api/notifications',
  table: 'notification',
  alias: 'nt',
  menu: 'NOTIFICATION',
  tags: ['notifications'],
  fields: {
    notiId: f.id(),
    notiType: f.text({ max: 30 }).nullable(false).filter(),
    title: f.text().nullable(false),
    content: f.text(),
    linkUrl: f.text(),
    isRead: f.bool().filter(),
    readAt: f.timestamp(),
    createdAt: f.createdAt().sort(),
  },
  // A user only ever sees their own notifications.
  agentScope: (qb, user) => qb.where(sql<SqlBool>`nt.user_id = ${user?.userId ?? 0}`),
  create: false,
  update: false,
  detail: false,
  delete: false,
  export: false,
});
