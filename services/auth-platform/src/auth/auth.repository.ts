import { sql } from 'kysely';
import type { Db, UserStatus } from '@csp/db';
import { readSystemConfig } from '@csp/service-kit';

export interface LoginUser {
  userId: number;
  loginId: string;
  passwordHash: string;
  userName: string;
  agentId: number | null;
  status: UserStatus;
}

export interface LoginLogEntry {
  userId: number | null;
  loginId: string;
  result: 'SUCCESS' | 'FAIL';
  failReason: string | null;
  ipAddress: string | null;
  userAgent: string | null;
}

export const DEFAULT_LOGIN_FAIL_LIMIT = 5;

export class AuthRepository {
  constructor(private readonly db: Db) {}

  async findUserByLoginId(loginId: string): Promise<LoginUser | undefined> {
    const row = await this.userQuery().where('login_id', '=', loginId).executeTakeFirst();
    return row && toLoginUser(row);
  }

  async findUserById(userId: number): Promise<LoginUser | undefined> {
    const row = await this.userQuery().where('user_id', '=', userId).executeTakeFirst();
    return row && toLoginUser(row);
  }

  /** Codes of the user's active roles. */
  async roleCodesOf(userId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('user_role as ur')
      .innerJoin('role as r', 'r.role_id', 'ur.role_id')
      .select('r.role_code')
      .where('ur.user_id', '=', userId)
      .where('r.is_active', '=', true)
      .orderBy('r.role_id')
      .execute();
    return rows.map((r) => r.role_code);
  }

  /** LOGIN_FAIL_LIMIT from system_config; the default when missing or not a positive integer. */
  async loginFailLimit(): Promise<number> {
    const limit = Number((await readSystemConfig(this.db, ['LOGIN_FAIL_LIMIT'])).get('LOGIN_FAIL_LIMIT'));
    return Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_LOGIN_FAIL_LIMIT;
  }

  /**
   * Counts a failed attempt and locks the account when the count reaches `limit`, in one statement
   * so concurrent attempts cannot skip the lock. Undefined when the user is no longer ACTIVE.
   */
  async recordFailure(userId: number, limit: number): Promise<{ failCount: number; locked: boolean } | undefined> {
    const row = await this.db
      .updateTable('users')
      .set({
        fail_count: sql<number>`fail_count + 1`,
        status: sql<'ACTIVE' | 'LOCKED'>`CASE WHEN fail_count + 1 >= ${limit} THEN 'LOCKED' ELSE status END`,
        updated_at: sql<Date>`now()`,
      })
      .where('user_id', '=', userId)
      .where('status', '=', 'ACTIVE')
      .returning(['fail_count', 'status'])
      .executeTakeFirst();
    return row && { failCount: row.fail_count, locked: row.status === 'LOCKED' };
  }

  async recordSuccess(userId: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ fail_count: 0, last_login_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .execute();
  }

  async writeLoginLog(entry: LoginLogEntry): Promise<void> {
    await this.db
      .insertInto('login_log')
      .values({
        user_id: entry.userId,
        login_id: entry.loginId.slice(0, 50),
        login_type: 'PWD',
        result: entry.result,
        fail_reason: entry.failReason,
        ip_address: entry.ipAddress?.slice(0, 64) ?? null,
        user_agent: entry.userAgent?.slice(0, 500) ?? null,
      })
      .execute();
  }

  async insertRefreshToken(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insertInto('refresh_token').values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt }).execute();
  }

  /** Marks a usable token as used and returns its user; undefined for unknown, used, revoked or expired tokens. */
  async consumeRefreshToken(tokenHash: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('refresh_token')
      .set({ used_at: sql<Date>`now()` })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  async revokeRefreshToken(userId: number, tokenHash: string): Promise<void> {
    await this.db
      .updateTable('refresh_token')
      .set({ revoked_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeAllRefreshTokens(userId: number): Promise<void> {
    await this.db
      .updateTable('refresh_token')
      .set({ revoked_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('used_at', 'is', null)
      .execute();
  }

  /** Keeps the table small: a user's expired tokens are of no use to anyone. */
  async deleteExpiredRefreshTokens(userId: number): Promise<void> {
    await this.db
      .deleteFrom('refresh_token')
      .where('user_id', '=', userId)
      .where('expires_at', '<', sql<Date>`now()`)
      .execute();
  }

  async updatePassword(userId: number, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password: passwordHash, password_changed_at: sql<Date>`now()`, updated_at: sql<Date>`now()`, updated_by: userId })
      .where('user_id', '=', userId)
      .execute();
  }

  private userQuery() {
    return this.db
      .selectFrom('users')
      .select(['user_id', 'login_id', 'password', 'user_name', 'agent_id', 'status']);
  }
}

function toLoginUser(row: {
  user_id: number;
  login_id: string;
  password: string;
  user_name: string;
  agent_id: number | null;
  status: LoginUser['status'];
}): LoginUser {
  return {
    userId: row.user_id,
    loginId: row.login_id,
    passwordHash: row.password,
    userName: row.user_name,
    agentId: row.agent_id,
    status: row.status,
  };
}
