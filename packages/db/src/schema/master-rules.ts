import type { Generated } from 'kysely';
import type {
  EXCEPTION_DIRECTIONS,
  INSTALLMENT_STATUSES,
  LIMIT_TYPES,
  LIMIT_UNITS,
  PRODUCT_CATEGORIES,
} from '../values.js';
import type { DateString, DefaultedTimestamp, Numeric, Timestamp, YN } from './platform.js';

// Tables of migration V011 (rules, regulatory limits, chargeback grades, installments; owned by master-data).

interface Audit {
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface CommissionRateTable extends Audit {
  /** The simulation whose adoption wrote this revision (issue 26), else null. */
  simulation_id: number | null;
  rate_id: Generated<number>;
  product_id: number;
  commission_year: number;
  rate_pct: Numeric;
  pay_method_cond: string | null;
  min_premium: Numeric | null;
  effective_from: DateString;
  effective_to: DateString | null;
  version: Generated<number>;
}

export interface PayoutRuleTable extends Audit {
  /** The simulation whose adoption wrote this revision (issue 26), else null. */
  simulation_id: number | null;
  rule_id: Generated<number>;
  grade_id: number;
  insurance_type: string;
  commission_year: number;
  payout_pct: Numeric;
  pay_method_cond: string | null;
  performance_grade: string | null;
  effective_from: DateString;
  effective_to: DateString | null;
  version: Generated<number>;
}

export interface OverrideRuleTable extends Audit {
  /** The simulation whose adoption wrote this revision (issue 26), else null. */
  simulation_id: number | null;
  override_id: Generated<number>;
  from_grade: number;
  to_grade: number;
  override_pct: Numeric;
  calc_type: Generated<string>;
  insurance_type_cond: string | null;
  cap_amount: Numeric | null;
  effective_from: DateString;
  effective_to: DateString | null;
  version: Generated<number>;
}

export interface ChargebackRuleTable extends Audit {
  /** The simulation whose adoption wrote this revision (issue 26), else null. */
  simulation_id: number | null;
  cb_rule_id: Generated<number>;
  company_code: string;
  insurance_type: string;
  lapse_month_from: number;
  lapse_month_to: number | null;
  cb_rate: Numeric;
  include_override: Generated<boolean>;
  installment_allowed: Generated<boolean>;
  max_installments: Generated<number>;
  effective_from: DateString;
  effective_to: DateString | null;
  version: Generated<number>;
}

export type ExceptionDirection = (typeof EXCEPTION_DIRECTIONS)[number];

export interface ExceptionTypeCodeTable extends Audit {
  exception_code: string;
  /** surrogate key of the API paths */
  exception_id: Generated<number>;
  exception_name: string;
  category: string;
  direction: ExceptionDirection;
  auto_calc_yn: Generated<YN>;
  approval_required: Generated<YN>;
  tax_included: Generated<YN>;
  description: string | null;
  is_active: Generated<boolean>;
  sort_order: Generated<number>;
}

export type LimitType = (typeof LIMIT_TYPES)[number];
export type LimitUnit = (typeof LIMIT_UNITS)[number];
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

export interface RegulatoryLimitTable extends Audit {
  limit_id: Generated<number>;
  limit_type: LimitType;
  product_category: ProductCategory | null;
  limit_value: Numeric;
  unit: LimitUnit;
  effective_from: DateString;
  effective_to: DateString | null;
  is_active: Generated<boolean>;
  description: string | null;
}

export interface ChargebackGradeTable extends Audit {
  cb_grade_id: Generated<number>;
  product_category: ProductCategory | null;
  months_from: number;
  months_to: number | null;
  percent: Numeric;
  effective_from: DateString;
  effective_to: DateString | null;
  is_active: Generated<boolean>;
  description: string | null;
}

export interface InstallmentRatioTable extends Audit {
  ratio_id: Generated<number>;
  product_category: ProductCategory | null;
  plan_year: number;
  plan_month: number | null;
  ratio_percent: Numeric;
  effective_from: DateString;
  effective_to: DateString | null;
  is_active: Generated<boolean>;
}

export type InstallmentStatus = (typeof INSTALLMENT_STATUSES)[number];

export interface InstallmentPlanTable extends Audit {
  plan_id: Generated<number>;
  contract_id: number;
  plan_year: number;
  plan_month: number;
  settle_month: string;
  ratio_percent: Numeric;
  planned_amount: Numeric;
  status: Generated<InstallmentStatus>;
  paid_amount: Numeric | null;
  paid_at: Timestamp | null;
  payment_id: number | null;
}

export interface MasterRuleTables {
  commission_rate: CommissionRateTable;
  payout_rule: PayoutRuleTable;
  override_rule: OverrideRuleTable;
  chargeback_rule: ChargebackRuleTable;
  exception_type_code: ExceptionTypeCodeTable;
  regulatory_limit: RegulatoryLimitTable;
  chargeback_grade: ChargebackGradeTable;
  installment_ratio: InstallmentRatioTable;
  installment_plan: InstallmentPlanTable;
}
