import { z } from 'zod';
import { listQuery, zDate, zId } from '@csp/service-kit';

export const AGENT_STATUSES = ['ACTIVE', 'LEAVE', 'SUSPEND'] as const;
export const TAX_TYPES = ['BUSINESS_INCOME', 'OTHER_INCOME'] as const;
export const VAT_TYPES = ['NONE', 'EXEMPT', 'TAXABLE'] as const;
export const MOVE_TYPES = ['TRANSFER', 'PROMOTE', 'DEMOTE'] as const;
export const CHANGE_TYPES = ['TRANSFER', 'PROMOTE', 'DEMOTE', 'JOIN', 'LEAVE'] as const;

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/**
 * AgentSaveReq (spec 2.2). The masked fields (phone, email, residentNo, accountNo) come back
 * masked in every response, so an update leaves them unchanged when they are absent; `null`
 * clears them. Their formats exclude '*', so a masked value echoed back is rejected (E411).
 */
export const agentSaveReq = z.object({
  agentName: z.string().trim().min(1).max(100),
  orgId: zId,
  gradeId: zId,
  licenseNo: optionalText(30),
  phone: z.string().trim().regex(/^\d{2,3}-?\d{3,4}-?\d{4}$/, 'must be a phone number like 010-1234-5678').nullable().optional(),
  email: z.string().trim().max(200).pipe(z.email({ error: 'must be an e-mail address' })).nullable().optional(),
  bankCode: optionalText(10),
  residentNo: z.string().trim().regex(/^\d{6}-?\d{7}$/, 'must be a resident number like 900101-1234567').nullable().optional(),
  accountNo: z.string().trim().regex(/^\d[\d-]{5,29}$/, 'must be an account number (digits and dashes)').nullable().optional(),
  joinDate: zDate.nullable().optional(),
  taxType: z.enum(TAX_TYPES).default('BUSINESS_INCOME'),
  businessNo: optionalText(20),
  vatType: z.enum(VAT_TYPES).default('NONE'),
});
export type AgentSaveReq = z.output<typeof agentSaveReq>;

/** AgentResp, exactly the fields of spec 2.2. totalAmt = sum of premium over all the agent's contracts. */
export const agentResp = z.object({
  agentId: z.number().int(),
  orgId: z.number().int(),
  gradeId: z.number().int(),
  agentName: z.string(),
  status: z.enum(AGENT_STATUSES),
  statusName: z.string().nullable(),
  orgName: z.string(),
  gradeName: z.string(),
  contractCount: z.number().int(),
  totalAmt: z.string(),
  phone: z.string().nullable(),
  licenseNo: z.string().nullable(),
  joinDate: z.string().nullable(),
  taxTypeName: z.string().nullable(),
  vatTypeName: z.string().nullable(),
});
export type AgentResp = z.infer<typeof agentResp>;

/** Detail: AgentResp plus the remaining agent fields, personal data masked. */
export const agentDetailResp = agentResp.extend({
  email: z.string().nullable(),
  bankCode: z.string().nullable(),
  accountNo: z.string().nullable(),
  residentNo: z.string().nullable(),
  taxType: z.enum(TAX_TYPES),
  vatType: z.enum(VAT_TYPES),
  businessNo: z.string().nullable(),
  leaveDate: z.string().nullable(),
});
export type AgentDetailResp = z.infer<typeof agentDetailResp>;

export const AGENT_SORT_FIELDS = [
  'agentId',
  'agentName',
  'joinDate',
  'status',
  'licenseNo',
  'orgName',
  'gradeName',
  'contractCount',
  'totalAmt',
] as const;

export const agentSortable = {
  agentId: 'a.agent_id',
  agentName: 'a.agent_name',
  joinDate: 'a.join_date',
  status: 'a.status',
  licenseNo: 'a.license_no',
  orgName: 'o.org_name',
  gradeName: 'g.grade_level',
  contractCount: 'cs.contract_count',
  totalAmt: 'cs.total_amt',
} satisfies Record<(typeof AGENT_SORT_FIELDS)[number], string>;

/**
 * AgentSearchParam: the common parameters plus orgId (the organization and everything below
 * it), gradeId and licenseNo (exact). searchType: agentName | licenseNo | phone (all three
 * without searchType); startDate/endDate: join date; status: agent status.
 */
export const agentListQuery = listQuery(AGENT_SORT_FIELDS, {
  searchType: z.enum(['agentName', 'licenseNo', 'phone']).optional(),
  status: z.enum(AGENT_STATUSES).optional(),
  orgId: zId.optional(),
  gradeId: zId.optional(),
  licenseNo: z.string().trim().max(30).optional(),
});
export type AgentListQuery = z.output<typeof agentListQuery>;

export const agentMoveReq = z
  .object({
    orgId: zId.optional(),
    gradeId: zId.optional(),
    changeType: z.enum(MOVE_TYPES),
    changeDate: zDate,
    changeReason: optionalText(500),
  })
  .refine((b) => b.orgId !== undefined || b.gradeId !== undefined, {
    path: ['orgId'],
    message: 'orgId or gradeId is required',
  });
export type AgentMoveReq = z.output<typeof agentMoveReq>;

export const agentRetireReq = z.object({
  leaveDate: zDate,
  reason: optionalText(500),
});
export type AgentRetireReq = z.output<typeof agentRetireReq>;

/** AgentOrgHistoryResp: history fields plus display names; no audit fields. */
export const agentHistoryResp = z.object({
  historyId: z.number().int(),
  agentId: z.number().int(),
  agentName: z.string(),
  fromOrgId: z.number().int().nullable(),
  fromOrgName: z.string().nullable(),
  toOrgId: z.number().int().nullable(),
  toOrgName: z.string().nullable(),
  fromGradeId: z.number().int().nullable(),
  fromGradeName: z.string().nullable(),
  toGradeId: z.number().int().nullable(),
  toGradeName: z.string().nullable(),
  changeType: z.enum(CHANGE_TYPES),
  changeTypeName: z.string().nullable(),
  changeDate: z.string(),
  changeReason: z.string().nullable(),
});
export type AgentHistoryResp = z.infer<typeof agentHistoryResp>;
