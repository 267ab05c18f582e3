import type { MessageKey } from '../i18n/messages.js';

/** How an explain line's value reads. */
export type LineKind = 'text' | 'money' | 'rate' | 'month' | 'timestamp' | 'bool' | 'status' | 'count';

/**
 * The columns an explain line may show, in this order, each named in words. Internal ids (ledger,
 * contract, rule and source ids) and the raw calculation basis are not among them.
 */
export const LINE_COLUMNS: { key: string; label: MessageKey; kind: LineKind }[] = [
  // the type in words of the UI language (its code as a tag), not the master table's English name
  { key: 'commissionType', label: 'explain.col.typeName', kind: 'status' },
  { key: 'programName', label: 'explain.col.programName', kind: 'text' },
  { key: 'policyNo', label: 'explain.col.policyNo', kind: 'text' },
  { key: 'productCode', label: 'explain.col.productCode', kind: 'text' },
  { key: 'fromAgentName', label: 'explain.col.fromAgentName', kind: 'text' },
  { key: 'exceptionName', label: 'explain.col.exceptionName', kind: 'text' },
  { key: 'correctionType', label: 'explain.col.correctionType', kind: 'status' },
  { key: 'originalMonth', label: 'explain.col.originMonth', kind: 'month' },
  { key: 'lapseMonth', label: 'explain.col.lapseMonth', kind: 'month' },
  { key: 'commissionYear', label: 'explain.col.commissionYear', kind: 'count' },
  { key: 'milestoneMonth', label: 'explain.col.milestoneMonth', kind: 'count' },
  { key: 'installmentSeq', label: 'explain.col.installment', kind: 'count' },
  { key: 'premium', label: 'explain.col.premium', kind: 'money' },
  { key: 'measuredValue', label: 'explain.col.measuredValue', kind: 'text' },
  { key: 'tierNo', label: 'explain.col.tierNo', kind: 'count' },
  { key: 'baseAmount', label: 'explain.col.baseAmount', kind: 'money' },
  { key: 'companyRate', label: 'explain.col.companyRate', kind: 'rate' },
  { key: 'companyAmount', label: 'explain.col.companyAmount', kind: 'money' },
  { key: 'payoutRate', label: 'explain.col.payoutRate', kind: 'rate' },
  { key: 'overridePct', label: 'explain.col.overridePct', kind: 'rate' },
  { key: 'cbRate', label: 'explain.col.cbRate', kind: 'rate' },
  { key: 'ratePct', label: 'explain.col.ratePct', kind: 'rate' },
  { key: 'capped', label: 'explain.col.capped', kind: 'bool' },
  { key: 'capAmount', label: 'explain.col.capAmount', kind: 'money' },
  { key: 'computedAmount', label: 'explain.col.computedAmount', kind: 'money' },
  { key: 'adjustmentAmount', label: 'explain.col.adjustmentAmount', kind: 'money' },
  { key: 'agentAmount', label: 'explain.col.agentAmount', kind: 'money' },
  { key: 'overrideAmount', label: 'explain.col.overrideAmount', kind: 'money' },
  { key: 'cbAmount', label: 'explain.col.cbAmount', kind: 'money' },
  { key: 'amount', label: 'explain.col.amount', kind: 'money' },
  { key: 'reason', label: 'explain.col.reason', kind: 'text' },
  { key: 'adjustReason', label: 'explain.col.adjustReason', kind: 'text' },
  { key: 'excludedBecause', label: 'explain.col.excludedBecause', kind: 'text' },
  { key: 'approveStatus', label: 'explain.col.approveStatus', kind: 'status' },
  { key: 'approvedAt', label: 'explain.col.approvedAt', kind: 'timestamp' },
  { key: 'status', label: 'explain.col.status', kind: 'status' },
];

/** The sections of an explain in the order they add up, each named in words. */
export const SECTION_TITLES: Record<string, MessageKey> = {
  recruit: 'explain.sec.recruit',
  maintain: 'explain.sec.maintain',
  override: 'explain.sec.override',
  collection: 'explain.sec.collection',
  renewal: 'explain.sec.renewal',
  reinstatement: 'explain.sec.reinstatement',
  persistency: 'explain.sec.persistency',
  appointment: 'explain.sec.appointment',
  incentive: 'explain.sec.incentive',
  adjustment: 'explain.sec.adjustment',
  correction: 'explain.sec.correction',
  exceptionPlus: 'explain.sec.exceptionPlus',
  exceptionMinus: 'explain.sec.exceptionMinus',
  chargeback: 'explain.sec.chargeback',
  excluded: 'explain.sec.excluded',
};

/** The totals of an explain in reading order; the gross parts first, then tax and net. */
export const TOTAL_TITLES: Record<string, MessageKey> = {
  recruit: 'explain.tot.recruit',
  maintain: 'explain.tot.maintain',
  override: 'explain.tot.override',
  other: 'explain.tot.other',
  correction: 'explain.tot.correction',
  exceptionPlus: 'explain.tot.exceptionPlus',
  exceptionMinus: 'explain.tot.exceptionMinus',
  chargeback: 'explain.tot.chargeback',
  gross: 'explain.tot.gross',
  taxRate: 'explain.tot.taxRate',
  tax: 'explain.tot.tax',
  net: 'explain.tot.net',
};

/** The columns of a section's lines: the known ones its rows carry, in the table's order. */
export function lineColumns(rows: readonly Record<string, unknown>[]) {
  const present = new Set(rows.flatMap((r) => Object.keys(r)));
  return LINE_COLUMNS.filter((c) => present.has(c.key));
}
