import { z } from 'zod';
import { listQuery, zId, zSettleMonth } from '@csp/service-kit';

export const successionSaveReq = z
  .object({
    contractId: zId,
    fromAgentId: zId,
    toAgentId: zId,
    effectiveMonth: zSettleMonth,
    reason: z.string().trim().max(500).nullable().optional(),
  })
  .refine((b) => b.fromAgentId !== b.toAgentId, { path: ['toAgentId'], message: 'must differ from fromAgentId' });
export type SuccessionSaveReq = z.output<typeof successionSaveReq>;

/** Optional body: PUT without a body cancels without a reason. */
export const successionCancelReq = z.object({ reason: z.string().trim().max(500).nullable().optional() }).nullish();

export const successionResp = z.object({
  successionId: z.number().int(),
  contractId: z.number().int(),
  policyNo: z.string(),
  contractAgentId: z.number().int(),
  fromAgentId: z.number().int(),
  fromAgentName: z.string(),
  toAgentId: z.number().int(),
  toAgentName: z.string(),
  effectiveMonth: z.string(),
  status: z.enum(['ACTIVE', 'CANCELLED']),
  reason: z.string().nullable(),
  cancelReason: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelledBy: z.number().int().nullable(),
  createdAt: z.string(),
  createdBy: z.number().int().nullable(),
  updatedAt: z.string(),
});
export type SuccessionResp = z.infer<typeof successionResp>;

export const SUCCESSION_SORT_FIELDS = ['successionId', 'effectiveMonth', 'policyNo', 'createdAt'] as const;
export const successionSortable = {
  successionId: 's.succession_id',
  effectiveMonth: 's.effective_month',
  policyNo: 'c.policy_no',
  createdAt: 's.created_at',
} satisfies Record<(typeof SUCCESSION_SORT_FIELDS)[number], string>;

/**
 * Filters: contractId, agentId (as from- or to-agent), policyNo (exact), effectiveMonth;
 * common: status (ACTIVE | CANCELLED), startDate/endDate on the creation day,
 * searchKeyword on policy number and agent names.
 */
export const successionListQuery = listQuery(SUCCESSION_SORT_FIELDS, {
  status: z.enum(['ACTIVE', 'CANCELLED']).optional(),
  contractId: zId.optional(),
  agentId: zId.optional(),
  policyNo: z.string().trim().max(50).optional(),
  effectiveMonth: zSettleMonth.optional(),
});
export type SuccessionListQuery = z.output<typeof successionListQuery>;
