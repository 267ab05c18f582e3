import {
  calcCommissionFormatted,
  formatMoney,
  lookupCommissionRate,
  lookupPayoutRate,
  reconcileLedgerMoney,
  type SuccessionRow,
} from '@csp/domain';
import { payoutKey, type Pricing } from './pricing.js';

export type LedgerKind = 'RECRUIT' | 'MAINTAIN';

/** The contract columns steps 4 and 5 read (explicit list). */
export interface ContractRow {
  contract_id: number;
  agent_id: number;
  product_id: number;
  policy_no: string;
  premium: string;
  pay_cycle: string;
  status: string;
  contract_date: string | null;
}

/** One recruit/maintain ledger row as written (numeric values as strings). */
export interface LedgerRow {
  contractId: number;
  agentId: number;
  policyNo: string;
  companyCode: string | null;
  productCode: string | null;
  insuranceType: string | null;
  commissionYear: number;
  premium: string;
  payMethod: string;
  companyRate: string;
  companyAmount: string;
  payoutRate: string;
  agentAmount: string;
  taxAmount: string;
  reconcileStatus: string;
  reconcileDiff: string | null;
  calcBasis: string;
}

export interface ExistingLedgerRow {
  contract_id: number;
  commission_year: number;
  agent_id: number;
  status: string;
  raw_id: number | null;
  reported_company_amount: string | null;
}

export function ledgerKey(contractId: number, commissionYear: number): string {
  return `${contractId}:${commissionYear}`;
}

export interface ComputeInput {
  kind: LedgerKind;
  contract: ContractRow;
  commissionYear: number;
  /** The agent paid (successor for a maintain row with an effective succession). */
  agentId: number;
  succession: SuccessionRow | undefined;
  pricing: Pricing;
  runId: number;
  today: string;
  /** Insurer figure already on the row (transformData). */
  reported: string | null;
}

/**
 * Rules 2/3 (+10) for one contract: rates as of the contract date, amounts by the domain.
 * undefined when the paid agent does not exist (rule 2: no ledger row).
 */
export function computeLedgerRow(input: ComputeInput): LedgerRow | undefined {
  const { contract, pricing, commissionYear } = input;
  const agent = pricing.agents.get(input.agentId);
  if (!agent) return undefined;
  const product = pricing.products.get(contract.product_id);
  const insuranceType = product?.insuranceType ?? null;
  const rateDate = contract.contract_date ?? input.today;
  // numeric(15,2) arrives from pg as a canonical 2-place string
  const premium = contract.premium;
  const rate = lookupCommissionRate(pricing.ratesByProduct.get(contract.product_id) ?? [], {
    productId: contract.product_id,
    commissionYear,
    date: rateDate,
    payMethod: contract.pay_cycle,
    premium: contract.premium,
  });
  const payout =
    insuranceType === null
      ? undefined
      : lookupPayoutRate(pricing.payoutsByGradeType.get(payoutKey(agent.gradeId, insuranceType)) ?? [], {
          gradeId: agent.gradeId,
          insuranceType,
          commissionYear,
          date: rateDate,
          payMethod: contract.pay_cycle,
        });
  const amounts = calcCommissionFormatted({
    premium: contract.premium,
    companyRate: rate?.ratePct ?? null,
    payoutRate: payout?.payoutPct ?? null,
  });
  const threshold = pricing.config.reconThreshold;
  const recon = reconcileLedgerMoney(input.reported, amounts.companyAmount, threshold);
  // Compact: only what the row's columns do not hold; the explain API expands it back (STEPS.md).
  const basis = {
    rateDate,
    gradeId: agent.gradeId,
    contractAgentId: contract.agent_id,
    companyRate: rate?.basis ?? null,
    payoutRule: payout?.basis ?? null,
    ...(input.succession && {
      succession: {
        successionId: input.succession.successionId,
        fromAgentId: input.succession.fromAgentId,
        toAgentId: input.succession.toAgentId,
        effectiveMonth: input.succession.effectiveMonth,
      },
    }),
    ...(recon.diff !== null && {
      reconcile: { reported: formatMoney(input.reported!), threshold, diff: recon.diff },
    }),
  };
  return {
    contractId: contract.contract_id,
    agentId: input.agentId,
    policyNo: contract.policy_no,
    companyCode: product?.companyCode ?? null,
    productCode: product?.productCode ?? null,
    insuranceType,
    commissionYear,
    premium,
    payMethod: contract.pay_cycle,
    companyRate: rate?.ratePctText ?? '0',
    companyAmount: amounts.companyAmount,
    payoutRate: payout?.payoutPctText ?? '0',
    agentAmount: amounts.agentAmount,
    taxAmount: amounts.tax,
    reconcileStatus: recon.status,
    reconcileDiff: recon.diff,
    calcBasis: JSON.stringify(basis),
  };
}

/** A stale row kept for its insurer figures: system figures 0, reconciled against 0. */
export function staleReconcile(kind: LedgerKind, row: ExistingLedgerRow, runId: number, threshold: string) {
  const recon = reconcileLedgerMoney(row.reported_company_amount, '0', threshold);
  return {
    contractId: row.contract_id,
    commissionYear: row.commission_year,
    reconcileStatus: recon.status,
    reconcileDiff: recon.diff,
    calcBasis: JSON.stringify({
      step: kind === 'RECRUIT' ? 'calcRecruit' : 'calcMaintain',
      runId,
      stale: true,
      reason: 'not eligible in this month',
      reconcile:
        recon.diff === null
          ? null
          : { reported: formatMoney(row.reported_company_amount!), threshold, diff: recon.diff },
    }),
  };
}
