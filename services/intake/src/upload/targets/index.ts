import type { UploadTargetTable } from '@csp/db';
import { UPLOAD_TARGET_TABLES } from '@csp/db';
import { agentTarget } from './agent.target.js';
import { contractTarget } from './contract.target.js';
import { exceptionLedgerTarget, maintainLedgerTarget, recruitLedgerTarget } from './ledger.targets.js';
import { paymentTarget } from './payment.target.js';
import { chargebackRuleTarget, commissionRateTarget, payoutRuleTarget } from './rule.targets.js';
import type { ImportTarget } from './target.js';

export type { ImportTarget, TargetField, ImportContext, TargetSession, Prepared } from './target.js';

/** The nine whitelisted import targets of spec 2.5, in the spec's order. */
export const IMPORT_TARGETS: Readonly<Record<UploadTargetTable, ImportTarget<unknown, unknown>>> = {
  recruit_ledger: recruitLedgerTarget,
  maintain_ledger: maintainLedgerTarget,
  contract: contractTarget,
  agent: agentTarget,
  commission_rate: commissionRateTarget,
  payout_rule: payoutRuleTarget,
  chargeback_rule: chargebackRuleTarget,
  exception_ledger: exceptionLedgerTarget,
  payment: paymentTarget,
};

export function isTargetTable(table: string): table is UploadTargetTable {
  return (UPLOAD_TARGET_TABLES as readonly string[]).includes(table);
}

/** Spec 7 rule 10. */
export function notAllowedMessage(table: string): string {
  return `target table '${table}' is not allowed (allowed: ${UPLOAD_TARGET_TABLES.join(', ')})`;
}
