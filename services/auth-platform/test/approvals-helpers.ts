import { sql } from 'kysely';
import { signAccessToken, type PermCode, type ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { buildApp } from '../src/app.js';

export type Ctx = TestContext<ServiceApp>;

/** auth-platform on a fresh database (the event runtime is off under NODE_ENV=test; tests start it). */
export async function setupApprovals(): Promise<Ctx> {
  const ctx = await createTestContext({ buildApp: (deps) => buildApp(deps), serviceName: 'auth-platform' });
  // the database is dropped WITH (FORCE) right after pool.end(): absorb the terminated clients' errors
  ctx.pool.on('error', () => {});
  return ctx;
}

/** A role granted these APPROVAL permissions (and nothing else). */
export async function approvalRole(ctx: Ctx, roleCode: string, perms: PermCode[]): Promise<void> {
  await ctx.db.insertInto('role').values({ role_code: roleCode, role_name: roleCode }).onConflict((oc) => oc.column('role_code').doNothing()).execute();
  await sql`
    INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
    SELECT r.role_id, m.menu_id, p.perm_code, 'Y'
      FROM role r, menu m, unnest(${perms}::text[]) AS p(perm_code)
     WHERE r.role_code = ${roleCode} AND m.menu_code = 'APPROVAL'
    ON CONFLICT DO NOTHING`.execute(ctx.db);
}

export interface TestUser {
  userId: number;
  token: string;
}

export async function addUser(ctx: Ctx, loginId: string, roleCodes: string[], phone: string | null = null, userName = `User ${loginId}`): Promise<TestUser> {
  const row = await ctx.db
    .insertInto('users')
    .values({ login_id: loginId, password: '!', user_name: userName, status: 'ACTIVE', phone })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  for (const roleCode of roleCodes) {
    await sql`INSERT INTO user_role (user_id, role_id) SELECT ${row.user_id}, role_id FROM role WHERE role_code = ${roleCode}`.execute(ctx.db);
  }
  const token = await signAccessToken(ctx.app, { userId: row.user_id, loginId, userName, roleCodes, agentId: null });
  return { userId: row.user_id, token };
}

let orgId: number | undefined;

/** A settle_master row of a fresh agent. */
export async function settleRow(ctx: Ctx, status: 'CALCULATED' | 'CONFIRMED' | 'HOLD' = 'CALCULATED', settleMonth = '202503'): Promise<number> {
  orgId ??= (await ctx.db.insertInto('organization').values({ org_name: 'Approval Branch', org_type: 'BR' }).returning('org_id').executeTakeFirstOrThrow()).org_id;
  const agent = await ctx.db
    .insertInto('agent')
    .values({ org_id: orgId, grade_id: 1, agent_name: 'Settled Agent', tax_type: 'BUSINESS_INCOME', vat_type: 'NONE' })
    .returning('agent_id')
    .executeTakeFirstOrThrow();
  const row = await ctx.db
    .insertInto('settle_master')
    .values({ agent_id: agent.agent_id, settle_month: settleMonth, gross_amount: '1000.00', tax_amount: '33.00', net_amount: '967.00', status })
    .returning('settle_id')
    .executeTakeFirstOrThrow();
  return row.settle_id;
}

export interface Res {
  status: number;
  body: any;
}

export async function call(ctx: Ctx, method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object): Promise<Res> {
  const res = await ctx.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload }) });
  return { status: res.statusCode, body: res.json() };
}

/** The APPROVAL_DECIDED events written so far, oldest first. */
export async function decisions(ctx: Ctx) {
  const rows = await ctx.db.selectFrom('event_outbox').select(['event_type', 'target', 'subject', 'payload']).orderBy('event_id').execute();
  return rows;
}

export async function notificationsOf(ctx: Ctx, userId: number) {
  return ctx.db.selectFrom('notification').select(['noti_type', 'title', 'content', 'link_url']).where('user_id', '=', userId).orderBy('noti_id').execute();
}
