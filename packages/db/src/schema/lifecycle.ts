import type { ColumnType, Generated } from 'kysely';
import type { DISPUTE_STATUSES } from '../values.js';
import type { DateString, DefaultedTimestamp, Json, Numeric, Timestamp } from './platform.js';

// Tables of migration V080 (settlement lifecycle: period close, corrections, disputes, holds, retroactive
// exceptions, termination settlement, tax invoices, carrier reply; owned by ledger-settlement).

type DefaultedNumeric = ColumnType<string, string | number | undefined, string | number>;
type DefaultedInt = ColumnType<number, number | undefined, number>;

export const PERIOD_CLOSE_STATUSES = ['OPEN', 'CLOSED'] as const;
export const CORRECTION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'] as const;
export const CORRECTION_TYPES = ['MANUAL', 'RECALC', 'DISPUTE'] as const;
/** Tables a correction or a dispute may point at (settle_correction.source_table, commission_dispute.target_table). */
export const SETTLE_ROW_TABLES = [
  'settle_master',
  'recruit_ledger',
  'maintain_ledger',
  'exception_ledger',
  'override_settle',
  'chargeback',
] as const;
export const DISPUTE_REASON_CODES = [
  'MISSING_COMMISSION',
  'WRONG_AMOUNT',
  'WRONG_RATE',
  'WRONG_AGENT',
  'CHARGEBACK',
  'EXCEPTION',
  'OTHER',
] as const;
export const HOLD_CONDITION_TYPES = ['NONE', 'UNTIL_DATE', 'LICENSE_VALID', 'TRAINING_HOURS', 'DISPUTE_CLOSED'] as const;
export const HOLD_STATUSES = ['ACTIVE', 'RELEASED'] as const;
export const HOLD_RELEASE_KINDS = ['MANUAL', 'CONDITION'] as const;
export const RETRO_RULE_TABLES = ['commission_rate', 'payout_rule'] as const;
export const TERMINATION_STATUSES = ['DRAFT', 'APPROVED', 'CANCELLED'] as const;
export const TAX_INVOICE_STATUSES = ['ISSUED', 'CANCELLED'] as const;
export const CARRIER_REPLY_STATUSES = ['GENERATED', 'SENT'] as const;

export type PeriodCloseStatus = (typeof PERIOD_CLOSE_STATUSES)[number];
export type CorrectionStatus = (typeof CORRECTION_STATUSES)[number];
export type CorrectionType = (typeof CORRECTION_TYPES)[number];
export type SettleRowTable = (typeof SETTLE_ROW_TABLES)[number];
export type DisputeReasonCode = (typeof DISPUTE_REASON_CODES)[number];
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export type HoldConditionType = (typeof HOLD_CONDITION_TYPES)[number];
export type HoldStatus = (typeof HOLD_STATUSES)[number];
export type HoldReleaseKind = (typeof HOLD_RELEASE_KINDS)[number];
export type RetroRuleTable = (typeof RETRO_RULE_TABLES)[number];
export type TerminationStatus = (typeof TERMINATION_STATUSES)[number];
export type TaxInvoiceStatus = (typeof TAX_INVOICE_STATUSES)[number];
export type CarrierReplyStatus = (typeof CARRIER_REPLY_STATUSES)[number];

interface Audit {
  version: DefaultedInt;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface PeriodCloseTable extends Audit {
  close_id: Generated<number>;
  settle_month: string;
  status: Generated<PeriodCloseStatus>;
  settle_count: DefaultedInt;
  gross_total: DefaultedNumeric;
  tax_total: DefaultedNumeric;
  net_total: DefaultedNumeric;
  note: string | null;
  closed_by: number | null;
  closed_at: Timestamp | null;
  reopened_by: number | null;
  reopened_at: Timestamp | null;
  reopen_reason: string | null;
  reopen_count: DefaultedInt;
}

export interface SettleCorrectionTable extends Audit {
  correction_id: Generated<number>;
  agent_id: number;
  original_month: string;
  /** signed */
  amount: Numeric;
  reason: string;
  correction_type: Generated<CorrectionType>;
  source_table: SettleRowTable | null;
  source_id: number | null;
  dispute_id: number | null;
  status: Generated<CorrectionStatus>;
  /** the month an approved correction is booked into */
  target_month: string | null;
  decided_by: number | null;
  decided_at: Timestamp | null;
  decision_note: string | null;
  calc_basis: Json | null;
}

export interface CommissionDisputeTable extends Audit {
  dispute_id: Generated<number>;
  agent_id: number;
  settle_month: string;
  target_table: SettleRowTable;
  target_id: number;
  settle_id: number | null;
  reason_code: DisputeReasonCode;
  reason_text: string;
  claimed_amount: Numeric | null;
  file_group_id: string | null;
  status: Generated<DisputeStatus>;
  review_note: string | null;
  reviewed_by: number | null;
  reviewed_at: Timestamp | null;
  decision_note: string | null;
  approved_amount: Numeric | null;
  decided_by: number | null;
  decided_at: Timestamp | null;
  correction_id: number | null;
}

export interface SettleHoldTable {
  hold_id: Generated<number>;
  settle_id: number;
  agent_id: number;
  settle_month: string;
  reason_code: string | null;
  reason: string;
  condition_type: Generated<HoldConditionType>;
  until_date: DateString | null;
  training_year: number | null;
  training_hours: Numeric | null;
  dispute_id: number | null;
  status: Generated<HoldStatus>;
  held_by: number | null;
  held_at: DefaultedTimestamp;
  released_by: number | null;
  released_at: Timestamp | null;
  release_kind: HoldReleaseKind | null;
  release_note: string | null;
  release_run_id: number | null;
  last_checked_at: Timestamp | null;
  last_check_note: string | null;
  version: DefaultedInt;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface RetroRuleScanTable {
  rule_table: RetroRuleTable;
  rule_id: number;
  rule_version: number;
  settle_month: string;
  run_id: number | null;
  ledger_rows: DefaultedInt;
  scanned_at: DefaultedTimestamp;
}

export interface TerminationSettlementTable extends Audit {
  term_id: Generated<number>;
  agent_id: number;
  leave_date: DateString;
  settle_month: string;
  unpaid_confirmed: DefaultedNumeric;
  future_chargebacks: DefaultedNumeric;
  pending_deductions: DefaultedNumeric;
  pending_exceptions: DefaultedNumeric;
  final_net: DefaultedNumeric;
  status: Generated<TerminationStatus>;
  calc_basis: Json | null;
  note: string | null;
  approved_by: number | null;
  approved_at: Timestamp | null;
  deduction_id: number | null;
}

export interface TaxInvoiceTable extends Audit {
  invoice_id: Generated<number>;
  invoice_no: string;
  agent_id: number;
  settle_month: string;
  payment_id: number | null;
  supply_amount: Numeric;
  vat_amount: Numeric;
  total_amount: Numeric;
  issue_date: DateString;
  status: Generated<TaxInvoiceStatus>;
  cancel_reason: string | null;
  cancelled_by: number | null;
  cancelled_at: Timestamp | null;
}

export interface CarrierReplyTable {
  reply_id: Generated<number>;
  company_code: string;
  settle_month: string;
  diff_count: DefaultedInt;
  unmatched_count: DefaultedInt;
  diff_total: DefaultedNumeric;
  file_id: number | null;
  status: Generated<CarrierReplyStatus>;
  generated_by: number | null;
  generated_at: DefaultedTimestamp;
  sent_by: number | null;
  sent_at: Timestamp | null;
  sent_note: string | null;
  version: DefaultedInt;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

// settle_master.correction_total (V080): the approved corrections booked into the month, part of gross.
declare module './ledger.js' {
  interface SettleMasterTable {
    correction_total: DefaultedNumeric;
  }
}

export interface LifecycleTables {
  period_close: PeriodCloseTable;
  settle_correction: SettleCorrectionTable;
  commission_dispute: CommissionDisputeTable;
  settle_hold: SettleHoldTable;
  retro_rule_scan: RetroRuleScanTable;
  termination_settlement: TerminationSettlementTable;
  tax_invoice: TaxInvoiceTable;
  carrier_reply: CarrierReplyTable;
}

// V085: the rows a termination settlement took over, and the correction paying a positive final net.
export const TERMINATION_ITEM_KINDS = ['UNPAID_CONFIRMED', 'FUTURE_CHARGEBACK', 'PENDING_DEDUCTION', 'PENDING_EXCEPTION'] as const;
export type TerminationItemKind = (typeof TERMINATION_ITEM_KINDS)[number];

export interface TerminationSettlementItemTable {
  item_kind: TerminationItemKind;
  item_id: number;
  term_id: number;
  settle_month: string;
  /** signed contribution to the final net */
  amount: Numeric;
  created_at: DefaultedTimestamp;
}

export interface TerminationSettlementTable {
  correction_id: number | null;
  decision_note: string | null;
}

export interface LifecycleTables {
  termination_settlement_item: TerminationSettlementItemTable;
}
