import type { Transaction } from 'kysely';
import { hashPassword, type Database, type Db } from '@csp/db';
import { AppError, invalid, isoTimestamp, maskEmail, maskPhone, notFound } from '@csp/service-kit';
import { generateTemporaryPassword, passwordPolicyViolation } from '../auth/password-policy.js';
import type { UserInsert, UserRepository, UserRow, UserStatus, UserUpdate } from './repository.js';

export interface UserResp {
  userId: number;
  loginId: string;
  userName: string;
  agentId: number | null;
  email: string | null;
  phone: string | null;
  status: UserStatus;
  failCount: number;
  lastLoginAt: string | null;
  passwordChangedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface UserCreate {
  loginId: string;
  password: string;
  userName: string;
  agentId?: number | null | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  status?: UserStatus | undefined;
  roleIds?: number[] | undefined;
}

export function toUserResp(row: UserRow, options: { masked: boolean }): UserResp {
  return {
    userId: row.user_id,
    loginId: row.login_id,
    userName: row.user_name,
    agentId: row.agent_id,
    email: options.masked && row.email ? maskEmail(row.email) : row.email,
    phone: options.masked && row.phone ? maskPhone(row.phone) : row.phone,
    status: row.status,
    failCount: row.fail_count,
    lastLoginAt: isoTimestamp(row.last_login_at),
    passwordChangedAt: isoTimestamp(row.password_changed_at),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

/** What a change-log row may show of a user: never the password hash. */
function snapshot(row: UserRow | undefined): Record<string, unknown> | undefined {
  return row && { ...toUserResp(row, { masked: true }) };
}

export class UserService {
  constructor(
    private readonly repo: UserRepository,
    private readonly db: Db,
  ) {}

  async detail(userId: number) {
    const row = await this.repo.findById(userId);
    if (!row) throw notFound(`User ${userId}`);
    const roles = await this.repo.rolesOf(userId);
    return {
      ...toUserResp(row, { masked: false }),
      roleCodes: roles.map((r) => r.role_code),
      roles: roles.map((r) => ({ roleId: r.role_id, roleCode: r.role_code, roleName: r.role_name })),
    };
  }

  async create(input: UserCreate, actorId: number | null) {
    const violation = passwordPolicyViolation(input.password);
    if (violation) throw invalid('password', violation);
    const roleIds = [...new Set(input.roleIds ?? [])];
    const insert: UserInsert = {
      loginId: input.loginId,
      passwordHash: await hashPassword(input.password),
      userName: input.userName,
      agentId: input.agentId ?? null,
      email: input.email ?? null,
      phone: input.phone ?? null,
      status: input.status ?? 'ACTIVE',
    };
    const userId = await this.db.transaction().execute(async (trx) => {
      await this.assertRolesExist(roleIds, trx);
      const id = await this.repo.insert(insert, actorId, trx);
      await this.repo.replaceRoles(id, roleIds, trx);
      return id;
    });
    const after = await this.repo.findById(userId);
    return { userId, after: { ...snapshot(after), roleIds } };
  }

  async update(userId: number, changes: UserUpdate, actorId: number | null) {
    const before = await this.repo.findById(userId);
    if (!before) throw notFound(`User ${userId}`);
    await this.db.transaction().execute(async (trx) => {
      await this.repo.update(userId, changes, actorId, trx);
      // An account that may no longer sign in loses its sessions at the next refresh.
      if (changes.status && changes.status !== 'ACTIVE') await this.repo.revokeRefreshTokens(userId, trx);
    });
    return { before: snapshot(before), after: snapshot(await this.repo.findById(userId)) };
  }

  /** Sets the given password, or generates a temporary one that is returned exactly once. */
  async resetPassword(userId: number, newPassword: string | undefined, actorId: number | null) {
    const row = await this.repo.findById(userId);
    if (!row) throw notFound(`User ${userId}`);
    if (newPassword !== undefined) {
      const violation = passwordPolicyViolation(newPassword);
      if (violation) throw invalid('newPassword', violation);
    }
    const password = newPassword ?? generateTemporaryPassword();
    await this.repo.setPassword(userId, await hashPassword(password), actorId);
    await this.repo.revokeRefreshTokens(userId);
    return { temporaryPassword: newPassword === undefined ? password : undefined };
  }

  /** LOCKED -> ACTIVE with the failure count cleared; a RETIRED or EXPIRED account is not revived here. */
  async unlock(userId: number, actorId: number | null) {
    const before = await this.repo.findById(userId);
    if (!before) throw notFound(`User ${userId}`);
    if (before.status !== 'LOCKED' && before.status !== 'ACTIVE') {
      throw new AppError('BAD_REQUEST', `Only a LOCKED account can be unlocked (status is ${before.status})`);
    }
    await this.repo.unlock(userId, actorId);
    return { before: snapshot(before), after: snapshot(await this.repo.findById(userId)) };
  }

  async assignRoles(userId: number, roleIds: number[]) {
    const unique = [...new Set(roleIds)];
    const row = await this.repo.findById(userId);
    if (!row) throw notFound(`User ${userId}`);
    const before = (await this.repo.rolesOf(userId)).map((r) => r.role_code);
    await this.db.transaction().execute(async (trx) => {
      await this.assertRolesExist(unique, trx);
      await this.repo.replaceRoles(userId, unique, trx);
    });
    const after = (await this.repo.rolesOf(userId)).map((r) => r.role_code);
    return { before: { roleCodes: before }, after: { roleCodes: after } };
  }

  private async assertRolesExist(roleIds: number[], trx: Transaction<Database>) {
    const existing = await this.repo.existingRoleIds(roleIds, trx);
    const index = roleIds.findIndex((id) => !existing.has(id));
    if (index >= 0) throw invalid(`roleIds.${index}`, `role ${roleIds[index]} does not exist`);
  }
}
