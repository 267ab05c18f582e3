import type { ColumnType, Generated } from 'kysely';
import type { DateString, DefaultedTimestamp, Numeric, Timestamp } from './platform.js';

/** KPI, reports, retention anomalies and forecasts (migration V070, owned by analytics). */

/** numeric column with a database default */
type DefaultedNumeric = ColumnType<string, string | number | undefined, string | number>;
type DefaultedInt = ColumnType<number, number | undefined, number>;
/** jsonb written as JSON text */
type JsonArray = ColumnType<string[], string, string>;

export const KPI_REFRESH_TRIGGERS = ['MANUAL', 'RUN'] as const;
export type KpiRefreshTrigger = (typeof KPI_REFRESH_TRIGGERS)[number];
export const KPI_REFRESH_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED'] as const;
export type KpiRefreshStatus = (typeof KPI_REFRESH_STATUSES)[number];
export const RETENTION_HORIZONS = [13, 25] as const;
export type RetentionHorizon = (typeof RETENTION_HORIZONS)[number];
export const RETENTION_SCOPES = ['TOTAL', 'ORG', 'AGENT'] as const;
export type RetentionScope = (typeof RETENTION_SCOPES)[number];
export const CUMULATIVE_SCOPES = ['AGENT', 'ORG'] as const;
export type CumulativeScope = (typeof CUMULATIVE_SCOPES)[number];
export const ANOMALY_SCOPES = ['ORG', 'AGENT'] as const;
export type AnomalyScope = (typeof ANOMALY_SCOPES)[number];
export const ANOMALY_TYPES = ['BELOW_THRESHOLD', 'DROP'] as const;
export type AnomalyType = (typeof ANOMALY_TYPES)[number];
export const ANOMALY_STATUSES = ['OPEN', 'REVIEWED'] as const;
export type AnomalyStatus = (typeof ANOMALY_STATUSES)[number];
export const FORECAST_METHODS = ['MA3', 'MA6', 'NAIVE'] as const;
export type ForecastMethod = (typeof FORECAST_METHODS)[number];

export interface KpiRefreshLogTable {
  refresh_id: Generated<number>;
  settle_month: string;
  trigger_type: KpiRefreshTrigger;
  run_id: number | null;
  status: Generated<KpiRefreshStatus>;
  attempts: DefaultedInt;
  agent_rows: DefaultedInt;
  org_rows: DefaultedInt;
  exposure_rows: DefaultedInt;
  retention_rows: DefaultedInt;
  alert_rows: DefaultedInt;
  error_message: string | null;
  started_at: DefaultedTimestamp;
  ended_at: Timestamp | null;
  duration_ms: number | null;
  requested_by: number | null;
}

/** The money figures a settle row contributes (agent rows and their roll-ups). */
interface SettleTotals {
  recruit_total: DefaultedNumeric;
  maintain_total: DefaultedNumeric;
  override_total: DefaultedNumeric;
  /** V071: other commission types and corrections, the parts of gross that had no figure */
  other_total: DefaultedNumeric;
  correction_total: DefaultedNumeric;
  exception_plus_total: DefaultedNumeric;
  exception_minus_total: DefaultedNumeric;
  chargeback_total: DefaultedNumeric;
  gross_total: DefaultedNumeric;
  tax_total: DefaultedNumeric;
  net_total: DefaultedNumeric;
}

export interface KpiMonthlyTable extends SettleTotals {
  kpi_monthly_id: Generated<number>;
  settle_month: string;
  agents_settled: DefaultedInt;
  agents_paid: DefaultedInt;
  new_contracts: DefaultedInt;
  new_premium: DefaultedNumeric;
  avg_net_per_agent: DefaultedNumeric;
  refresh_id: number;
  refreshed_at: DefaultedTimestamp;
}

export interface KpiAgentMonthlyTable {
  agent_kpi_id: Generated<number>;
  settle_month: string;
  agent_id: number;
  org_id: number;
  grade_id: number;
  settled: boolean;
  settle_status: string | null;
  new_contracts: DefaultedInt;
  new_premium: DefaultedNumeric;
  recruit_amount: DefaultedNumeric;
  maintain_amount: DefaultedNumeric;
  override_amount: DefaultedNumeric;
  /** V071 */
  other_amount: DefaultedNumeric;
  correction_amount: DefaultedNumeric;
  exception_plus: DefaultedNumeric;
  exception_minus: DefaultedNumeric;
  chargeback_amount: DefaultedNumeric;
  gross_amount: DefaultedNumeric;
  tax_amount: DefaultedNumeric;
  net_amount: DefaultedNumeric;
  refresh_id: number;
}

export interface KpiOrgMonthlyTable extends SettleTotals {
  org_kpi_id: Generated<number>;
  settle_month: string;
  org_id: number;
  parent_org_id: number | null;
  org_type: string;
  org_level: number;
  agents_settled: DefaultedInt;
  agents_paid: DefaultedInt;
  new_contracts: DefaultedInt;
  new_premium: DefaultedNumeric;
  avg_net_per_agent: DefaultedNumeric;
  exposure_amount: DefaultedNumeric;
  installments_due_count: DefaultedInt;
  installments_due_amount: DefaultedNumeric;
  refresh_id: number;
}

export interface KpiCumulativeTable {
  cumulative_id: Generated<number>;
  settle_month: string;
  scope: CumulativeScope;
  org_id: number;
  agent_id: number | null;
  grade_id: number | null;
  months_count: DefaultedInt;
  new_contracts: DefaultedInt;
  new_premium: DefaultedNumeric;
  recruit_total: DefaultedNumeric;
  maintain_total: DefaultedNumeric;
  override_total: DefaultedNumeric;
  /** V072: the other parts of gross, as kpi_monthly */
  other_total: DefaultedNumeric;
  correction_total: DefaultedNumeric;
  exception_plus_total: DefaultedNumeric;
  exception_minus_total: DefaultedNumeric;
  chargeback_total: DefaultedNumeric;
  gross_total: DefaultedNumeric;
  tax_total: DefaultedNumeric;
  net_total: DefaultedNumeric;
  refresh_id: number;
}

export interface KpiRetentionTable {
  retention_id: Generated<number>;
  cohort_month: string;
  horizon: number;
  measure_month: string;
  scope: RetentionScope;
  org_id: number | null;
  agent_id: number | null;
  cohort_count: number;
  retained_count: number;
  retention_rate: Numeric;
  refreshed_at: DefaultedTimestamp;
}

export interface KpiChargebackExposureTable {
  exposure_id: Generated<number>;
  settle_month: string;
  agent_id: number;
  org_id: number;
  grade_id: number;
  as_of_date: DateString;
  in_force_contracts: DefaultedInt;
  paid_commission: DefaultedNumeric;
  exposure_amount: DefaultedNumeric;
  installments_due_count: DefaultedInt;
  installments_due_amount: DefaultedNumeric;
  refresh_id: number;
}

export interface RetentionAnomalyAlertTable {
  alert_id: Generated<number>;
  cohort_month: string;
  horizon: number;
  scope: AnomalyScope;
  org_id: number;
  agent_id: number | null;
  alert_type: AnomalyType;
  retention_rate: Numeric;
  previous_rate: Numeric | null;
  threshold: Numeric | null;
  drop_points: Numeric | null;
  cohort_count: number;
  retained_count: number;
  status: Generated<AnomalyStatus>;
  review_note: string | null;
  reviewed_by: number | null;
  reviewed_at: Timestamp | null;
  detected_at: DefaultedTimestamp;
  version: DefaultedInt;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface ForecastKpiMonthlyTable {
  forecast_id: Generated<number>;
  org_id: number;
  base_month: string;
  forecast_month: string;
  method: ForecastMethod;
  window_months: number;
  months_used: JsonArray;
  forecast_gross: Numeric;
  actual_gross: Numeric | null;
  backtest_mape: Numeric | null;
  backtest_months: DefaultedInt;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface AnalyticsTables {
  kpi_refresh_log: KpiRefreshLogTable;
  kpi_monthly: KpiMonthlyTable;
  kpi_agent_monthly: KpiAgentMonthlyTable;
  kpi_org_monthly: KpiOrgMonthlyTable;
  kpi_cumulative: KpiCumulativeTable;
  kpi_retention: KpiRetentionTable;
  kpi_chargeback_exposure: KpiChargebackExposureTable;
  retention_anomaly_alert: RetentionAnomalyAlertTable;
  forecast_kpi_monthly: ForecastKpiMonthlyTable;
}
