import bcrypt from 'bcrypt';
import type { Db } from './pool.js';

const BCRYPT_COST = 10;

/** The one place passwords are hashed (BCrypt, cost 10). */
export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, BCRYPT_COST);
}

/** False for a wrong password and for a stored value that is not a BCrypt hash. */
export async function verifyPassword(plain: string, hash: string): Promise<boolean> {
  try {
    return await bcrypt.compare(plain, hash);
  } catch {
    return false;
  }
}

export interface EnsureAdminOptions {
  password: string;
  loginId?: string;
}

export interface EnsureAdminResult {
  userId: number;
  created: boolean;
}

/**
 * Creates the initial administrator (role SUPER_ADMIN) when no user with its login id exists.
 * An existing administrator is left exactly as it is: its password is never overwritten.
 */
export async function ensureAdminUser(db: Db, options: EnsureAdminOptions): Promise<EnsureAdminResult> {
  const loginId = options.loginId ?? 'admin';
  const existing = await db
    .selectFrom('users')
    .select('user_id')
    .where('login_id', '=', loginId)
    .executeTakeFirst();
  if (existing) return { userId: existing.user_id, created: false };
  if (!options.password) throw new Error('ensureAdminUser: an initial password is required');

  const password = await hashPassword(options.password);
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('users')
      .values({ login_id: loginId, password, user_name: 'Administrator', status: 'ACTIVE' })
      .onConflict((oc) => oc.column('login_id').doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!inserted) {
      // Another process created it between our check and our insert.
      const row = await trx
        .selectFrom('users')
        .select('user_id')
        .where('login_id', '=', loginId)
        .executeTakeFirstOrThrow();
      return { userId: row.user_id, created: false };
    }
    const role = await trx
      .selectFrom('role')
      .select('role_id')
      .where('role_code', '=', 'SUPER_ADMIN')
      .executeTakeFirstOrThrow(
        () => new Error('ensureAdminUser: role SUPER_ADMIN is not seeded (run migrate first)'),
      );
    await trx
      .insertInto('user_role')
      .values({ user_id: inserted.user_id, role_id: role.role_id })
      .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
      .execute();
    return { userId: inserted.user_id, created: true };
  });
}
