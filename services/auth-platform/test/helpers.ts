import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashPassword } from '@csp/db';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import type { ServiceApp } from '@csp/service-kit';
import { buildApp } from '../src/app.js';

export const ADMIN_PASSWORD = 'Admin#12345';

export type Ctx = TestContext<ServiceApp> & { storageDir: string };

/** A fresh database, Redis prefix and storage folder for one test file. */
export async function setup(): Promise<Ctx> {
  const storageDir = await mkdtemp(join(tmpdir(), 'auth-platform-files-'));
  const ctx = await createTestContext({
    buildApp: (deps) => buildApp(deps),
    serviceName: 'auth-platform',
    env: { FILE_STORAGE_DIR: storageDir },
  });
  guardPoolClients(ctx);
  const close = ctx.close;
  return Object.assign(ctx, {
    storageDir,
    close: async () => {
      await close();
      await rm(storageDir, { recursive: true, force: true });
    },
  });
}

/**
 * The test database is dropped WITH (FORCE) right after pool.end(), which does not wait for the
 * clients' terminate round trip; a backend killed first makes pg-pool emit 'error' on the pool with
 * nobody listening (an unhandled error that fails the run). A listener on the pool absorbs it.
 */
function guardPoolClients(ctx: TestContext<ServiceApp>): void {
  ctx.pool.on('error', () => {});
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

export interface NewUser {
  loginId: string;
  password?: string;
  roleCodes?: string[];
  status?: 'ACTIVE' | 'LOCKED' | 'RETIRED' | 'EXPIRED';
  agentId?: number | null;
  email?: string | null;
  phone?: string | null;
}

/** Inserts a user straight into the database (roles must exist) and returns its id. */
export async function createUser(ctx: Ctx, user: NewUser): Promise<number> {
  const row = await ctx.db
    .insertInto('users')
    .values({
      login_id: user.loginId,
      password: await hashPassword(user.password ?? 'Passw0rd!'),
      user_name: `User ${user.loginId}`,
      status: user.status ?? 'ACTIVE',
      agent_id: user.agentId ?? null,
      email: user.email ?? null,
      phone: user.phone ?? null,
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  for (const roleCode of user.roleCodes ?? []) {
    const role = await ctx.db.selectFrom('role').select('role_id').where('role_code', '=', roleCode).executeTakeFirstOrThrow();
    await ctx.db.insertInto('user_role').values({ user_id: row.user_id, role_id: role.role_id }).execute();
  }
  return row.user_id;
}

export function login(ctx: Ctx, loginId: string, password: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { loginId, password } });
}

/** The access token of a fresh login (fails the test when the login does not succeed). */
export async function loginToken(ctx: Ctx, loginId: string, password: string): Promise<string> {
  const res = await login(ctx, loginId, password);
  if (res.statusCode !== 200) throw new Error(`login ${loginId} failed: ${res.body}`);
  return res.json().data.accessToken as string;
}

/** Waits for the asynchronous access/change log buffers to reach the database. */
export async function flushLogs(ctx: Ctx): Promise<void> {
  await Promise.all([ctx.app.changeLogWriter.flush(), ctx.app.accessLog.flush()]);
}
