import type { ColumnType, Generated } from 'kysely';
import type {
  AGENT_CONTRACT_STATUSES,
  AGENT_CONTRACT_TYPES,
  AGENT_STATUSES,
  COMPANY_TYPES,
  COMPLAINT_STATUSES,
  COMPLAINT_TYPES,
  CONTRACT_STATUSES,
  ENDORSE_TYPES,
  ENDORSEMENT_STATUSES,
  INSURANCE_TYPES,
  LICENSE_STATUSES,
  LICENSE_TYPES,
  ORG_CHANGE_TYPES,
  ORG_TYPES,
  PAY_CYCLES,
  PRODUCT_GROUPS,
  SUCCESSION_STATUSES,
  TAX_TYPES,
  TRAINING_STATUSES,
  VAT_TYPES,
} from '../values.js';
import type { DateString, DefaultedTimestamp, Numeric, Timestamp } from './platform.js';

/** Master data: organization, people, products, contracts (migration V010). */

type Version = ColumnType<number, number | undefined, number>;

export type AgentStatus = (typeof AGENT_STATUSES)[number];
export type TaxType = (typeof TAX_TYPES)[number];
export type VatType = (typeof VAT_TYPES)[number];
export type OrgType = (typeof ORG_TYPES)[number];
export type OrgChangeType = (typeof ORG_CHANGE_TYPES)[number];
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
export type PayCycle = (typeof PAY_CYCLES)[number];
export type SuccessionStatus = (typeof SUCCESSION_STATUSES)[number];
export type CompanyType = (typeof COMPANY_TYPES)[number];
export type AgentContractType = (typeof AGENT_CONTRACT_TYPES)[number];
export type AgentContractStatus = (typeof AGENT_CONTRACT_STATUSES)[number];
export type LicenseType = (typeof LICENSE_TYPES)[number];
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];
export type TrainingStatus = (typeof TRAINING_STATUSES)[number];
export type EndorseType = (typeof ENDORSE_TYPES)[number];
export type EndorsementStatus = (typeof ENDORSEMENT_STATUSES)[number];
export type ComplaintType = (typeof COMPLAINT_TYPES)[number];
export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number];

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
  company_type: CompanyType | null;
  biz_no: string | null;
  contact_name: string | null;
  contact_phone: string | null;
  contact_email: string | null;
  is_active: Generated<boolean>;
  version: Version;
}

export type InsuranceType = (typeof INSURANCE_TYPES)[number];
export type ProductGroup = (typeof PRODUCT_GROUPS)[number];

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
  contract_type: AgentContractType;
  start_date: DateString;
  end_date: DateString | null;
  status: Generated<AgentContractStatus>;
  commission_schedule: string | null;
  note: string | null;
  version: Version;
}

export interface AgentLicenseTable extends Audit {
  license_id: Generated<number>;
  agent_id: number;
  license_type: LicenseType;
  license_no: string;
  issue_date: DateString;
  expiry_date: DateString | null;
  status: Generated<LicenseStatus>;
  note: string | null;
  version: Version;
}

export interface AgentTrainingTable extends Audit {
  training_id: Generated<number>;
  agent_id: number;
  course_name: string;
  training_date: DateString;
  hours: Numeric;
  status: Generated<TrainingStatus>;
  note: string | null;
  version: Version;
}

export interface ContractEndorsementTable extends Audit {
  endorsement_id: Generated<number>;
  contract_id: number;
  endorse_type: EndorseType;
  endorse_date: DateString;
  before_value: string | null;
  after_value: string | null;
  premium_change: ColumnType<string, string | number | undefined, string | number>;
  status: Generated<EndorsementStatus>;
  note: string | null;
  version: Version;
}

export interface ContractComplaintTable extends Audit {
  complaint_id: Generated<number>;
  contract_id: number;
  agent_id: number;
  complaint_date: DateString;
  complaint_type: ComplaintType;
  content: string;
  status: Generated<ComplaintStatus>;
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
