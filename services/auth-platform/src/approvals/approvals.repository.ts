import { sql, type Kysely } from 'kysely';
import type { ApprovalTargetType, Database } from '@csp/db';

type Db = Kysely<Database>;

export function findLine(db: Db, lineCode: string) {
  return db
    .selectFrom('approval_line')
    .select(['line_id', 'line_code', 'target_type', 'step_roles', 'is_active'])
    .where('line_code', '=', lineCode)
    .executeTakeFirst();
}

export function lockRequest(db: Db, requestId: number) {
  return db.selectFrom('approval_request').selectAll().where('request_id', '=', requestId).forUpdate().executeTakeFirst();
}

export function openRequestOf(db: Db, targetType: ApprovalTargetType, targetId: number) {
  return db
    .selectFrom('approval_request')
    .select('request_id')
    .where('target_type', '=', targetType)
    .where('target_id', '=', targetId)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
}

export function stepsOf(db: Db, requestId: number) {
  return db
    .selectFrom('approval_step as s')
    .leftJoin('users as u', 'u.user_id', 's.decided_by')
    .select(['s.step_no', 's.role_code', 's.status', 's.activated_at', 's.decided_by', 'u.user_name as decider_name', 's.decided_at', 's.comment'])
    .where('s.request_id', '=', requestId)
    .orderBy('s.step_no')
    .execute();
}

export type StepRow = Awaited<ReturnType<typeof stepsOf>>[number];

/** The caller's active roles, from the database (a token's role list may be older). */
export async function activeRolesOf(db: Db, userId: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('user_role as ur')
    .innerJoin('role as r', 'r.role_id', 'ur.role_id')
    .select('r.role_code')
    .where('ur.user_id', '=', userId)
    .where('r.is_active', '=', true)
    .execute();
  return new Set(rows.map((r) => r.role_code));
}

/**
 * ACTIVE users holding an active role, by user id, without the excluded ones (the requester and those who
 * decided an earlier step: they cannot approve this step).
 */
export function roleHolders(db: Db, roleCode: string, exclude: readonly number[]) {
  return db
    .selectFrom('users as u')
    .innerJoin('user_role as ur', 'ur.user_id', 'u.user_id')
    .innerJoin('role as r', 'r.role_id', 'ur.role_id')
    .select(['u.user_id', 'u.user_name', 'u.phone'])
    .where('r.role_code', '=', roleCode)
    .where('r.is_active', '=', true)
    .where('u.status', '=', 'ACTIVE')
    .$if(exclude.length > 0, (qb) => qb.where('u.user_id', 'not in', exclude))
    .orderBy('u.user_id')
    .execute();
}

export async function insertNotifications(
  db: Db,
  userIds: readonly number[],
  note: { title: string; content: string; linkUrl: string },
): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('notification')
    .values(
      userIds.map((userId) => ({
        user_id: userId,
        noti_type: 'APPROVAL',
        title: note.title.slice(0, 200),
        content: note.content,
        link_url: note.linkUrl,
      })),
    )
    .execute();
}

/**
 * The state of an approval target, read from its owner's table as the event contract
 * (@csp/events APPROVAL_TARGET_STATES) allows; undefined when the row does not exist.
 */
export async function targetStatus(db: Db, targetType: ApprovalTargetType, targetId: number): Promise<string | undefined> {
  switch (targetType) {
    case 'WITHDRAW':
      return (await db.selectFrom('withdraw_request').select('status').where('withdraw_id', '=', targetId).executeTakeFirst())?.status;
    case 'SETTLE':
      return (await db.selectFrom('settle_master').select('status').where('settle_id', '=', targetId).executeTakeFirst())?.status;
    case 'INCENTIVE':
      return (await db.selectFrom('incentive_result').select('status').where('result_id', '=', targetId).executeTakeFirst())?.status;
    case 'SIMULATION':
      return (await db.selectFrom('simulation').select('status').where('simulation_id', '=', targetId).executeTakeFirst())?.status;
    case 'DISPUTE':
      return (await db.selectFrom('commission_dispute').select('status').where('dispute_id', '=', targetId).executeTakeFirst())?.status;
  }
}

export function now() {
  return sql<Date>`now()`;
}
