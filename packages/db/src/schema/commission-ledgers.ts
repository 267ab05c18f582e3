import type { ColumnType, Generated } from 'kysely';
import type { LedgerStatus } from './ledger.js';
import type { DefaultedTimestamp, Json, YN } from './platform.js';

// Tables of migration V090 owned by ledger-settlement: the commission types and their settings, the
// other_commission_ledger (collection, renewal, reinstatement, persistency, appointment) and the
// commission master. settle_master.other_total is declared with settle_master (ledger.ts).

/** commission_type.type_code: the nine types of the commission master, in their sort order. */
export const COMMISSION_TYPE_CODES = [
  'RECRUIT',
  'MAINTAIN',
  'OVERRIDE',
  'COLLECTION',
  'RENEWAL',
  'REINSTATEMENT',
  'PERSISTENCY',
  'INCENTIVE',
  'APPOINTMENT',
] as const;
/** other_commission_ledger.commission_type */
export const OTHER_COMMISSION_TYPES = ['COLLECTION', 'RENEWAL', 'REINSTATEMENT', 'PERSISTENCY', 'APPOINTMENT'] as const;

export type CommissionTypeCode = (typeof COMMISSION_TYPE_CODES)[number];
export type OtherCommissionTypeCode = (typeof OTHER_COMMISSION_TYPES)[number];

type DefaultedNumeric = ColumnType<string, string | number | undefined, string | number>;
type DefaultedInt = ColumnType<number, number | undefined, number>;

interface Audit {
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface CommissionTypeTable extends Audit {
  type_id: Generated<number>;
  type_code: string;
  type_name: string;
  description: string | null;
  source_table: string;
  is_active: Generated<boolean>;
  taxable_yn: Generated<YN>;
  gross_yn: Generated<YN>;
  sort_order: DefaultedInt;
  version: DefaultedInt;
}

export interface OtherCommissionLedgerTable extends Audit {
  ledger_id: Generated<number>;
  commission_type: OtherCommissionTypeCode;
  /** NULL only for APPOINTMENT rows */
  contract_id: number | null;
  agent_id: number;
  policy_no: string | null;
  company_code: string | null;
  product_code: string | null;
  insurance_type: string | null;
  commission_year: number | null;
  /** PERSISTENCY: 13 or 25; APPOINTMENT: month number since join */
  milestone_month: number | null;
  base_amount: DefaultedNumeric;
  rate_pct: DefaultedNumeric;
  agent_amount: DefaultedNumeric;
  rule_id: number | null;
  rule_version: number | null;
  /** RENEWAL: endorsement_id */
  source_id: number | null;
  settle_month: string;
  status: Generated<LedgerStatus>;
  run_id: number | null;
  calc_basis: Json | null;
  version: DefaultedInt;
}

export interface CommissionMasterTable extends Audit {
  cm_id: Generated<number>;
  agent_id: number;
  settle_month: string;
  commission_type: string;
  computed_amount: DefaultedNumeric;
  adjustment_amount: DefaultedNumeric;
  adjust_reason: string | null;
  source_table: string;
  source_count: DefaultedInt;
  run_id: number | null;
  version: DefaultedInt;
}

export interface CommissionLedgerTables {
  commission_type: CommissionTypeTable;
  other_commission_ledger: OtherCommissionLedgerTable;
  commission_master: CommissionMasterTable;
}
