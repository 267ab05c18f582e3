import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Insertable, Transaction } from 'kysely';
import { z } from 'zod';
import { AppError, invalid, today, zDate, zId, type FieldCipher, type ResourceContext } from '@csp/service-kit';
import type { Database, Db } from '@csp/db';
import { gradeById, insertHistory, lockAgent, orgById } from './agents.repository.js';
import { agentResource } from './agents.resource.js';

type AgentResp = ReturnType<typeof agentResource.toResp>;
type Body<R, Req extends keyof R, Opt extends keyof R> = { [K in Req]: NonNullable<R[K]> } & { [K in Opt]?: R[K] };
/** The parsed body of agentResource.schemas.save (AgentSaveReq of spec 2.2). */
export type AgentSave = Body<
  AgentResp,
  'agentName' | 'orgId' | 'gradeId' | 'taxType' | 'vatType',
  'licenseNo' | 'phone' | 'email' | 'bankCode' | 'residentNo' | 'accountNo' | 'joinDate' | 'businessNo'
>;
/** The parsed body of agentUpdateReq: a PATCH (absent = unchanged), see the kit README. */
export type AgentUpdate = Omit<AgentSave, 'taxType' | 'vatType'> & Partial<Pick<AgentSave, 'taxType' | 'vatType'>>;
const { agentName, orgId, gradeId } = agentResource.schemas.save.shape;
/** The update body: the resource's PATCH body (partialUpdate) with name, organization and grade still required. */
export const agentUpdateReq = agentResource.schemas.update.extend({ agentName, orgId, gradeId });

const reason = z.string().trim().max(500).nullable().optional();

export const agentMoveReq = z
  .object({
    orgId: zId.optional(),
    gradeId: zId.optional(),
    changeType: z.enum(['TRANSFER', 'PROMOTE', 'DEMOTE']),
    changeDate: zDate,
    changeReason: reason,
  })
  .refine((b) => b.orgId !== undefined || b.gradeId !== undefined, { path: ['orgId'], message: 'orgId or gradeId is required' });
export const agentRetireReq = z.object({ leaveDate: zDate, reason });

export interface AgentWriteContext {
  db: Db;
  cipher: FieldCipher;
  userId: number | null;
  log: FastifyBaseLogger;
  /** The write request (its write-only inputs were set aside by the kit's writeOnlyGuard). */
  request: FastifyRequest;
}

/** What the resource's `toInsert/toUpdate` need inside the write's transaction. */
function resourceContext(ctx: AgentWriteContext, trx: Transaction<Database>): ResourceContext {
  return { user: ctx.request.user, userId: ctx.userId, request: ctx.request, cipher: ctx.cipher, trx };
}

/** The organization and grade an agent is assigned to must exist and be active; returns the grade. */
async function assertAssignable(db: Db, orgId: number | undefined, gradeId: number | undefined) {
  if (orgId !== undefined) {
    const org = await orgById(db, orgId);
    if (!org) throw invalid('orgId', 'organization not found');
    if (!org.is_active) throw invalid('orgId', 'organization is inactive');
  }
  if (gradeId === undefined) return undefined;
  const grade = await gradeById(db, gradeId);
  if (!grade) throw invalid('gradeId', 'grade not found');
  if (!grade.is_active) throw invalid('gradeId', 'grade is inactive');
  return grade;
}

function warnMissingBusinessNo(log: FastifyBaseLogger, agentId: number, agent: { tax_type: string | null; business_no: string | null }) {
  if (agent.tax_type === 'BUSINESS_INCOME' && !agent.business_no) {
    log.warn({ agentId }, 'business-income agent saved without a business number');
  }
}

/** A new ACTIVE agent and its JOIN history row (dated the join date, else today). */
export async function createAgent(ctx: AgentWriteContext, body: AgentSave) {
  const result = await ctx.db.transaction().execute(async (trx) => {
    await assertAssignable(trx, body.orgId, body.gradeId);
    const agent = await trx
      .insertInto('agent')
      .values({
        // the saved fields, write-only ones by the kit's rule (a masked-looking value is E411, '' stores nothing)
        ...((await agentResource.toInsert(body, resourceContext(ctx, trx))) as Insertable<Database['agent']>),
        status: 'ACTIVE',
        created_by: ctx.userId,
        updated_by: ctx.userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const history = await insertHistory(trx, {
      agent_id: agent.agent_id,
      to_org_id: agent.org_id,
      to_grade_id: agent.grade_id,
      change_type: 'JOIN',
      change_date: body.joinDate ?? today(),
      created_by: ctx.userId,
    });
    return { agent, history };
  });
  warnMissingBusinessNo(ctx.log, result.agent.agent_id, result.agent);
  return result;
}

/**
 * Update, a PATCH: a field absent from the body keeps its value; the masked/encrypted ones follow
 * the kit's write-only rule (null or the masked text shown = unchanged, '' = cleared). An organization or grade
 * change also writes a history row dated today: PROMOTE/DEMOTE by grade level, else TRANSFER.
 */
export async function updateAgent(ctx: AgentWriteContext, agentId: number, body: AgentUpdate) {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockAgent(trx, agentId);
    const orgChanged = before.org_id !== body.orgId;
    const gradeChanged = before.grade_id !== body.gradeId;
    await assertAssignable(trx, orgChanged ? body.orgId : undefined, gradeChanged ? body.gradeId : undefined);
    const after = await trx
      .updateTable('agent')
      .set({
        // the given fields only (partialUpdate), write-only ones by the kit's rule
        ...(await agentResource.toUpdate(body, resourceContext(ctx, trx), before)),
        version: before.version + 1,
        updated_at: new Date(),
        updated_by: ctx.userId,
      })
      .where('agent_id', '=', agentId)
      .returningAll()
      .executeTakeFirstOrThrow();

    let history;
    if (orgChanged || gradeChanged) {
      let changeType: 'TRANSFER' | 'PROMOTE' | 'DEMOTE' = 'TRANSFER';
      if (gradeChanged) {
        const from = await gradeById(trx, before.grade_id);
        const to = await gradeById(trx, body.gradeId);
        changeType = (to?.grade_level ?? 0) >= (from?.grade_level ?? 0) ? 'PROMOTE' : 'DEMOTE';
      }
      history = await insertHistory(trx, {
        agent_id: agentId,
        from_org_id: before.org_id,
        to_org_id: after.org_id,
        from_grade_id: before.grade_id,
        to_grade_id: after.grade_id,
        change_type: changeType,
        change_date: today(),
        change_reason: 'Changed through agent update',
        created_by: ctx.userId,
      });
    }
    return { before, after, history };
  });
  warnMissingBusinessNo(ctx.log, agentId, result.after);
  return result;
}

/**
 * Organization/grade move. TRANSFER needs a different orgId; PROMOTE/DEMOTE need a gradeId of a
 * higher/lower level (an orgId may come along). A LEAVE agent cannot be moved.
 */
export async function moveAgent(ctx: AgentWriteContext, agentId: number, body: z.output<typeof agentMoveReq>) {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockAgent(trx, agentId);
    if (before.status === 'LEAVE') throw new AppError('BAD_REQUEST', 'A retired agent cannot be moved');
    const toOrgId = body.orgId ?? before.org_id;
    const toGradeId = body.gradeId ?? before.grade_id;
    if (body.changeType === 'TRANSFER' && toOrgId === before.org_id) {
      throw invalid('orgId', 'a TRANSFER needs an organization different from the current one');
    }
    const newGrade = await assertAssignable(trx, toOrgId !== before.org_id ? toOrgId : undefined, body.gradeId);
    if (body.changeType !== 'TRANSFER') {
      if (!newGrade) throw invalid('gradeId', `a ${body.changeType} needs a gradeId`);
      const current = (await gradeById(trx, before.grade_id))?.grade_level ?? 0;
      if (body.changeType === 'PROMOTE' && !(newGrade.grade_level > current)) throw invalid('gradeId', 'a PROMOTE needs a higher grade');
      if (body.changeType === 'DEMOTE' && !(newGrade.grade_level < current)) throw invalid('gradeId', 'a DEMOTE needs a lower grade');
    }
    const after = await trx
      .updateTable('agent')
      .set({ org_id: toOrgId, grade_id: toGradeId, version: before.version + 1, updated_at: new Date(), updated_by: ctx.userId })
      .where('agent_id', '=', agentId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const history = await insertHistory(trx, {
      agent_id: agentId,
      from_org_id: before.org_id,
      to_org_id: toOrgId,
      from_grade_id: before.grade_id,
      to_grade_id: toGradeId,
      change_type: body.changeType,
      change_date: body.changeDate,
      change_reason: body.changeReason ?? null,
      created_by: ctx.userId,
    });
    return { before, after, history };
  });
}

/** Retirement: status LEAVE, leave_date, and a LEAVE history row (organization and grade unchanged). */
export async function retireAgent(ctx: AgentWriteContext, agentId: number, body: z.output<typeof agentRetireReq>) {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockAgent(trx, agentId);
    if (before.status === 'LEAVE') throw new AppError('BAD_REQUEST', 'The agent has already retired');
    if (before.join_date && body.leaveDate < before.join_date) throw invalid('leaveDate', 'must not be before the join date');
    const after = await trx
      .updateTable('agent')
      .set({ status: 'LEAVE', leave_date: body.leaveDate, version: before.version + 1, updated_at: new Date(), updated_by: ctx.userId })
      .where('agent_id', '=', agentId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const history = await insertHistory(trx, {
      agent_id: agentId,
      from_org_id: before.org_id,
      to_org_id: before.org_id,
      from_grade_id: before.grade_id,
      to_grade_id: before.grade_id,
      change_type: 'LEAVE',
      change_date: body.leaveDate,
      change_reason: body.reason ?? null,
      created_by: ctx.userId,
    });
    return { before, after, history };
  });
}
