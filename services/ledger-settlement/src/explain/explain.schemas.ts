import { z } from 'zod';

const basis = z
  .unknown()
  .describe('calc_basis of the stored row; recruit/maintain rows in their full form (shapes in STEPS.md)');

export const commissionLine = z.object({
  ledgerId: z.number().int(),
  contractId: z.number().int(),
  policyNo: z.string().nullable(),
  productCode: z.string().nullable(),
  commissionYear: z.number().int(),
  premium: z.string(),
  companyRate: z.string(),
  companyAmount: z.string(),
  payoutRate: z.string(),
  agentAmount: z.string(),
  status: z.string(),
  basis,
});

export const maintainLine = commissionLine.extend({
  /** Present when the row reached this agent through a contract succession. */
  successionFrom: z
    .object({
      successionId: z.number().int().nullable(),
      fromAgentId: z.number().int(),
      fromAgentName: z.string().nullable(),
      effectiveMonth: z.string().nullable(),
    })
    .nullable(),
});

export const overrideLine = z.object({
  osId: z.number().int(),
  fromAgentId: z.number().int(),
  fromAgentName: z.string().nullable(),
  baseAmount: z.string(),
  overridePct: z.string(),
  overrideAmount: z.string(),
  capped: z.boolean(),
  capAmount: z.string().nullable(),
  basis,
});

export const exceptionLine = z.object({
  ledgerId: z.number().int(),
  exceptionCode: z.string(),
  exceptionName: z.string().nullable(),
  direction: z.enum(['PLUS', 'MINUS']),
  amount: z.string(),
  reason: z.string().nullable(),
  approveStatus: z.string(),
  approvedAt: z.string().nullable(),
  source: z.string(),
  basis,
});

export const excludedLine = exceptionLine.extend({
  /** Why the row does not count in this month's settlement. */
  excludedBecause: z.string(),
});

export const chargebackLine = z.object({
  cbId: z.number().int(),
  contractId: z.number().int(),
  policyNo: z.string().nullable(),
  lapseMonth: z.string(),
  installmentSeq: z.number().int(),
  installmentTotal: z.number().int(),
  baseAmount: z.string(),
  cbRate: z.string(),
  cbAmount: z.string(),
  basis,
});

/** An approved settlement correction booked into this month, with where it comes from. */
export const correctionLine = z.object({
  correctionId: z.number().int(),
  correctionType: z.string(),
  originalMonth: z.string(),
  amount: z.string().describe('signed'),
  reason: z.string(),
  sourceTable: z.string().nullable(),
  sourceId: z.number().int().nullable(),
  disputeId: z.number().int().nullable(),
  requestedBy: z.number().int().nullable(),
  approvedBy: z.number().int().nullable(),
  approvedAt: z.string().nullable(),
  basis,
});

/** A collection, renewal, reinstatement, persistency or appointment row (other_commission_ledger). */
export const otherLine = z.object({
  ledgerId: z.number().int(),
  commissionType: z.string(),
  typeName: z.string().nullable(),
  contractId: z.number().int().nullable(),
  policyNo: z.string().nullable(),
  productCode: z.string().nullable(),
  commissionYear: z.number().int().nullable(),
  milestoneMonth: z.number().int().nullable().describe('persistency: 13 or 25; appointment: month since join'),
  baseAmount: z.string(),
  ratePct: z.string(),
  agentAmount: z.string(),
  ruleId: z.number().int().nullable(),
  ruleVersion: z.number().int().nullable(),
  sourceId: z.number().int().nullable().describe('renewal: the endorsement'),
  status: z.string(),
  /** commission_type.is_active and gross_yn = 'Y': part of other_total. */
  countedInGross: z.boolean(),
  basis,
});

/** An APPROVED incentive result paid in the month. */
export const incentiveLine = z.object({
  resultId: z.number().int(),
  programId: z.number().int(),
  programCode: z.string().nullable(),
  programName: z.string().nullable(),
  measuredValue: z.string(),
  tierNo: z.number().int(),
  amount: z.string(),
  approvedAt: z.string().nullable(),
  countedInGross: z.boolean(),
  basis,
});

/** A commission-master adjustment of the month (signed, with its reason). */
export const adjustmentLine = z.object({
  cmId: z.number().int(),
  commissionType: z.string(),
  typeName: z.string().nullable(),
  computedAmount: z.string(),
  adjustmentAmount: z.string(),
  adjustReason: z.string().nullable(),
  adjustedBy: z.number().int().nullable(),
  adjustedAt: z.string().nullable(),
  countedInGross: z.boolean(),
});

export const explainTotals = z.object({
  recruit: z.string(),
  maintain: z.string(),
  override: z.string(),
  exceptionPlus: z.string(),
  exceptionMinus: z.string(),
  chargeback: z.string(),
  gross: z.string(),
  taxRate: z.string(),
  tax: z.string(),
  net: z.string(),
  /** Approved corrections booked into the month (settle_master.correction_total); part of gross, 0.00 when none. */
  correction: z.string(),
  /** Other commission types, approved incentives and adjustments (settle_master.other_total); part of gross, 0.00 when none. */
  other: z.string(),
});

export const storedFigures = explainTotals.omit({ taxRate: true });

export const explainResp = z.object({
  settleId: z.number().int(),
  agentId: z.number().int(),
  agentName: z.string().nullable(),
  settleMonth: z.string(),
  status: z.string(),
  sections: z.object({
    recruit: z.array(commissionLine),
    maintain: z.array(maintainLine),
    override: z.array(overrideLine),
    exceptionPlus: z.array(exceptionLine),
    exceptionMinus: z.array(exceptionLine),
    chargeback: z.array(chargebackLine),
    excluded: z.array(excludedLine),
    correction: z.array(correctionLine),
    collection: z.array(otherLine),
    renewal: z.array(otherLine),
    reinstatement: z.array(otherLine),
    persistency: z.array(otherLine),
    appointment: z.array(otherLine),
    incentive: z.array(incentiveLine),
    adjustment: z.array(adjustmentLine),
  }),
  /** Recomputed from the lines with @csp/domain (exact decimals). */
  totals: explainTotals,
  /** The figures stored on the settle row. */
  stored: storedFigures,
  formula: z.string(),
  /** Every total equals the stored settle row. */
  reconciles: z.boolean(),
  /** Fields where they differ (empty when `reconciles`). */
  mismatches: z.array(z.object({ field: z.string(), explained: z.string(), stored: z.string() })),
});

export type ExplainResp = z.input<typeof explainResp>;
