import type { FastifyBaseLogger } from 'fastify';
import {
  AppError,
  invalid,
  maskAccountNo,
  maskEmail,
  maskPhone,
  maskResidentNo,
  money,
  notFound,
  type FieldCipher,
} from '@csp/service-kit';
import type { MdDb, MdExecutor } from '../people-db.js';
import { today } from '../people-db.js';
import { activeOrg, gradeById, insertHistory, type AgentRow } from './agent-repository.js';
import type { AgentDetailResp, AgentMoveReq, AgentResp, AgentRetireReq, AgentSaveReq } from './agent-schemas.js';

/** Decrypts and masks; a value that does not decrypt is never shown (not even masked). */
export function revealMasked(cipher: FieldCipher, stored: string | null, mask: (plain: string) => string): string | null {
  if (stored === null || stored === '') return null;
  try {
    return mask(cipher.decrypt(stored));
  } catch {
    return '********';
  }
}

export function toAgentResp(row: AgentRow): AgentResp {
  return {
    agentId: row.agent_id,
    orgId: row.org_id,
    gradeId: row.grade_id,
    agentName: row.agent_name,
    status: row.status,
    statusName: row.status_name,
    orgName: row.org_name,
    gradeName: row.grade_name,
    contractCount: row.contract_count,
    totalAmt: money(row.total_amt),
    phone: maskPhone(row.phone) ?? null,
    licenseNo: row.license_no,
    joinDate: row.join_date,
    taxTypeName: row.tax_type_name,
    vatTypeName: row.vat_type_name,
  };
}

export function toAgentDetailResp(row: AgentRow, cipher: FieldCipher): AgentDetailResp {
  return {
    ...toAgentResp(row),
    email: maskEmail(row.email) ?? null,
    bankCode: row.bank_code,
    accountNo: revealMasked(cipher, row.account_no, maskAccountNo),
    residentNo: revealMasked(cipher, row.resident_no, maskResidentNo),
    taxType: row.tax_type,
    vatType: row.vat_type,
    businessNo: row.business_no,
    leaveDate: row.leave_date,
  };
}

/** Ciphertext for a write: undefined = leave as is, null/'' = clear. */
function sealed(cipher: FieldCipher, plain: string | null | undefined): string | null | undefined {
  if (plain === undefined) return undefined;
  return plain === null || plain === '' ? null : cipher.encrypt(plain);
}

async function assertAssignable(db: MdExecutor, orgId: number | undefined, gradeId: number | undefined) {
  if (orgId !== undefined) {
    const org = await activeOrg(db, orgId);
    if (!org) throw invalid('orgId', 'organization not found');
    if (!org.is_active) throw invalid('orgId', 'organization is inactive');
  }
  if (gradeId !== undefined) {
    const grade = await gradeById(db, gradeId);
    if (!grade) throw invalid('gradeId', 'grade not found');
    if (!grade.is_active) throw invalid('gradeId', 'grade is inactive');
    return grade;
  }
  return undefined;
}

function warnMissingBusinessNo(log: FastifyBaseLogger, agentId: number, body: AgentSaveReq) {
  if (body.taxType === 'BUSINESS_INCOME' && !body.businessNo) {
    log.warn({ agentId }, 'business-income agent saved without a business number');
  }
}

export interface AgentWriteContext {
  db: MdDb;
  cipher: FieldCipher;
  userId: number | null;
  log: FastifyBaseLogger;
}

export async function createAgent(ctx: AgentWriteContext, body: AgentSaveReq) {
  const result = await ctx.db.transaction().execute(async (trx) => {
    await assertAssignable(trx, body.orgId, body.gradeId);
    const agent = await trx
      .insertInto('agent')
      .values({
        org_id: body.orgId,
        grade_id: body.gradeId,
        agent_name: body.agentName,
        resident_no: sealed(ctx.cipher, body.residentNo) ?? null,
        license_no: body.licenseNo ?? null,
        phone: body.phone ?? null,
        email: body.email ?? null,
        bank_code: body.bankCode ?? null,
        account_no: sealed(ctx.cipher, body.accountNo) ?? null,
        status: 'ACTIVE',
        join_date: body.joinDate ?? null,
        tax_type: body.taxType,
        business_no: body.businessNo ?? null,
        vat_type: body.vatType,
        created_by: ctx.userId,
        updated_by: ctx.userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const history = await insertHistory(trx, {
      agent_id: agent.agent_id,
      from_org_id: null,
      to_org_id: agent.org_id,
      from_grade_id: null,
      to_grade_id: agent.grade_id,
      change_type: 'JOIN',
      change_date: body.joinDate ?? today(),
      change_reason: null,
      created_by: ctx.userId,
    });
    return { agent, history };
  });
  warnMissingBusinessNo(ctx.log, result.agent.agent_id, body);
  return result;
}

async function lockAgent(trx: MdExecutor, agentId: number) {
  const row = await trx.selectFrom('agent').selectAll().where('agent_id', '=', agentId).forUpdate().executeTakeFirst();
  if (!row) throw notFound(`Agent ${agentId}`);
  return row;
}

/**
 * Full update. Masked fields absent from the body stay as they are. An organization or grade
 * change also writes a history row dated today: PROMOTE/DEMOTE by grade level, else TRANSFER.
 */
export async function updateAgent(ctx: AgentWriteContext, agentId: number, body: AgentSaveReq) {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const before = await lockAgent(trx, agentId);
    const orgChanged = before.org_id !== body.orgId;
    const gradeChanged = before.grade_id !== body.gradeId;
    await assertAssignable(trx, orgChanged ? body.orgId : undefined, gradeChanged ? body.gradeId : undefined);

    const residentNo = sealed(ctx.cipher, body.residentNo);
    const accountNo = sealed(ctx.cipher, body.accountNo);
    const after = await trx
      .updateTable('agent')
      .set({
        org_id: body.orgId,
        grade_id: body.gradeId,
        agent_name: body.agentName,
        license_no: body.licenseNo ?? null,
        bank_code: body.bankCode ?? null,
        join_date: body.joinDate ?? null,
        tax_type: body.taxType,
        business_no: body.businessNo ?? null,
        vat_type: body.vatType,
        ...(body.phone !== undefined ? { phone: body.phone } : {}),
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(residentNo !== undefined ? { resident_no: residentNo } : {}),
        ...(accountNo !== undefined ? { account_no: accountNo } : {}),
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
        const [from, to] = await Promise.all([gradeById(trx, before.grade_id), gradeById(trx, body.gradeId)]);
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
  warnMissingBusinessNo(ctx.log, agentId, body);
  return result;
}

/**
 * Organization/grade move. TRANSFER needs a different orgId; PROMOTE/DEMOTE need a gradeId of a
 * higher/lower level (an orgId may come along). A LEAVE agent cannot be moved.
 */
export async function moveAgent(ctx: AgentWriteContext, agentId: number, body: AgentMoveReq) {
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
      const current = await gradeById(trx, before.grade_id);
      const up = newGrade.grade_level > (current?.grade_level ?? 0);
      const down = newGrade.grade_level < (current?.grade_level ?? 0);
      if (body.changeType === 'PROMOTE' && !up) throw invalid('gradeId', 'a PROMOTE needs a higher grade');
      if (body.changeType === 'DEMOTE' && !down) throw invalid('gradeId', 'a DEMOTE needs a lower grade');
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
export async function retireAgent(ctx: AgentWriteContext, agentId: number, body: AgentRetireReq) {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await lockAgent(trx, agentId);
    if (before.status === 'LEAVE') throw new AppError('BAD_REQUEST', 'The agent has already retired');
    if (before.join_date && body.leaveDate < before.join_date) {
      throw invalid('leaveDate', 'must not be before the join date');
    }
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
