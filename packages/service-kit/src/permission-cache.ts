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

/** What the guard reads per request instead of trusting the token: status, agent link, active roles. */
const USER_SQL = `
SELECT u.status, u.agent_id,
       ARRAY(SELECT r.role_code
               FROM user_role ur
               JOIN role r ON r.role_id = ur.role_id AND r.is_active
              WHERE ur.user_id = u.user_id
              ORDER BY r.role_id) AS role_codes
  FROM users u
 WHERE u.user_id = $1`;

/** The menus whose `perm` the user's active roles grant (the same conditions as GRANT_SQL). */
const MENUS_SQL = `
SELECT DISTINCT m.menu_code
  FROM user_role ur
  JOIN role r ON r.role_id = ur.role_id AND r.is_active
  JOIN role_menu_permission rmp ON rmp.role_id = r.role_id AND rmp.is_granted = 'Y' AND rmp.perm_code = $2
  JOIN menu m ON m.menu_id = rmp.menu_id AND m.is_active
  JOIN menu_permission mp ON mp.menu_id = m.menu_id AND mp.perm_code = $2
 WHERE ur.user_id = $1`;

/** The user as stored now (an ACTIVE one). */
export interface LiveUser {
  agentId: number | null;
  roleCodes: string[];
}

export interface Permissions {
  /** E401 when the user is missing or not ACTIVE, E403 without a grant for (menu, perm). */
  require(userId: number, menu: string, perm: PermCode): Promise<void>;
  /** E401 when the user is missing or not ACTIVE. */
  requireActive(userId: number): Promise<void>;
  /**
   * The user's agent link and active roles as stored now (E401 when missing or not ACTIVE), cached
   * briefly (`userTtlMs`) and cleared by `invalidate()`, so an unlink or a role change applies at once.
   */
  currentUser(userId: number): Promise<LiveUser>;
  /** The menu codes on which the user holds `perm` (cached like `currentUser`). */
  grantedMenus(userId: number, perm: PermCode): Promise<ReadonlySet<string>>;
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
  /** Safety net of the per-user reads (`currentUser`, `grantedMenus`); default 30 s. */
  userTtlMs?: number;
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
  const userTtlMs = options.userTtlMs ?? Math.min(30_000, ttlMs);
  const users = new Map<number, { expires: number; user: LiveUser }>();
  const menus = new Map<string, { expires: number; menus: ReadonlySet<string> }>();
  const clearAll = () => {
    positive.clear();
    users.clear();
    menus.clear();
  };

  const assertActive = (status: string | undefined) => {
    if (status !== 'ACTIVE') throw new AppError('UNAUTHORIZED', 'User is not active');
  };

  const subscriber = options.redis.duplicate();
  subscriber.on('error', (err) => options.log.warn({ err }, 'permission invalidation subscriber error'));
  subscriber.on('message', (ch) => {
    if (ch === channel) clearAll();
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
    },
    async requireActive(userId) {
      await permissions.currentUser(userId);
    },
    async currentUser(userId) {
      const hit = users.get(userId);
      if (hit && hit.expires > Date.now()) return hit.user;
      const { rows } = await options.pool.query<{ status: string; agent_id: string | number | null; role_codes: string[] }>(USER_SQL, [userId]);
      assertActive(rows[0]?.status);
      const row = rows[0]!;
      const user: LiveUser = { agentId: row.agent_id === null ? null : Number(row.agent_id), roleCodes: row.role_codes };
      users.set(userId, { expires: Date.now() + userTtlMs, user });
      return user;
    },
    async grantedMenus(userId, perm) {
      const key = `${userId}|${perm}`;
      const hit = menus.get(key);
      if (hit && hit.expires > Date.now()) return hit.menus;
      const { rows } = await options.pool.query<{ menu_code: string }>(MENUS_SQL, [userId, perm]);
      const set = new Set(rows.map((r) => r.menu_code));
      menus.set(key, { expires: Date.now() + userTtlMs, menus: set });
      return set;
    },
    async invalidate() {
      clearAll();
      await options.redis.publish(channel, String(Date.now()));
    },
    clearLocal() {
      clearAll();
    },
  };

  return {
    permissions,
    close: async () => {
      subscriber.disconnect();
    },
  };
}
