import type pg from 'pg';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { PermCode } from '@csp/db';
import { AppError } from './errors.js';

export const PERMISSION_INVALIDATE_CHANNEL = 'csp:perm:invalidate';

/** One query answers both "is the user ACTIVE" and "does a role grant (menu, perm)". */
const GRANT_SQL = `
SELECT u.status,
       EXISTS (
         SELECT 1
           FROM user_role ur
           JOIN role r ON r.role_id = ur.role_id AND r.is_active
           JOIN role_menu_permission rmp ON rmp.role_id = r.role_id AND rmp.is_granted = 'Y' AND rmp.perm_code = $3
           JOIN menu m ON m.menu_id = rmp.menu_id AND m.is_active AND m.menu_code = $2
           JOIN menu_permission mp ON mp.menu_id = m.menu_id AND mp.perm_code = $3
          WHERE ur.user_id = u.user_id
       ) AS granted
  FROM users u
 WHERE u.user_id = $1`;

const STATUS_SQL = 'SELECT status FROM users WHERE user_id = $1';

export interface Permissions {
  /** E401 when the user is missing or not ACTIVE, E403 without a grant for (menu, perm). */
  require(userId: number, menu: string, perm: PermCode): Promise<void>;
  /** E401 when the user is missing or not ACTIVE. */
  requireActive(userId: number): Promise<void>;
  /** Clears the positive-answer cache here and, through Redis pub/sub, in every service. */
  invalidate(): Promise<void>;
  /** Clears only this process's cache. */
  clearLocal(): void;
}

export interface PermissionCacheOptions {
  pool: pg.Pool;
  redis: Redis;
  log: FastifyBaseLogger;
  /** Safety net only; changes are pushed through `invalidate()`. */
  ttlMs?: number;
}

/** The pub/sub channel follows the connection's key prefix so isolated test contexts stay isolated. */
export function invalidateChannel(redis: Redis): string {
  return `${redis.options.keyPrefix ?? ''}${PERMISSION_INVALIDATE_CHANNEL}`;
}

export async function createPermissions(options: PermissionCacheOptions): Promise<{ permissions: Permissions; close(): Promise<void> }> {
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const positive = new Map<string, number>();
  const channel = invalidateChannel(options.redis);

  const cached = (key: string): boolean => {
    const expires = positive.get(key);
    if (expires === undefined) return false;
    if (expires > Date.now()) return true;
    positive.delete(key);
    return false;
  };
  const remember = (key: string) => positive.set(key, Date.now() + ttlMs);

  const assertActive = (status: string | undefined) => {
    if (status !== 'ACTIVE') throw new AppError('UNAUTHORIZED', 'User is not active');
  };

  const subscriber = options.redis.duplicate();
  subscriber.on('error', (err) => options.log.warn({ err }, 'permission invalidation subscriber error'));
  subscriber.on('message', (ch) => {
    if (ch === channel) positive.clear();
  });
  const subscribed = subscriber.subscribe(channel).then(
    () => true,
    (err: unknown) => {
      options.log.warn({ err }, 'could not subscribe to permission invalidation');
      return false;
    },
  );
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 5000).unref());
  if (!(await Promise.race([subscribed, timeout]))) {
    options.log.warn('permission invalidation subscription is not ready yet; continuing');
  }

  const permissions: Permissions = {
    async require(userId, menu, perm) {
      const key = `${userId}|${menu}|${perm}`;
      if (cached(key)) return;
      const { rows } = await options.pool.query<{ status: string; granted: boolean }>(GRANT_SQL, [userId, menu, perm]);
      assertActive(rows[0]?.status);
      if (!rows[0]!.granted) throw new AppError('FORBIDDEN', `No ${perm} permission on ${menu}`);
      remember(key);
      remember(`${userId}|*`);
    },
    async requireActive(userId) {
      const key = `${userId}|*`;
      if (cached(key)) return;
      const { rows } = await options.pool.query<{ status: string }>(STATUS_SQL, [userId]);
      assertActive(rows[0]?.status);
      remember(key);
    },
    async invalidate() {
      positive.clear();
      await options.redis.publish(channel, String(Date.now()));
    },
    clearLocal() {
      positive.clear();
    },
  };

  return {
    permissions,
    close: async () => {
      subscriber.disconnect();
    },
  };
}
