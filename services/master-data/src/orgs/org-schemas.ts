import { z } from 'zod';
import { listQuery, zDate, zId } from '@csp/service-kit';

export const ORG_TYPES = ['HQ', 'BR', 'TM'] as const;
/** HQ > BR > TM: a child must rank strictly below its parent. */
export const ORG_RANK: Record<(typeof ORG_TYPES)[number], number> = { HQ: 3, BR: 2, TM: 1 };

/** 'true' | 'false' in a query string. */
export const zBoolQuery = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true');

export const orgSaveReq = z
  .object({
    parentOrgId: zId.nullable().optional(),
    orgName: z.string().trim().min(1).max(100),
    orgType: z.enum(ORG_TYPES),
    region: z.string().trim().max(50).nullable().optional(),
    effectiveFrom: zDate.nullable().optional(),
    effectiveTo: zDate.nullable().optional(),
    isActive: z.boolean().default(true),
    sortOrder: z.number().int().min(0).max(99999).default(0),
  })
  .refine((b) => !b.effectiveFrom || !b.effectiveTo || b.effectiveTo >= b.effectiveFrom, {
    path: ['effectiveTo'],
    message: 'must not be before effectiveFrom',
  });
export type OrgSaveReq = z.output<typeof orgSaveReq>;

const orgFields = {
  orgId: z.number().int(),
  parentOrgId: z.number().int().nullable(),
  orgName: z.string(),
  orgType: z.enum(ORG_TYPES),
  orgTypeName: z.string().nullable(),
  orgLevel: z.number().int(),
  region: z.string().nullable(),
  effectiveFrom: z.string().nullable(),
  effectiveTo: z.string().nullable(),
  isActive: z.boolean(),
  sortOrder: z.number().int(),
  /** ACTIVE agents directly in this organization */
  agentCount: z.number().int(),
};

export const orgResp = z.object({
  ...orgFields,
  parentOrgName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.number().int().nullable(),
});
export type OrgResp = z.infer<typeof orgResp>;

export interface OrgTreeNode extends z.infer<z.ZodObject<typeof orgFields>> {
  children: OrgTreeNode[];
}

export const orgTreeNode: z.ZodType<OrgTreeNode> = z.object({
  ...orgFields,
  get children() {
    return z.array(orgTreeNode);
  },
});

export const ORG_SORT_FIELDS = ['orgId', 'orgName', 'orgType', 'orgLevel', 'sortOrder', 'region'] as const;
export const orgSortable = {
  orgId: 'o.org_id',
  orgName: 'o.org_name',
  orgType: 'o.org_type',
  orgLevel: 'o.org_level',
  sortOrder: 'o.sort_order',
  region: 'o.region',
} satisfies Record<(typeof ORG_SORT_FIELDS)[number], string>;

export const orgListQuery = listQuery(ORG_SORT_FIELDS, {
  orgType: z.enum(ORG_TYPES).optional(),
  parentOrgId: zId.optional(),
  region: z.string().max(50).optional(),
  isActive: zBoolQuery.optional(),
});

export const orgTreeQuery = z.object({ activeOnly: zBoolQuery.optional() });
