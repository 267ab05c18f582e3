import { sql } from 'kysely';
import type { Db } from '@csp/db';

export interface NotificationInsert {
  userId: number;
  notiType: string;
  title: string;
  content?: string | null;
  linkUrl?: string | null;
}

/** Every query is scoped to one user: a user only ever sees and changes their own notifications. */
export class NotificationRepository {
  constructor(private readonly db: Db) {}

  async unreadCount(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('notification')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .where('is_read', '=', false)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** True when the notification exists and belongs to the user (already read counts as success). */
  async markRead(userId: number, notiId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('notification')
      .set({ is_read: true, read_at: sql<Date>`coalesce(read_at, now())` })
      .where('noti_id', '=', notiId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async markAllRead(userId: number): Promise<number> {
    const result = await this.db
      .updateTable('notification')
      .set({ is_read: true, read_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('is_read', '=', false)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** For in-process producers (approval workflow). */
  async insert(n: NotificationInsert): Promise<number> {
    const row = await this.db
      .insertInto('notification')
      .values({ user_id: n.userId, noti_type: n.notiType, title: n.title, content: n.content ?? null, link_url: n.linkUrl ?? null })
      .returning('noti_id')
      .executeTakeFirstOrThrow();
    return row.noti_id;
  }
}
