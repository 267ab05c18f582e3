import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../src/bootstrap.js';
import { readMigrations } from '../src/migrate.js';
import { createTestDatabase, TEST_ADMIN_PASSWORD, type TestDatabase } from '../src/testing.js';
import { BASE_URL } from './helpers.js';

const created: TestDatabase[] = [];
afterAll(async () => {
  for (const t of created) await t.drop();
});

async function fresh(): Promise<TestDatabase> {
  const t = await createTestDatabase();
  created.push(t);
  return t;
}

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('createTestDatabase', () => {
  it('gives a fully migrated database whose admin (SUPER_ADMIN) password verifies with bcrypt', async () => {
    const t = await fresh();
    expect(t.name).toMatch(/^csp_test_[0-9a-f]{12}$/);
    expect(t.url.endsWith(`/${t.name}`)).toBe(true);

    const versions = await t.pool.query<{ version: number }>(
      'SELECT version FROM schema_migration ORDER BY version',
    );
    expect(versions.rows.map((r) => r.version)).toEqual((await readMigrations()).map((f) => f.version));

    const admin = await t.db
      .selectFrom('users')
      .innerJoin('user_role', 'user_role.user_id', 'users.user_id')
      .innerJoin('role', 'role.role_id', 'user_role.role_id')
      .select(['users.login_id', 'users.user_name', 'users.status', 'users.password', 'role.role_code'])
      .where('users.login_id', '=', 'admin')
      .execute();
    expect(admin).toHaveLength(1);
    expect(admin[0]).toMatchObject({
      login_id: 'admin',
      user_name: 'Administrator',
      status: 'ACTIVE',
      role_code: 'SUPER_ADMIN',
    });
    expect(admin[0]!.password).toMatch(/^\$2[aby]\$10\$/);
    expect(await verifyPassword(TEST_ADMIN_PASSWORD, admin[0]!.password)).toBe(true);
    expect(await verifyPassword('wrong', admin[0]!.password)).toBe(false);
  });

  it('databases are isolated from each other', async () => {
    const [a, b] = await Promise.all([fresh(), fresh()]);
    expect(a.name).not.toBe(b.name);

    await a.db.insertInto('notice').values({ title: 'only in a', content: 'x' }).execute();

    const inA = await a.db.selectFrom('notice').select('title').execute();
    const inB = await b.db.selectFrom('notice').select('title').execute();
    expect(inA).toEqual([{ title: 'only in a' }]);
    expect(inB).toEqual([]);
  });

  it('drop() removes the database', async () => {
    const t = await createTestDatabase();
    expect(await databaseExists(t.name)).toBe(true);

    await t.drop();

    expect(await databaseExists(t.name)).toBe(false);
  });

  it('cloning from an existing template is fast', async () => {
    await fresh(); // the template exists from here on
    const started = performance.now();
    const t = await fresh();
    await t.pool.query('SELECT 1');
    const ms = performance.now() - started;
    console.info(`createTestDatabase() with an existing template: ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(5_000);
  });
});
