import type { ColumnType, Generated } from 'kysely';
import type { DateString, DefaultedTimestamp, Numeric, Timestamp } from './platform.js';

/** Master data: organization, people, products, contracts (migration V010). */

type Version = ColumnType<number, number | undefined, number>;

export type AgentStatus = 'ACTIVE' | 'LEAVE' | 'SUSPEND';
export type TaxType = 'BUSINESS_INCOME' | 'OTHER_INCOME';
export type VatType = 'NONE' | 'EXEMPT' | 'TAXABLE';
export type OrgType = 'HQ' | 'BR' | 'TM';
export type OrgChangeType = 'TRANSFER' | 'PROMOTE' | 'DEMOTE' | 'JOIN' | 'LEAVE';
export type ContractStatus = 'ACTIVE' | 'LAPSE' | 'REVIVE' | 'TERMINATE';
export type PayCycle = 'MONTHLY' | 'QUARTERLY' | 'SEMI_ANNUAL' | 'ANNUAL' | 'SINGLE';
export type SuccessionStatus = 'ACTIVE' | 'CANCELLED';

interface Audit {
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface GradeTable extends Audit {
  grade_id: Generated<number>;
  grade_code: string;
  grade_name: string;
  grade_level: number;
  grade_group: string | null;
  description: string | null;
  is_active: Generated<boolean>;
  sort_order: Generated<number>;
}

export interface OrganizationTable extends Audit {
  org_id: Generated<number>;
  parent_org_id: number | null;
  org_name: string;
  org_type: OrgType;
  org_level: Generated<number>;
  region: string | null;
  effective_from: DateString | null;
  effective_to: DateString | null;
  is_active: Generated<boolean>;
  sort_order: Generated<number>;
  version: Version;
}

export interface AgentTable extends Audit {
  agent_id: Generated<number>;
  org_id: number;
  grade_id: number;
  agent_name: string;
  /** ciphertext (FieldCipher) */
  resident_no: string | null;
  license_no: string | null;
  phone: string | null;
  email: string | null;
  bank_code: string | null;
  /** ciphertext (FieldCipher) */
  account_no: string | null;
  status: Generated<AgentStatus>;
  join_date: DateString | null;
  leave_date: DateString | null;
  tax_type: Generated<TaxType>;
  business_no: string | null;
  vat_type: Generated<VatType>;
  version: Version;
}

export interface AgentOrgHistoryTable {
  history_id: Generated<number>;
  agent_id: number;
  from_org_id: number | null;
  to_org_id: number | null;
  from_grade_id: number | null;
  to_grade_id: number | null;
  change_type: OrgChangeType;
  change_date: DateString;
  change_reason: string | null;
  created_at: DefaultedTimestamp;
  created_by: number | null;
}

export interface InsuranceCompanyTable extends Audit {
  company_id: Generated<number>;
  company_code: string;
  company_name: string;
  company_type: 'LIFE' | 'NON_LIFE' | 'OTHER' | null;
  biz_no: string | null;
  contact_name: string | null;
  contact_phone: string | null;
  contact_email: string | null;
  is_active: Generated<boolean>;
  version: Version;
}

export type InsuranceType = 'LIFE' | 'NON_LIFE' | 'ANNUITY' | 'SAVINGS' | 'HEALTH' | 'AUTO';
export type ProductGroup = 'LIFE' | 'ANNUITY' | 'SAVINGS' | 'EXCLUDED_AUTO' | 'EXCLUDED_HEALTH';

export interface ProductTable extends Audit {
  product_id: Generated<number>;
  company_id: number;
  product_code: string;
  product_name: string;
  insurance_type: InsuranceType;
  /** product category used by regulatory limits, installment ratios and chargeback grades */
  product_group: ProductGroup | null;
  pay_period_type: string | null;
  is_active: Generated<boolean>;
  launch_date: DateString | null;
  end_date: DateString | null;
  version: Version;
}

export interface ContractTable extends Audit {
  contract_id: Generated<number>;
  agent_id: number;
  product_id: number;
  policy_no: string;
  contractor_name: string | null;
  insured_name: string | null;
  premium: Numeric;
  pay_cycle: Generated<PayCycle>;
  pay_period: number | null;
  coverage_period: number | null;
  status: Generated<ContractStatus>;
  contract_date: DateString | null;
  effective_date: DateString | null;
  lapse_date: DateString | null;
  revival_date: DateString | null;
  version: Version;
}

export interface ContractSuccessionTable extends Audit {
  succession_id: Generated<number>;
  contract_id: number;
  from_agent_id: number;
  to_agent_id: number;
  effective_month: string;
  status: Generated<SuccessionStatus>;
  reason: string | null;
  cancel_reason: string | null;
  cancelled_at: Timestamp | null;
  cancelled_by: number | null;
  version: Version;
}

export interface AgentContractTable extends Audit {
  agent_contract_id: Generated<number>;
  agent_id: number;
  contract_type: 'EXCLUSIVE' | 'NON_EXCLUSIVE' | 'PART_TIME';
  start_date: DateString;
  end_date: DateString | null;
  status: Generated<'ACTIVE' | 'EXPIRED' | 'TERMINATED'>;
  commission_schedule: string | null;
  note: string | null;
  version: Version;
}

export interface AgentLicenseTable extends Audit {
  license_id: Generated<number>;
  agent_id: number;
  license_type: 'LIFE' | 'NON_LIFE' | 'THIRD_SECTOR' | 'VARIABLE';
  license_no: string;
  issue_date: DateString;
  expiry_date: DateString | null;
  status: Generated<'ACTIVE' | 'EXPIRED' | 'SUSPENDED' | 'REVOKED'>;
  note: string | null;
  version: Version;
}

export interface AgentTrainingTable extends Audit {
  training_id: Generated<number>;
  agent_id: number;
  course_name: string;
  training_date: DateString;
  hours: Numeric;
  status: Generated<'SCHEDULED' | 'COMPLETED' | 'ABSENT' | 'CANCELLED'>;
  note: string | null;
  version: Version;
}

export interface ContractEndorsementTable extends Audit {
  endorsement_id: Generated<number>;
  contract_id: number;
  endorse_type: 'PREMIUM_CHANGE' | 'PAY_CYCLE_CHANGE' | 'COVERAGE_CHANGE' | 'CONTRACTOR_CHANGE' | 'BENEFICIARY_CHANGE' | 'OTHER';
  endorse_date: DateString;
  before_value: string | null;
  after_value: string | null;
  premium_change: ColumnType<string, string | number | undefined, string | number>;
  status: Generated<'REQUESTED' | 'APPLIED' | 'REJECTED' | 'CANCELLED'>;
  note: string | null;
  version: Version;
}

export interface ContractComplaintTable extends Audit {
  complaint_id: Generated<number>;
  contract_id: number;
  agent_id: number;
  complaint_date: DateString;
  complaint_type: 'MIS_SELLING' | 'INCOMPLETE_SALE' | 'SERVICE' | 'OTHER';
  content: string;
  status: Generated<'RECEIVED' | 'IN_PROGRESS' | 'RESOLVED' | 'REJECTED'>;
  resolution: string | null;
  resolved_date: DateString | null;
  chargeback_yn: Generated<boolean>;
  version: Version;
}

export interface MasterPeopleTables {
  grade: GradeTable;
  organization: OrganizationTable;
  agent: AgentTable;
  agent_org_history: AgentOrgHistoryTable;
  insurance_company: InsuranceCompanyTable;
  product: ProductTable;
  contract: ContractTable;
  contract_succession: ContractSuccessionTable;
  agent_contract: AgentContractTable;
  agent_license: AgentLicenseTable;
  agent_training: AgentTrainingTable;
  contract_endorsement: ContractEndorsementTable;
  contract_complaint: ContractComplaintTable;
}
