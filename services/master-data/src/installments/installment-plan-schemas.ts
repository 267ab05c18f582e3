import { z } from 'zod';
import { installmentSequence } from '@csp/domain';
import { isoTimestamp, listQuery, money, rate, zDate, zId, zSettleMonth } from '@csp/service-kit';
import { zNonNegativeMoney } from '../rule-support.js';

export const INSTALLMENT_STATUSES = ['SCHEDULED', 'PAID', 'DEFERRED', 'CANCELLED'] as const;

export const installmentPlanResp = z.object({
  planId: z.number().int(),
  contractId: z.number().int(),
  policyNo: z.string().nullable(),
  planYear: z.number().int(),
  planMonth: z.number().int(),
  /** (planYear - 1) x 12 + planMonth, the combined sequence of spec 1.2 rule 9. */
  sequence: z.number().int(),
  settleMonth: z.string(),
  ratioPercent: z.string(),
  plannedAmount: z.string(),
  status: z.enum(INSTALLMENT_STATUSES),
  statusName: z.string().nullable(),
  paidAmount: z.string().nullable(),
  paidAt: z.string().nullable(),
  paymentId: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type InstallmentPlanResp = z.input<typeof installmentPlanResp>;

export interface InstallmentPlanRow {
  plan_id: number;
  contract_id: number;
  policy_no: string | null;
  plan_year: number;
  plan_month: number;
  settle_month: string;
  ratio_percent: string;
  planned_amount: string;
  status: (typeof INSTALLMENT_STATUSES)[number];
  status_name: string | null;
  paid_amount: string | null;
  paid_at: Date | null;
  payment_id: number | null;
  created_at: Date;
  updated_at: Date;
}

export function toInstallmentPlanResp(r: InstallmentPlanRow): InstallmentPlanResp {
  return {
    planId: r.plan_id,
    contractId: r.contract_id,
    policyNo: r.policy_no,
    planYear: r.plan_year,
    planMonth: r.plan_month,
    sequence: installmentSequence(r.plan_year, r.plan_month),
    settleMonth: r.settle_month,
    ratioPercent: rate(r.ratio_percent),
    plannedAmount: money(r.planned_amount),
    status: r.status,
    statusName: r.status_name,
    paidAmount: money(r.paid_amount),
    paidAt: isoTimestamp(r.paid_at),
    paymentId: r.payment_id,
    createdAt: isoTimestamp(r.created_at),
    updatedAt: isoTimestamp(r.updated_at),
  };
}

export const installmentPlanSortable = {
  planId: 'ip.plan_id',
  contractId: 'ip.contract_id',
  settleMonth: 'ip.settle_month',
  status: 'ip.status',
} as const;

export const installmentPlanListQuery = listQuery(['planId', 'contractId', 'settleMonth', 'status'] as const, {
  contractId: zId.optional(),
  settleMonth: zSettleMonth.optional(),
});
export type InstallmentPlanFilters = Omit<z.output<typeof installmentPlanListQuery>, 'pageNum' | 'pageSize'>;

export const generatePlanReq = z.object({
  contractId: zId,
  /** Amount spread over the plan; default the contract's recruit commission (agent_amount) so far. */
  totalAmount: zNonNegativeMoney.optional(),
  /** Start of the plan and date the ratios must be valid on; default the contract date. */
  baseDate: zDate.optional(),
});
export type GeneratePlanReq = z.output<typeof generatePlanReq>;

export const generatePlanResp = z.object({
  contractId: z.number().int(),
  baseDate: z.string(),
  productCategory: z.string().nullable(),
  totalAmount: z.string(),
  firstSettleMonth: z.string(),
  /** Rows of the previous plan that were replaced. */
  replacedCount: z.number().int(),
  list: z.array(installmentPlanResp),
});

export const planStatusReq = z.object({
  status: z.enum(INSTALLMENT_STATUSES),
  /** Only with PAID; default the planned amount. */
  paidAmount: zNonNegativeMoney.nullable().optional(),
  /** Only with PAID; default now. */
  paidAt: z.iso.datetime({ offset: true }).nullable().optional(),
  /** Only with PAID. */
  paymentId: zId.nullable().optional(),
});
export type PlanStatusReq = z.output<typeof planStatusReq>;
