import { z } from 'zod';
import { listQuery, zId } from '@csp/service-kit';
import { zNullableTimestamp, zQueryBool, zTimestamp } from '../common/schemas.js';

export const NOTIFICATION_SORT = { notiId: 'noti_id', createdAt: 'created_at' } as const;

export const notificationListQuery = listQuery(Object.keys(NOTIFICATION_SORT) as Array<keyof typeof NOTIFICATION_SORT>, {
  isRead: zQueryBool.optional(),
  notiType: z.string().max(30).optional(),
});

export const notificationIdParams = z.object({ id: zId });

export const notificationResp = z.object({
  notiId: z.number(),
  notiType: z.string(),
  title: z.string(),
  content: z.string().nullable(),
  linkUrl: z.string().nullable(),
  isRead: z.boolean(),
  readAt: zNullableTimestamp,
  createdAt: zTimestamp,
});
