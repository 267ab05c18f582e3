import type { ColumnType, Generated } from 'kysely';
import type { DateString, DefaultedTimestamp, Json, Numeric, Timestamp } from './platform.js';

// Tables of migration V090 owned by master-data (collection, renewal, reinstatement, persistency and
// appointment rules) and the incentive programs, tiers and results of ledger-settlement.

/** incentive_program.metric: what is measured over [period_from, period_to]. */
export const INCENTIVE_METRICS = ['NEW_PREMIUM', 'RECRUIT_COUNT', 'RECRUIT_COMMISSION'] as const;
/** incentive_program.reward_type: the tier's fixed amount or a percentage of the measured figure. */
export const INCENTIVE_REWARD_TYPES = ['FIXED', 'PCT'] as const;
export const INCENTIVE_PROGRAM_STATUSES = ['DRAFT', 'ACTIVE', 'CLOSED'] as const;
export const INCENTIVE_RESULT_STATUSES = ['CALCULATED', 'PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'CANCELLED'] as const;
/** persistency_rule.milestone_month */
export const PERSISTENCY_MILESTONES = [13, 25] as const;

export type IncentiveMetric = (typeof INCENTIVE_METRICS)[number];
export type IncentiveRewardType = (typeof INCENTIVE_REWARD_TYPES)[number];
export type IncentiveProgramStatus = (typeof INCENTIVE_PROGRAM_STATUSES)[number];
export type IncentiveResultStatus = (typeof INCENTIVE_RESULT_STATUSES)[number];

type DefaultedInt = ColumnType<number, number | undefined, number>;

interface Audit {
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

/** Half-open validity [effective_from, effective_to) and the revision version (starts at 1). */
interface Revisable extends Audit {
  rule_id: Generated<number>;
  effective_from: DateString;
  effective_to: DateString | null;
  version: Generated<number>;
}

export interface CollectionRuleTable extends Revisable {
  /** The simulation whose adoption wrote this revision (issue 26), else null. */
  simulation_id: number | null;
  company_code: string;
  insurance_type: string;
  min_commission_year: DefaultedInt;
  rate_pct: Numeric;
}

export interface RenewalRuleTable extends Revisable {
  /** The simulation whose adoption wrote this revision (issue 26), else null. */
  simulation_id: number | null;
  company_code: string;
  insurance_type: string;
  rate_pct: Numeric;
}

export interface ReinstatementRuleTable extends Revisable {
  /** The simulation whose adoption wrote this revision (issue 26), else null. */
  simulation_id: number | null;
  company_code: string;
  insurance_type: string;
  rate_pct: Numeric;
}

export interface PersistencyRuleTable extends Revisable {
  /** The simulation whose adoption wrote this revision (issue 26), else null. */
  simulation_id: number | null;
  milestone_month: number;
  insurance_type: string;
  bonus_pct: Numeric;
}

export interface AppointmentRuleTable extends Revisable {
  /** The simulation whose adoption wrote this revision (issue 26), else null. */
  simulation_id: number | null;
  grade_id: number;
  months: number;
  monthly_amount: Numeric;
}

export interface IncentiveProgramTable extends Audit {
  program_id: Generated<number>;
  program_code: string;
  program_name: string;
  metric: IncentiveMetric;
  reward_type: IncentiveRewardType;
  period_from: string;
  period_to: string;
  pay_month: string;
  status: Generated<IncentiveProgramStatus>;
  description: string | null;
  version: DefaultedInt;
}

export interface IncentiveTierTable {
  tier_id: Generated<number>;
  program_id: number;
  tier_no: number;
  threshold: Numeric;
  reward_amount: Numeric | null;
  reward_pct: Numeric | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface IncentiveResultTable extends Audit {
  result_id: Generated<number>;
  program_id: number;
  agent_id: number;
  settle_month: string;
  measured_value: Numeric;
  tier_no: number;
  amount: Numeric;
  status: Generated<IncentiveResultStatus>;
  approval_request_id: number | null;
  approved_by: number | null;
  approved_at: Timestamp | null;
  reject_reason: string | null;
  calc_basis: Json | null;
  version: DefaultedInt;
}

export interface CommissionRuleTables {
  collection_rule: CollectionRuleTable;
  renewal_rule: RenewalRuleTable;
  reinstatement_rule: ReinstatementRuleTable;
  persistency_rule: PersistencyRuleTable;
  appointment_rule: AppointmentRuleTable;
  incentive_program: IncentiveProgramTable;
  incentive_tier: IncentiveTierTable;
  incentive_result: IncentiveResultTable;
}
