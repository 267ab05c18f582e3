import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdminUser, hashPassword, verifyPassword } from '../src/bootstrap.js';
import { createTestDatabase, TEST_ADMIN_PASSWORD, type TestDatabase } from '../src/testing.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

async function userWithRoles(loginId: string) {
  const user = await t.db
    .selectFrom('users')
    .selectAll()
    .where('login_id', '=', loginId)
    .executeTakeFirstOrThrow();
  const roles = await t.db
    .selectFrom('user_role')
    .innerJoin('role', 'role.role_id', 'user_role.role_id')
    .select('role.role_code')
    .where('user_role.user_id', '=', user.user_id)
    .execute();
  return { user, roles: roles.map((r) => r.role_code) };
}

describe('passwords', () => {
  it('hashPassword produces a bcrypt cost-10 hash that verifyPassword accepts', async () => {
    const hash = await hashPassword('s3cret!');
    expect(hash).toMatch(/^\$2b\$10\$.{53}$/);
    expect(await verifyPassword('s3cret!', hash)).toBe(true);
    expect(await verifyPassword('s3cret?', hash)).toBe(false);
  });

  it('verifyPassword is false for a stored value that is not a bcrypt hash', async () => {
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
    expect(await verifyPassword('x', '')).toBe(false);
  });
});

describe('ensureAdminUser', () => {
  it('leaves an existing admin untouched, password included', async () => {
    const before = await userWithRoles('admin');

    const result = await ensureAdminUser(t.db, { password: 'another-password' });

    expect(result).toEqual({ userId: before.user.user_id, created: false });
    const after = await userWithRoles('admin');
    expect(after.user.password).toBe(before.user.password);
    expect(await verifyPassword(TEST_ADMIN_PASSWORD, after.user.password)).toBe(true);
  });

  it('creates an absent administrator as ACTIVE with role SUPER_ADMIN', async () => {
    const result = await ensureAdminUser(t.db, { password: 'Init#Pass1', loginId: 'root2' });

    expect(result.created).toBe(true);
    const { user, roles } = await userWithRoles('root2');
    expect(user).toMatchObject({
      user_id: result.userId,
      user_name: 'Administrator',
      status: 'ACTIVE',
      fail_count: 0,
    });
    expect(roles).toEqual(['SUPER_ADMIN']);
    expect(await verifyPassword('Init#Pass1', user.password)).toBe(true);
  });

  it('concurrent calls create the administrator once', async () => {
    const results = await Promise.all([
      ensureAdminUser(t.db, { password: 'p-one', loginId: 'root3' }),
      ensureAdminUser(t.db, { password: 'p-two', loginId: 'root3' }),
    ]);

    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results[0]!.userId).toBe(results[1]!.userId);
    const { roles } = await userWithRoles('root3');
    expect(roles).toEqual(['SUPER_ADMIN']);
  });

  it('refuses to create an administrator without a password', async () => {
    await expect(ensureAdminUser(t.db, { password: '', loginId: 'root4' })).rejects.toThrow(
      'initial password is required',
    );
  });
});
