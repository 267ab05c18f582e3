import type { ColumnType, Generated } from 'kysely';
import type {
  APPROVE_STATUSES,
  CHARGEBACK_STATUSES,
  EXCEPTION_SOURCES,
  EXCEPTION_STATUSES,
  LEDGER_STATUSES,
  RECONCILE_STATUSES,
  SETTLE_STATUSES,
} from '../values.js';
import type { ExceptionDirection } from './master-rules.js';
import type { DateString, DefaultedTimestamp, Json, Numeric, Timestamp, YN } from './platform.js';

// Tables of migration V030 (ledgers and settlement; owned by ledger-settlement). The calc_basis JSON
// shapes are documented in services/ledger-settlement/STEPS.md.

/** A numeric column with a database default. */
type DefaultedNumeric = ColumnType<string, string | number | undefined, string | number>;
type Version = ColumnType<number, number | undefined, number>;

export type LedgerStatus = (typeof LEDGER_STATUSES)[number];
export type ReconcileStatus = (typeof RECONCILE_STATUSES)[number];
export type SettleStatus = (typeof SETTLE_STATUSES)[number];
export type ExceptionStatus = (typeof EXCEPTION_STATUSES)[number];
export type ApproveStatus = (typeof APPROVE_STATUSES)[number];
export type ExceptionSource = (typeof EXCEPTION_SOURCES)[number];
export type ChargebackStatus = (typeof CHARGEBACK_STATUSES)[number];

interface Audit {
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

/** recruit_ledger and maintain_ledger have the same columns. */
export interface CommissionLedgerTable extends Audit {
  ledger_id: Generated<number>;
  contract_id: number;
  agent_id: number;
  policy_no: string | null;
  company_code: string | null;
  product_code: string | null;
  insurance_type: string | null;
  commission_year: number;
  premium: DefaultedNumeric;
  pay_method: string | null;
  company_rate: DefaultedNumeric;
  company_amount: DefaultedNumeric;
  payout_rate: DefaultedNumeric;
  agent_amount: DefaultedNumeric;
  tax_amount: DefaultedNumeric;
  /** insurer figure written by transformData; NULL = not reported */
  reported_premium: Numeric | null;
  /** insurer figure written by transformData; NULL = not reported */
  reported_company_amount: Numeric | null;
  reconcile_status: Generated<ReconcileStatus>;
  reconcile_diff: Numeric | null;
  advance_yn: Generated<YN>;
  advance_amount: DefaultedNumeric;
  chargeback_yn: Generated<YN>;
  settle_month: string;
  status: Generated<LedgerStatus>;
  raw_id: number | null;
  run_id: number | null;
  calc_basis: Json | null;
  version: Version;
}

export interface ExceptionLedgerTable extends Audit {
  ledger_id: Generated<number>;
  agent_id: number;
  contract_id: number | null;
  policy_no: string | null;
  company_code: string | null;
  product_code: string | null;
  insurance_type: string | null;
  settle_month: string;
  exception_code: string;
  direction: ExceptionDirection;
  amount: Numeric;
  tax_amount: DefaultedNumeric;
  reason: string | null;
  status: Generated<ExceptionStatus>;
  approve_status: Generated<ApproveStatus>;
  approver_id: number | null;
  approve_date: Timestamp | null;
  reject_reason: string | null;
  recurring_yn: Generated<YN>;
  recurring_until: string | null;
  recurring_parent_id: number | null;
  source: Generated<ExceptionSource>;
  run_id: number | null;
  calc_basis: Json | null;
  version: Version;
}

export interface SettleMasterTable extends Audit {
  settle_id: Generated<number>;
  agent_id: number;
  settle_month: string;
  recruit_total: DefaultedNumeric;
  maintain_total: DefaultedNumeric;
  exception_plus: DefaultedNumeric;
  exception_minus: DefaultedNumeric;
  override_total: DefaultedNumeric;
  chargeback_total: DefaultedNumeric;
  /** V090: other commission types, approved incentives and commission-master adjustments (part of gross) */
  other_total: DefaultedNumeric;
  gross_amount: DefaultedNumeric;
  tax_amount: DefaultedNumeric;
  net_amount: DefaultedNumeric;
  status: Generated<SettleStatus>;
  calc_date: Timestamp | null;
  confirmed_by: number | null;
  confirmed_at: Timestamp | null;
  hold_reason: string | null;
  hold_reason_code: string | null;
  released_by: number | null;
  released_at: Timestamp | null;
  run_id: number | null;
  calc_basis: Json | null;
  version: Version;
}

export interface OverrideSettleTable {
  os_id: Generated<number>;
  settle_id: number | null;
  settle_month: string;
  from_agent_id: number;
  to_agent_id: number;
  override_rule_id: number;
  base_amount: Numeric;
  override_pct: Numeric;
  override_amount: Numeric;
  capped: Generated<boolean>;
  calc_basis: Json | null;
  run_id: number | null;
  status: Generated<SettleStatus>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface ChargebackTable {
  cb_id: Generated<number>;
  contract_id: number;
  agent_id: number;
  /** month the installment is due */
  settle_month: string;
  /** month the lapse happened */
  lapse_month: string;
  lapse_date: DateString | null;
  lapse_month_diff: number;
  base_amount: Numeric;
  cb_rate: Numeric;
  cb_amount: Numeric;
  installment_seq: ColumnType<number, number | undefined, number>;
  installment_total: ColumnType<number, number | undefined, number>;
  cb_rule_id: number | null;
  status: Generated<ChargebackStatus>;
  calc_basis: Json | null;
  run_id: number | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface LedgerTables {
  recruit_ledger: CommissionLedgerTable;
  maintain_ledger: CommissionLedgerTable;
  exception_ledger: ExceptionLedgerTable;
  settle_master: SettleMasterTable;
  override_settle: OverrideSettleTable;
  chargeback: ChargebackTable;
}
