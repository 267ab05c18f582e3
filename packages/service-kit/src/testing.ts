import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Db } from '@csp/db';
import { createTestDatabase } from '@csp/db/testing';
import { loadServiceConfig, type ServiceConfig } from './config.js';
import { signAccessToken, type AuthUser } from './auth.js';
import { TEST_ENCRYPT_KEY } from './masked-scan.js';

export {
  scanDatabase,
  readMaskedScanReports,
  maskedScanFailure,
  WRITE_ONLY_COLUMNS,
  type ScanColumn,
  type DatabaseScan,
  type MaskedFinding,
  type SuiteScanSummary,
} from './masked-scan.js';
export {
  runWriteOnlyRoundTrip,
  scanMaskedColumns,
  type WriteOnlyCase,
  type WriteOnlyReport,
  type MaskedScanFinding,
} from './write-only-testing.js';
export { buildZip, xlsxFromXml, sharedStringsBomb, type ZipPart } from './zip-builder.js';
export { compareOpenApi, type BreakingChange, type BreakingKind } from './openapi-contract.js';
export {
  fuzzOpenApi,
  formatFuzzReport,
  type FuzzOptions,
  type FuzzReport,
  type FuzzFailure,
  type FuzzOperationReport,
  type FuzzRequest,
  type FuzzTarget,
} from './fuzz.js';

/** The JWT secret test contexts sign with (48 bytes). */
export const TEST_JWT_SECRET = 'test-jwt-secret-for-integration-tests-0123456789';
export { TEST_ENCRYPT_KEY };

export interface TestDeps {
  config: ServiceConfig;
  db: Db;
  pool: pg.Pool;
  redis: Redis;
}

export interface TestContext<A> {
  app: A;
  db: Db;
  pool: pg.Pool;
  redis: Redis;
  config: ServiceConfig;
  /** Token of an ACTIVE user `test_<role>` holding that role (role created when missing). */
  tokenFor(roleCode: string): Promise<string>;
  /** The user behind `tokenFor(roleCode)`. */
  userFor(roleCode: string): Promise<AuthUser>;
  /** Token of the seeded `admin` when present, else of a SUPER_ADMIN test user. */
  adminToken: string;
  close(): Promise<void>;
}

export interface TestContextOptions<A> {
  buildApp(deps: TestDeps): Promise<A>;
  serviceName?: string;
  /** Extra environment for loadServiceConfig. */
  env?: Record<string, string>;
}

async function loadUser(db: Db, loginId: string): Promise<AuthUser | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['user_id', 'login_id', 'user_name', 'agent_id'])
    .where('login_id', '=', loginId)
    .executeTakeFirst();
  if (!user) return undefined;
  const roles = await db
    .selectFrom('user_role')
    .innerJoin('role', 'role.role_id', 'user_role.role_id')
    .select('role.role_code')
    .where('user_role.user_id', '=', user.user_id)
    .orderBy('role.role_code')
    .execute();
  return {
    userId: user.user_id,
    loginId: user.login_id,
    userName: user.user_name,
    roleCodes: roles.map((r) => r.role_code),
    agentId: user.agent_id,
  };
}

async function ensureRoleUser(db: Db, roleCode: string): Promise<AuthUser> {
  const loginId = `test_${roleCode.toLowerCase()}`;
  await db
    .insertInto('role')
    .values({ role_code: roleCode, role_name: roleCode })
    .onConflict((oc) => oc.column('role_code').doNothing())
    .execute();
  await db
    .insertInto('users')
    .values({ login_id: loginId, password: '!', user_name: `Test ${roleCode}`, status: 'ACTIVE' })
    .onConflict((oc) => oc.column('login_id').doUpdateSet({ status: 'ACTIVE' }))
    .execute();
  await sql`
    INSERT INTO user_role (user_id, role_id)
    SELECT u.user_id, r.role_id FROM users u, role r WHERE u.login_id = ${loginId} AND r.role_code = ${roleCode}
    ON CONFLICT (user_id, role_id) DO NOTHING`.execute(db);
  return (await loadUser(db, loginId))!;
}

/**
 * A fresh database cloned from the migrated template (@csp/db/testing), an isolated Redis key prefix
 * and the app built on them, plus tokens. `close()` closes the app, Redis (removing the prefix's
 * keys) and the pool, and drops the database.
 */
export async function createTestContext<A extends FastifyInstance<any, any, any, any, any>>(
  options: TestContextOptions<A>,
): Promise<TestContext<A>> {
  const database = await createTestDatabase();
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const keyPrefix = `test:${randomBytes(6).toString('hex')}:`;
  const config = loadServiceConfig(options.serviceName ?? 'test-service', {}, {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    JWT_SECRET: TEST_JWT_SECRET,
    ENCRYPT_KEY: TEST_ENCRYPT_KEY,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...options.env,
  });
  const { pool, db } = database;
  const redis = new Redis(redisUrl, { keyPrefix });

  let app: A;
  try {
    app = await options.buildApp({ config, db, pool, redis });
    await app.ready();
  } catch (err) {
    redis.disconnect();
    await database.drop();
    throw err;
  }

  const users = new Map<string, Promise<AuthUser>>();
  const userFor = (roleCode: string) => {
    let user = users.get(roleCode);
    if (!user) {
      user = ensureRoleUser(db, roleCode);
      users.set(roleCode, user);
    }
    return user;
  };
  const tokenFor = async (roleCode: string) => signAccessToken(app, await userFor(roleCode));
  const admin = await loadUser(db, 'admin');
  const adminToken = admin ? signAccessToken(app, admin) : await tokenFor('SUPER_ADMIN');

  return {
    app,
    db,
    pool,
    redis,
    config,
    tokenFor,
    userFor,
    adminToken,
    close: async () => {
      await app.close();
      const cleaner = new Redis(redisUrl);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await cleaner.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
          if (keys.length > 0) await cleaner.unlink(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        cleaner.disconnect();
        redis.disconnect();
      }
      await database.drop();
    },
  };
}
