import type { FastifyRequest } from 'fastify';
import { sql, type Insertable, type Transaction } from 'kysely';
import type { z } from 'zod';
import { hashPassword, type Database } from '@csp/db';
import { AppError, invalid, notFound, type AnyRow, type ServiceApp } from '@csp/service-kit';
import { generateTemporaryPassword, passwordPolicyViolation } from '../auth/password-policy.js';
import { findRow, writeContext } from '../common/resource-rows.js';
import type { UserRepository } from './users.repository.js';
import { userResource, type userCreateBody } from './users.resource.js';

export class UserService {
  constructor(
    private readonly app: ServiceApp,
    private readonly repo: UserRepository,
  ) {}

  /** The user as lists show it (phone and e-mail masked, never the hash): what change-log rows carry. */
  private async snapshot(userId: number, db: ServiceApp['db'] | Transaction<Database> = this.app.db) {
    const row = await findRow(userResource, db, userId);
    return row && userResource.toResp(row, this.app.cipher);
  }

  private async existing(userId: number): Promise<AnyRow> {
    const row = await findRow(userResource, this.app.db, userId);
    if (!row) throw notFound(`User ${userId}`);
    return row;
  }

  /** Unmasked, with the roles. */
  async detail(userId: number) {
    const row = await this.existing(userId);
    const roles = await this.repo.rolesOf(userId);
    return {
      ...userResource.toResp(row, this.app.cipher),
      email: row.email as string | null,
      phone: row.phone as string | null,
      roles: roles.map((r) => ({ roleId: r.role_id, roleCode: r.role_code, roleName: r.role_name })),
    };
  }

  async create(request: FastifyRequest, body: z.output<typeof userCreateBody>) {
    const { password, roleIds, ...user } = body;
    const violation = passwordPolicyViolation(password);
    if (violation) throw invalid('password', violation);
    const unique = [...new Set(roleIds ?? [])];
    const passwordHash = await hashPassword(password);
    const userId = await this.app.db.transaction().execute(async (trx) => {
      await this.assertRolesExist(unique, trx);
      const values = await userResource.toInsert(user, writeContext(this.app, request, trx));
      const row = await trx
        .insertInto('users')
        .values({ ...(values as Insertable<Database['users']>), password: passwordHash, password_changed_at: sql<Date>`now()` })
        .returning('user_id')
        .executeTakeFirstOrThrow();
      await this.repo.replaceRoles(row.user_id, unique, trx);
      return row.user_id;
    });
    return { userId, after: { ...(await this.snapshot(userId)), roleIds: unique } };
  }

  async update(request: FastifyRequest, userId: number, body: AnyRow) {
    const existing = await this.existing(userId);
    const before = userResource.toResp(existing, this.app.cipher);
    await this.app.db.transaction().execute(async (trx) => {
      const values = await userResource.toUpdate(body, writeContext(this.app, request, trx), existing);
      // Reactivating an account also forgets the failures that may have locked it.
      if (body.status === 'ACTIVE') values.fail_count = 0;
      await trx.updateTable('users').set(values).where('user_id', '=', userId).execute();
      // An account that may no longer sign in loses its sessions at the next refresh.
      if (body.status && body.status !== 'ACTIVE') await this.repo.revokeRefreshTokens(userId, trx);
    });
    return { before, after: await this.snapshot(userId) };
  }

  /** Sets the given password, or generates a temporary one that is returned exactly once. */
  async resetPassword(userId: number, newPassword: string | undefined, actorId: number | null) {
    await this.existing(userId);
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
    const before = userResource.toResp(await this.existing(userId), this.app.cipher);
    if (before.status !== 'LOCKED' && before.status !== 'ACTIVE') {
      throw new AppError('BAD_REQUEST', `Only a LOCKED account can be unlocked (status is ${before.status})`);
    }
    await this.repo.unlock(userId, actorId);
    return { before, after: await this.snapshot(userId) };
  }

  async assignRoles(userId: number, roleIds: number[]) {
    const unique = [...new Set(roleIds)];
    await this.existing(userId);
    const before = (await this.repo.rolesOf(userId)).map((r) => r.role_code);
    await this.app.db.transaction().execute(async (trx) => {
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
