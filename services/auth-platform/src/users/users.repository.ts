import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '@csp/db';

type Executor = Db | Transaction<Database>;

/** The user queries the field table cannot express: roles, passwords and sessions. */
export class UserRepository {
  constructor(private readonly db: Db) {}

  rolesOf(userId: number, db: Executor = this.db) {
    return db
      .selectFrom('user_role as ur')
      .innerJoin('role as r', 'r.role_id', 'ur.role_id')
      .select(['r.role_id', 'r.role_code', 'r.role_name'])
      .where('ur.user_id', '=', userId)
      .orderBy('r.role_id')
      .execute();
  }

  async existingRoleIds(roleIds: number[], db: Executor = this.db): Promise<Set<number>> {
    if (roleIds.length === 0) return new Set();
    const rows = await db.selectFrom('role').select('role_id').where('role_id', 'in', roleIds).execute();
    return new Set(rows.map((r) => r.role_id));
  }

  async replaceRoles(userId: number, roleIds: number[], db: Executor): Promise<void> {
    await db.deleteFrom('user_role').where('user_id', '=', userId).execute();
    if (roleIds.length > 0) {
      await db
        .insertInto('user_role')
        .values(roleIds.map((roleId) => ({ user_id: userId, role_id: roleId })))
        .execute();
    }
  }

  async setPassword(userId: number, passwordHash: string, actorId: number | null): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password: passwordHash, password_changed_at: sql<Date>`now()`, updated_at: sql<Date>`now()`, updated_by: actorId })
      .where('user_id', '=', userId)
      .execute();
  }

  async unlock(userId: number, actorId: number | null): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ status: 'ACTIVE', fail_count: 0, updated_at: sql<Date>`now()`, updated_by: actorId })
      .where('user_id', '=', userId)
      .execute();
  }

  async revokeRefreshTokens(userId: number, db: Executor = this.db): Promise<void> {
    await db
      .updateTable('refresh_token')
      .set({ revoked_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('used_at', 'is', null)
      .execute();
  }
}
