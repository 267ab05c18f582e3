import type { ColumnType, Generated } from 'kysely';
import type { APPROVAL_TARGETS, APPROVE_STATUSES } from '../values.js';
import type { DateString, DefaultedTimestamp, Numeric, Timestamp } from './platform.js';

/**
 * The approval workflow (auth-platform) and the tables its decisions reach: withdraw requests (payment-tax)
 * and settlement decisions (ledger-settlement). Migration V060.
 */

export const APPROVAL_STEP_STATUSES = ['WAITING', 'PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'] as const;
/** The outcome of a request that the target's owner applies. */
export const APPROVAL_DECISIONS = ['APPROVED', 'REJECTED', 'CANCELLED'] as const;
export const WITHDRAW_STATUSES = ['REQUESTED', 'APPROVED', 'SENT', 'REJECTED', 'CANCELLED'] as const;

export type ApprovalTargetType = (typeof APPROVAL_TARGETS)[number];
export type ApprovalRequestStatus = (typeof APPROVE_STATUSES)[number];
export type ApprovalStepStatus = (typeof APPROVAL_STEP_STATUSES)[number];
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];
export type WithdrawStatus = (typeof WITHDRAW_STATUSES)[number];

type Version = ColumnType<number, number | undefined, number>;
type Counter = ColumnType<number, number | undefined, number>;
/** jsonb array of role codes, written as a JSON string */
type RoleList = ColumnType<unknown, string, string>;

export interface ApprovalLineTable {
  line_id: Generated<number>;
  line_code: string;
  line_name: string;
  target_type: ApprovalTargetType;
  step_roles: RoleList;
  description: string | null;
  is_active: Generated<boolean>;
  version: Version;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface ApprovalRequestTable {
  request_id: Generated<number>;
  target_type: ApprovalTargetType;
  target_id: number;
  line_id: number;
  line_code: string;
  step_count: number;
  current_step: Generated<number>;
  status: Generated<ApprovalRequestStatus>;
  title: string;
  requested_by: number;
  requested_at: DefaultedTimestamp;
  decided_by: number | null;
  decided_at: Timestamp | null;
  reason: string | null;
  source_event_id: number | null;
  version: Version;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface ApprovalStepTable {
  step_id: Generated<number>;
  request_id: number;
  step_no: number;
  role_code: string;
  status: ApprovalStepStatus;
  activated_at: Timestamp | null;
  decided_by: number | null;
  decided_at: Timestamp | null;
  comment: string | null;
}

export interface WithdrawRequestTable {
  withdraw_id: Generated<number>;
  agent_id: number;
  amount: Numeric;
  settle_month: string;
  request_date: DateString;
  status: Generated<WithdrawStatus>;
  note: string | null;
  approval_line_code: string;
  approval_request_id: number | null;
  bank_code: string | null;
  /** ciphertext (FieldCipher) */
  account_no: string | null;
  decided_by: number | null;
  decided_at: Timestamp | null;
  reject_reason: string | null;
  transfer_tx_id: string | null;
  transfer_status: string | null;
  transfer_at: Timestamp | null;
  transfer_attempts: Counter;
  fail_reason: string | null;
  deduction_id: number | null;
  version: Version;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface SettleApprovalTable {
  settle_approval_id: Generated<number>;
  settle_id: number;
  request_id: number | null;
  event_id: number;
  decision: ApprovalDecision;
  reason: string | null;
  decided_by: number | null;
  decided_at: Timestamp;
  applied_at: DefaultedTimestamp;
}

export interface ApprovalTables {
  approval_line: ApprovalLineTable;
  approval_request: ApprovalRequestTable;
  approval_step: ApprovalStepTable;
  withdraw_request: WithdrawRequestTable;
  settle_approval: SettleApprovalTable;
}
