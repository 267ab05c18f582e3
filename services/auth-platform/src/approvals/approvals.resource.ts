import { sql } from 'kysely';
import { z } from 'zod';
import { APPROVAL_STEP_STATUSES, APPROVAL_TARGETS, APPROVE_STATUSES } from '@csp/db';
import { defineResource, f, invalid, type AgentScope, type ResourceContext } from '@csp/service-kit';

export const APPROVAL_MENU = 'APPROVAL';
export const tags = ['approvals'];

/** Spec 8: an approval line has at most 3 steps. */
export const MAX_STEPS = 3;

const roleCode = z.string().trim().min(1).max(30);
export const stepRolesSchema = z.array(roleCode).min(1, 'needs at least 1 step').max(MAX_STEPS, `has at most ${MAX_STEPS} steps`);

/** Every step's role must exist and be active. */
async function validateLine(body: Record<string, unknown>, ctx: ResourceContext): Promise<void> {
  const roles = body.stepRoles as string[] | undefined;
  if (!roles) return;
  const found = await ctx.trx
    .selectFrom('role')
    .select('role_code')
    .where('role_code', 'in', roles)
    .where('is_active', '=', true)
    .execute();
  const known = new Set(found.map((r: { role_code: string }) => r.role_code));
  const missing = roles.findIndex((r) => !known.has(r));
  if (missing >= 0) throw invalid(`stepRoles.${missing}`, `role ${roles[missing]} does not exist or is inactive`);
}

/**
 * Approval lines (`/api/approvals/lines`, APPROVAL): a code, the target type it approves and 1-3 steps,
 * each approved by a holder of a role. No DELETE permission exists on APPROVAL: a line is deactivated.
 * A request keeps a copy of its line's steps, so changing a line never changes running requests.
 */
export const approvalLineResource = defineResource({
  name: 'ApprovalLine',
  path: '/api/approvals/lines',
  table: 'approval_line',
  alias: 'l',
  menu: APPROVAL_MENU,
  tags,
  fields: {
    lineId: f.id(),
    lineCode: f.code({ max: 30 }).required().createOnly().sort().search().label('Code'),
    lineName: f.text({ max: 100 }).required().sort().search().label('Name'),
    targetType: f.enum(APPROVAL_TARGETS).required().filter().sort().label('Target type'),
    targetTypeName: f.codeName('APPROVAL_TARGET', 'targetType').label('Target type name'),
    stepRoles: f.json(stepRolesSchema).required().label('Step roles'),
    stepCount: f.computed(sql`jsonb_array_length(l.step_roles)`, 'int').label('Steps'),
    description: f.text({ max: 500 }).save().label('Description'),
    isActive: f.bool().save({ default: true }).filter().label('Active'),
    version: f.version(),
    createdAt: f.createdAt(),
    updatedAt: f.updatedAt(),
    createdBy: f.createdBy(),
    updatedBy: f.updatedBy(),
  },
  defaultSort: 'lineCode',
  validate: validateLine,
  delete: false,
  export: 'READ',
});

const requestFields = {
  requestId: f.id().label('Request'),
  targetType: f.enum(APPROVAL_TARGETS).filter().sort().label('Target type'),
  targetTypeName: f.codeName('APPROVAL_TARGET', 'targetType').label('Target type name'),
  targetId: f.ref().filter().sort().label('Target'),
  lineCode: f.code({ max: 30 }).filter().label('Approval line'),
  title: f.text({ max: 200 }).search().label('Title'),
  status: f.enum(APPROVE_STATUSES).filter().sort().label('Status'),
  statusName: f.codeName('APPROVE_STATUS', 'status').label('Status name'),
  stepCount: f.int().label('Steps'),
  currentStep: f.int().label('Active step'),
  activeRole: f
    .computed(sql`(select s.role_code from approval_step s where s.request_id = r.request_id and s.status = 'PENDING')`, 'text')
    .label('Active step role'),
  requestedBy: f.ref().filter().label('Requested by'),
  requesterName: f.computed(sql`(select u.user_name from users u where u.user_id = r.requested_by)`, 'text').label('Requester'),
  requestedAt: f.timestamp().sort().label('Requested at'),
  decidedBy: f.ref().label('Decided by'),
  decidedAt: f.timestamp().sort().label('Decided at'),
  reason: f.text({ max: 1000 }).label('Reason'),
  version: f.version(),
};

const requestList = {
  table: 'approval_request',
  alias: 'r',
  menu: APPROVAL_MENU,
  tags,
  fields: requestFields,
  defaultSort: '-requestId',
  statusField: 'status',
  dateFilter: 'requestedAt',
  create: false,
  update: false,
  delete: false,
  detail: false,
  export: false,
} as const;

/** Every approval request (`GET /api/approvals/requests`); the detail with its steps is hand-written. */
export const approvalRequestResource = defineResource({ ...requestList, name: 'ApprovalRequest', path: '/api/approvals/requests' });

/** The caller's own requests. */
const mine: AgentScope = (qb, user) => qb.where('r.requested_by', '=', user?.userId ?? 0);

/**
 * Requests waiting for the caller: the active step's role is one of the caller's active roles, the caller did
 * not ask for it and has not decided an earlier step of it (they could not approve it).
 */
const pendingForMe: AgentScope = (qb, user) => {
  const me = user?.userId ?? 0;
  return qb
    .where('r.status', '=', 'PENDING')
    .where('r.requested_by', '<>', me)
    .where(
      sql<boolean>`exists (select 1 from approval_step s
        join role ro on ro.role_code = s.role_code and ro.is_active
        join user_role ur on ur.role_id = ro.role_id and ur.user_id = ${me}
        where s.request_id = r.request_id and s.status = 'PENDING')`,
    )
    .where(sql<boolean>`not exists (select 1 from approval_step d where d.request_id = r.request_id and d.decided_by = ${me})`);
};

export const myRequestResource = defineResource({
  ...requestList,
  name: 'MyApprovalRequest',
  path: '/api/approvals/requests/mine',
  agentScope: mine,
});

export const pendingRequestResource = defineResource({
  ...requestList,
  name: 'PendingApprovalRequest',
  path: '/api/approvals/requests/pending',
  agentScope: pendingForMe,
  defaultSort: 'requestId',
});

export const stepResp = z.object({
  stepNo: z.number().int(),
  roleCode: z.string(),
  status: z.enum(APPROVAL_STEP_STATUSES),
  activatedAt: z.string().nullable(),
  decidedBy: z.number().nullable(),
  deciderName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  comment: z.string().nullable(),
});

/** The detail of a request: the list item plus its steps in order. */
export const requestDetailResp = approvalRequestResource.schemas.response.extend({ steps: z.array(stepResp) });

export const createRequestBody = z.object({
  targetType: z.enum(APPROVAL_TARGETS),
  targetId: z.coerce.number().int().positive(),
  approvalLineCode: z.string().trim().min(1).max(30),
  title: z.string().trim().min(1).max(200).optional(),
});

const text = (max: number) => z.string().trim().min(1).max(max);
export const approveBody = z.object({ comment: text(1000).optional() }).nullish();
export const rejectBody = z.object({ reason: text(1000) });
export const cancelBody = z.object({ reason: text(1000).optional() }).nullish();
