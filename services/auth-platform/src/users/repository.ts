import { sql, type Transaction } from 'kysely';
import type { Database, Db } from '@csp/db';
import { containsPattern } from '../common/date-range.js';

export type UserStatus = 'ACTIVE' | 'LOCKED' | 'RETIRED' | 'EXPIRED';

export interface UserFilters {
  loginId?: string | undefined;
  userName?: string | undefined;
  status?: string | undefined;
  roleCode?: string | undefined;
  agentId?: number | undefined;
  searchType?: string | undefined;
  searchKeyword?: string | undefined;
}

export interface UserInsert {
  loginId: string;
  passwordHash: string;
  userName: string;
  agentId: number | null;
  email: string | null;
  phone: string | null;
  status: UserStatus;
}

export interface UserUpdate {
  userName?: string | undefined;
  agentId?: number | null | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  status?: UserStatus | undefined;
}

const USER_COLUMNS = [
  'users.user_id',
  'users.login_id',
  'users.user_name',
  'users.agent_id',
  'users.email',
  'users.phone',
  'users.status',
  'users.fail_count',
  'users.last_login_at',
  'users.password_changed_at',
  'users.created_at',
  'users.updated_at',
] as const;

type Executor = Db | Transaction<Database>;

export class UserRepository {
  constructor(private readonly db: Db) {}

  /** Filtered user rows (never the password hash) with the codes of their roles. */
  listQuery(filters: UserFilters) {
    const keyword = filters.searchKeyword?.trim();
    return this.db
      .selectFrom('users')
      .select(USER_COLUMNS)
      .select(
        sql<string[]>`coalesce((select array_agg(r.role_code::text order by r.role_id) from user_role ur
          join role r on r.role_id = ur.role_id where ur.user_id = users.user_id), '{}')`.as('role_codes'),
      )
      .$if(!!filters.loginId, (qb) => qb.where('users.login_id', 'ilike', containsPattern(filters.loginId!)))
      .$if(!!filters.userName, (qb) => qb.where('users.user_name', 'ilike', containsPattern(filters.userName!)))
      .$if(!!filters.status, (qb) => qb.where('users.status', '=', filters.status as UserStatus))
      .$if(filters.agentId !== undefined, (qb) => qb.where('users.agent_id', '=', filters.agentId!))
      .$if(!!filters.roleCode, (qb) =>
        qb.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('user_role as ur')
              .innerJoin('role as r', 'r.role_id', 'ur.role_id')
              .select('ur.user_id')
              .whereRef('ur.user_id', '=', 'users.user_id')
              .where('r.role_code', '=', filters.roleCode!),
          ),
        ),
      )
      .$if(!!keyword, (qb) => {
        const pattern = containsPattern(keyword!);
        if (filters.searchType === 'loginId') return qb.where('users.login_id', 'ilike', pattern);
        if (filters.searchType === 'userName') return qb.where('users.user_name', 'ilike', pattern);
        return qb.where((eb) => eb.or([eb('users.login_id', 'ilike', pattern), eb('users.user_name', 'ilike', pattern)]));
      });
  }

  findById(userId: number, db: Executor = this.db) {
    return db.selectFrom('users').select(USER_COLUMNS).where('users.user_id', '=', userId).executeTakeFirst();
  }

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

  async insert(user: UserInsert, actorId: number | null, db: Executor = this.db): Promise<number> {
    const row = await db
      .insertInto('users')
      .values({
        login_id: user.loginId,
        password: user.passwordHash,
        user_name: user.userName,
        agent_id: user.agentId,
        email: user.email,
        phone: user.phone,
        status: user.status,
        password_changed_at: sql<Date>`now()`,
        created_by: actorId,
        updated_by: actorId,
      })
      .returning('user_id')
      .executeTakeFirstOrThrow();
    return row.user_id;
  }

  async update(userId: number, changes: UserUpdate, actorId: number | null, db: Executor = this.db): Promise<void> {
    await db
      .updateTable('users')
      .set({
        ...(changes.userName !== undefined && { user_name: changes.userName }),
        ...(changes.agentId !== undefined && { agent_id: changes.agentId }),
        ...(changes.email !== undefined && { email: changes.email }),
        ...(changes.phone !== undefined && { phone: changes.phone }),
        ...(changes.status !== undefined && { status: changes.status }),
        // Reactivating an account also forgets the failures that may have locked it.
        ...(changes.status === 'ACTIVE' && { fail_count: 0 }),
        updated_at: sql<Date>`now()`,
        updated_by: actorId,
      })
      .where('user_id', '=', userId)
      .execute();
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

  async replaceRoles(userId: number, roleIds: number[], db: Executor): Promise<void> {
    await db.deleteFrom('user_role').where('user_id', '=', userId).execute();
    if (roleIds.length > 0) {
      await db
        .insertInto('user_role')
        .values(roleIds.map((roleId) => ({ user_id: userId, role_id: roleId })))
        .execute();
    }
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

export type UserRow = NonNullable<Awaited<ReturnType<UserRepository['findById']>>>;
