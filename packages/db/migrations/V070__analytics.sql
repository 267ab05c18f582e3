-- Analytics (spec 1 area 9, 2.7, 4.4, 4.5; DECISIONS "Analytics definitions"). Owned by analytics.
-- Every table here is derived from other services' tables (read-only for analytics) by the KPI refresh
-- of one settle month, except retention_anomaly_alert (reviewed by users) and forecast_kpi_monthly
-- (generated on request). Money totals are numeric(18,2) (sums of numeric(15,2) over many agents),
-- rates numeric(7,4) in percent. Rows of one month are upserted and stamped with the refresh that
-- wrote them, so a refresh replaces exactly that month and row ids stay stable.

-- ---------------------------------------------------------------------------------------------
-- kpi_refresh_log: one row per refresh of a settle month (on demand or after a settlement run).
CREATE TABLE kpi_refresh_log (
  refresh_id     bigserial    PRIMARY KEY,
  settle_month   char(6)      NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  trigger_type   varchar(10)  NOT NULL CHECK (trigger_type IN ('MANUAL', 'RUN')),
  run_id         bigint,
  status         varchar(10)  NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING', 'COMPLETED', 'FAILED')),
  attempts       integer      NOT NULL DEFAULT 1,
  agent_rows     integer      NOT NULL DEFAULT 0,
  org_rows       integer      NOT NULL DEFAULT 0,
  exposure_rows  integer      NOT NULL DEFAULT 0,
  retention_rows integer      NOT NULL DEFAULT 0,
  alert_rows     integer      NOT NULL DEFAULT 0,
  error_message  text,
  started_at     timestamptz  NOT NULL DEFAULT now(),
  ended_at       timestamptz,
  duration_ms    bigint,
  requested_by   bigint,
  CHECK ((trigger_type = 'RUN') = (run_id IS NOT NULL))
);
-- A settlement run is refreshed once: the row is the claim, so several analytics instances polling
-- batch_job_log never refresh the same run twice.
CREATE UNIQUE INDEX kpi_refresh_log_run_uq ON kpi_refresh_log (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX kpi_refresh_log_month_idx ON kpi_refresh_log (settle_month, refresh_id DESC);
COMMENT ON TABLE kpi_refresh_log IS 'KPI refreshes of a settle month: MANUAL (POST /api/kpi/refresh) or RUN (settlement run completed)';
COMMENT ON COLUMN kpi_refresh_log.run_id IS 'batch_job_log run row (step_name NULL) whose completion triggered the refresh';
COMMENT ON COLUMN kpi_refresh_log.attempts IS 'Tries of a RUN refresh (a FAILED one is retried by the poll up to 3 times)';

-- ---------------------------------------------------------------------------------------------
-- kpi_monthly: the agency's figures of a settle month.
CREATE TABLE kpi_monthly (
  kpi_monthly_id        bigserial     PRIMARY KEY,
  settle_month          char(6)       NOT NULL UNIQUE CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  agents_settled        integer       NOT NULL DEFAULT 0,
  agents_paid           integer       NOT NULL DEFAULT 0,
  new_contracts         integer       NOT NULL DEFAULT 0,
  new_premium           numeric(18,2) NOT NULL DEFAULT 0,
  recruit_total         numeric(18,2) NOT NULL DEFAULT 0,
  maintain_total        numeric(18,2) NOT NULL DEFAULT 0,
  override_total        numeric(18,2) NOT NULL DEFAULT 0,
  exception_plus_total  numeric(18,2) NOT NULL DEFAULT 0,
  exception_minus_total numeric(18,2) NOT NULL DEFAULT 0,
  chargeback_total      numeric(18,2) NOT NULL DEFAULT 0,
  gross_total           numeric(18,2) NOT NULL DEFAULT 0,
  tax_total             numeric(18,2) NOT NULL DEFAULT 0,
  net_total             numeric(18,2) NOT NULL DEFAULT 0,
  avg_net_per_agent     numeric(18,2) NOT NULL DEFAULT 0,
  refresh_id            bigint        NOT NULL,
  refreshed_at          timestamptz   NOT NULL DEFAULT now()
);
COMMENT ON TABLE kpi_monthly IS 'Monthly KPI of the agency (DECISIONS "Analytics definitions")';
COMMENT ON COLUMN kpi_monthly.agents_settled IS 'Agents with a settle_master row in the month';
COMMENT ON COLUMN kpi_monthly.agents_paid IS 'Settled agents whose gross is above 0 (they get a payment, DECISIONS "Payments and tax")';
COMMENT ON COLUMN kpi_monthly.new_contracts IS 'Contracts whose contract date lies in the month';
COMMENT ON COLUMN kpi_monthly.new_premium IS 'Premium of those contracts';
COMMENT ON COLUMN kpi_monthly.avg_net_per_agent IS 'round(net_total / agents_settled, 2) HALF_UP; 0 without settled agents';

-- ---------------------------------------------------------------------------------------------
-- kpi_agent_monthly: one row per agent and month (settled, or with new contracts).
CREATE TABLE kpi_agent_monthly (
  agent_kpi_id    bigserial     PRIMARY KEY,
  settle_month    char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  agent_id        bigint        NOT NULL,
  org_id          bigint        NOT NULL,
  grade_id        bigint        NOT NULL,
  settled         boolean       NOT NULL,
  settle_status   varchar(12),
  new_contracts   integer       NOT NULL DEFAULT 0,
  new_premium     numeric(18,2) NOT NULL DEFAULT 0,
  recruit_amount  numeric(18,2) NOT NULL DEFAULT 0,
  maintain_amount numeric(18,2) NOT NULL DEFAULT 0,
  override_amount numeric(18,2) NOT NULL DEFAULT 0,
  exception_plus  numeric(18,2) NOT NULL DEFAULT 0,
  exception_minus numeric(18,2) NOT NULL DEFAULT 0,
  chargeback_amount numeric(18,2) NOT NULL DEFAULT 0,
  gross_amount    numeric(18,2) NOT NULL DEFAULT 0,
  tax_amount      numeric(18,2) NOT NULL DEFAULT 0,
  net_amount      numeric(18,2) NOT NULL DEFAULT 0,
  refresh_id      bigint        NOT NULL,
  CONSTRAINT kpi_agent_monthly_key_uq UNIQUE (settle_month, agent_id)
);
CREATE INDEX kpi_agent_monthly_agent_idx ON kpi_agent_monthly (agent_id, settle_month);
CREATE INDEX kpi_agent_monthly_org_idx ON kpi_agent_monthly (org_id, settle_month);
COMMENT ON TABLE kpi_agent_monthly IS 'Per agent and month: settlement figures and new business (base of the agent report and the cumulative KPI)';
COMMENT ON COLUMN kpi_agent_monthly.org_id IS 'The agent''s organization when the month was refreshed';
COMMENT ON COLUMN kpi_agent_monthly.grade_id IS 'The agent''s grade when the month was refreshed';
COMMENT ON COLUMN kpi_agent_monthly.settled IS 'A settle_master row exists for the agent and month';

-- ---------------------------------------------------------------------------------------------
-- kpi_org_monthly: per organization and month, rolled up the tree (a branch includes its teams).
CREATE TABLE kpi_org_monthly (
  org_kpi_id              bigserial     PRIMARY KEY,
  settle_month            char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  org_id                  bigint        NOT NULL,
  parent_org_id           bigint,
  org_type                varchar(10)   NOT NULL,
  org_level               integer       NOT NULL,
  agents_settled          integer       NOT NULL DEFAULT 0,
  agents_paid             integer       NOT NULL DEFAULT 0,
  new_contracts           integer       NOT NULL DEFAULT 0,
  new_premium             numeric(18,2) NOT NULL DEFAULT 0,
  recruit_total           numeric(18,2) NOT NULL DEFAULT 0,
  maintain_total          numeric(18,2) NOT NULL DEFAULT 0,
  override_total          numeric(18,2) NOT NULL DEFAULT 0,
  exception_plus_total    numeric(18,2) NOT NULL DEFAULT 0,
  exception_minus_total   numeric(18,2) NOT NULL DEFAULT 0,
  chargeback_total        numeric(18,2) NOT NULL DEFAULT 0,
  gross_total             numeric(18,2) NOT NULL DEFAULT 0,
  tax_total               numeric(18,2) NOT NULL DEFAULT 0,
  net_total               numeric(18,2) NOT NULL DEFAULT 0,
  avg_net_per_agent       numeric(18,2) NOT NULL DEFAULT 0,
  exposure_amount         numeric(18,2) NOT NULL DEFAULT 0,
  installments_due_count  integer       NOT NULL DEFAULT 0,
  installments_due_amount numeric(18,2) NOT NULL DEFAULT 0,
  refresh_id              bigint        NOT NULL,
  CONSTRAINT kpi_org_monthly_key_uq UNIQUE (settle_month, org_id)
);
CREATE INDEX kpi_org_monthly_org_idx ON kpi_org_monthly (org_id, settle_month);
COMMENT ON TABLE kpi_org_monthly IS 'Per organization and month; every figure includes the organization''s whole subtree';
COMMENT ON COLUMN kpi_org_monthly.exposure_amount IS 'Chargeback exposure of the subtree''s agents (see kpi_chargeback_exposure)';

-- ---------------------------------------------------------------------------------------------
-- kpi_cumulative: year-to-date sums per agent (scope AGENT) and organization (scope ORG, rolled up).
CREATE TABLE kpi_cumulative (
  cumulative_id     bigserial     PRIMARY KEY,
  settle_month      char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  scope             varchar(10)   NOT NULL CHECK (scope IN ('AGENT', 'ORG')),
  org_id            bigint        NOT NULL,
  agent_id          bigint,
  grade_id          bigint,
  months_count      integer       NOT NULL DEFAULT 0,
  new_contracts     integer       NOT NULL DEFAULT 0,
  new_premium       numeric(18,2) NOT NULL DEFAULT 0,
  recruit_total     numeric(18,2) NOT NULL DEFAULT 0,
  maintain_total    numeric(18,2) NOT NULL DEFAULT 0,
  override_total    numeric(18,2) NOT NULL DEFAULT 0,
  chargeback_total  numeric(18,2) NOT NULL DEFAULT 0,
  gross_total       numeric(18,2) NOT NULL DEFAULT 0,
  tax_total         numeric(18,2) NOT NULL DEFAULT 0,
  net_total         numeric(18,2) NOT NULL DEFAULT 0,
  refresh_id        bigint        NOT NULL,
  CHECK ((scope = 'AGENT') = (agent_id IS NOT NULL))
);
-- subject = the agent (AGENT) or the organization (ORG)
CREATE UNIQUE INDEX kpi_cumulative_key_uq ON kpi_cumulative (settle_month, scope, (coalesce(agent_id, org_id)));
CREATE INDEX kpi_cumulative_agent_idx ON kpi_cumulative (agent_id, settle_month) WHERE agent_id IS NOT NULL;
COMMENT ON TABLE kpi_cumulative IS 'Year-to-date sums (January to settle_month of the same year)';
COMMENT ON COLUMN kpi_cumulative.months_count IS 'Months of the year with a row for the agent or organization';

-- ---------------------------------------------------------------------------------------------
-- kpi_retention: persistency of a cohort (contracts dated in cohort_month) 13 or 25 months later.
CREATE TABLE kpi_retention (
  retention_id   bigserial    PRIMARY KEY,
  cohort_month   char(6)      NOT NULL CHECK (cohort_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  horizon        smallint     NOT NULL CHECK (horizon IN (13, 25)),
  measure_month  char(6)      NOT NULL CHECK (measure_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  scope          varchar(10)  NOT NULL CHECK (scope IN ('TOTAL', 'ORG', 'AGENT')),
  org_id         bigint,
  agent_id       bigint,
  cohort_count   integer      NOT NULL CHECK (cohort_count > 0),
  retained_count integer      NOT NULL CHECK (retained_count >= 0),
  retention_rate numeric(7,4) NOT NULL,
  refreshed_at   timestamptz  NOT NULL DEFAULT now(),
  CHECK ((scope = 'AGENT') = (agent_id IS NOT NULL)),
  CHECK ((scope = 'TOTAL') = (org_id IS NULL))
);
CREATE UNIQUE INDEX kpi_retention_key_uq ON kpi_retention (cohort_month, horizon, scope, (coalesce(agent_id, org_id, 0)));
CREATE INDEX kpi_retention_measure_idx ON kpi_retention (measure_month);
COMMENT ON TABLE kpi_retention IS 'Retention (persistency): share of a cohort''s contracts in force 13 / 25 months after their contract date';
COMMENT ON COLUMN kpi_retention.measure_month IS 'cohort_month + horizon: the refresh of this month computes the row';
COMMENT ON COLUMN kpi_retention.org_id IS 'ORG: the organization (subtree rolled up); AGENT: the agent''s organization';
COMMENT ON COLUMN kpi_retention.retention_rate IS 'retained_count / cohort_count x 100, HALF_UP to 4 places (percent)';

-- ---------------------------------------------------------------------------------------------
-- kpi_chargeback_exposure: per agent and month, what a lapse of every in-force contract would cost.
CREATE TABLE kpi_chargeback_exposure (
  exposure_id             bigserial     PRIMARY KEY,
  settle_month            char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  agent_id                bigint        NOT NULL,
  org_id                  bigint        NOT NULL,
  grade_id                bigint        NOT NULL,
  as_of_date              date          NOT NULL,
  in_force_contracts      integer       NOT NULL DEFAULT 0,
  paid_commission         numeric(18,2) NOT NULL DEFAULT 0,
  exposure_amount         numeric(18,2) NOT NULL DEFAULT 0,
  installments_due_count  integer       NOT NULL DEFAULT 0,
  installments_due_amount numeric(18,2) NOT NULL DEFAULT 0,
  refresh_id              bigint        NOT NULL,
  CONSTRAINT kpi_chargeback_exposure_key_uq UNIQUE (settle_month, agent_id)
);
CREATE INDEX kpi_chargeback_exposure_org_idx ON kpi_chargeback_exposure (org_id, settle_month);
COMMENT ON TABLE kpi_chargeback_exposure IS 'Chargeback risk: rule 7 bands applied to the commission paid so far on every in-force contract, plus scheduled installments';
COMMENT ON COLUMN kpi_chargeback_exposure.as_of_date IS 'Last day of the settle month: months elapsed and band validity are taken on it';
COMMENT ON COLUMN kpi_chargeback_exposure.paid_commission IS 'agent_amount of recruit and maintain ledger rows up to the month on the in-force contracts';
COMMENT ON COLUMN kpi_chargeback_exposure.exposure_amount IS 'Sum over contracts of round0(paid x band percent / 100) (rule 7)';
COMMENT ON COLUMN kpi_chargeback_exposure.installments_due_amount IS 'Chargeback installments scheduled after the month (not cancelled)';

-- ---------------------------------------------------------------------------------------------
-- retention_anomaly_alert (spec 2.7)
CREATE TABLE retention_anomaly_alert (
  alert_id       bigserial     PRIMARY KEY,
  cohort_month   char(6)       NOT NULL CHECK (cohort_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  horizon        smallint      NOT NULL CHECK (horizon IN (13, 25)),
  scope          varchar(10)   NOT NULL CHECK (scope IN ('ORG', 'AGENT')),
  org_id         bigint        NOT NULL,
  agent_id       bigint,
  alert_type     varchar(20)   NOT NULL CHECK (alert_type IN ('BELOW_THRESHOLD', 'DROP')),
  retention_rate numeric(7,4)  NOT NULL,
  previous_rate  numeric(7,4),
  threshold      numeric(7,4),
  drop_points    numeric(7,4),
  cohort_count   integer       NOT NULL,
  retained_count integer       NOT NULL,
  status         varchar(10)   NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'REVIEWED')),
  review_note    varchar(1000),
  reviewed_by    bigint,
  reviewed_at    timestamptz,
  detected_at    timestamptz   NOT NULL DEFAULT now(),
  version        integer       NOT NULL DEFAULT 0,
  created_at     timestamptz   NOT NULL DEFAULT now(),
  updated_at     timestamptz   NOT NULL DEFAULT now(),
  CHECK ((scope = 'AGENT') = (agent_id IS NOT NULL)),
  CHECK ((status = 'REVIEWED') = (reviewed_at IS NOT NULL))
);
-- Detection is idempotent per cohort: one alert per (cohort, horizon, subject, type).
CREATE UNIQUE INDEX retention_anomaly_alert_key_uq
  ON retention_anomaly_alert (cohort_month, horizon, scope, (coalesce(agent_id, org_id)), alert_type);
CREATE INDEX retention_anomaly_alert_status_idx ON retention_anomaly_alert (status, cohort_month);
COMMENT ON TABLE retention_anomaly_alert IS 'Retention below RETENTION_ALERT_13M/25M or down >= RETENTION_ALERT_DROP points from the previous cohort';
COMMENT ON COLUMN retention_anomaly_alert.previous_rate IS 'Rate of the previous cohort month (same subject and horizon), when known';
COMMENT ON COLUMN retention_anomaly_alert.threshold IS 'BELOW_THRESHOLD: the configured threshold (percent)';
COMMENT ON COLUMN retention_anomaly_alert.drop_points IS 'previous_rate - retention_rate (points)';
COMMENT ON COLUMN retention_anomaly_alert.status IS 'OPEN -> REVIEWED (with a note)';

-- ---------------------------------------------------------------------------------------------
-- forecast_kpi_monthly (spec 2.7): next month's gross per organization.
CREATE TABLE forecast_kpi_monthly (
  forecast_id     bigserial     PRIMARY KEY,
  org_id          bigint        NOT NULL,
  base_month      char(6)       NOT NULL CHECK (base_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  forecast_month  char(6)       NOT NULL CHECK (forecast_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  method          varchar(10)   NOT NULL CHECK (method IN ('MA3', 'MA6', 'NAIVE')),
  window_months   smallint      NOT NULL,
  months_used     jsonb         NOT NULL,
  forecast_gross  numeric(18,2) NOT NULL,
  actual_gross    numeric(18,2),
  backtest_mape   numeric(9,4),
  backtest_months smallint      NOT NULL DEFAULT 0,
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now(),
  created_by      bigint,
  updated_by      bigint,
  CONSTRAINT forecast_kpi_monthly_key_uq UNIQUE (org_id, forecast_month, method)
);
CREATE INDEX forecast_kpi_monthly_month_idx ON forecast_kpi_monthly (forecast_month, method);
COMMENT ON TABLE forecast_kpi_monthly IS 'Forecast of an organization''s gross for the month after base_month';
COMMENT ON COLUMN forecast_kpi_monthly.window_months IS 'Months of the method: MA3 3, MA6 6, NAIVE 1';
COMMENT ON COLUMN forecast_kpi_monthly.months_used IS 'Settle months whose gross was averaged (JSON array of YYYYMM)';
COMMENT ON COLUMN forecast_kpi_monthly.actual_gross IS 'The organization''s gross of forecast_month, set by that month''s KPI refresh';
COMMENT ON COLUMN forecast_kpi_monthly.backtest_mape IS 'Mean absolute percentage error of the method over the last 6 months up to base_month (percent)';
COMMENT ON COLUMN forecast_kpi_monthly.backtest_months IS 'Months the MAPE was taken over (months with an actual of 0 or no history are left out)';

-- ---------------------------------------------------------------------------------------------
-- Configuration read by the anomaly detection (defaults of DECISIONS "Analytics definitions").
INSERT INTO system_config (config_key, config_value, config_group, description, is_encrypted) VALUES
  ('RETENTION_ALERT_13M',   '80', 'ANALYTICS', 'Alert when a 13-month retention rate is below this (percent)', 'N'),
  ('RETENTION_ALERT_25M',   '65', 'ANALYTICS', 'Alert when a 25-month retention rate is below this (percent)', 'N'),
  ('RETENTION_ALERT_DROP',  '10', 'ANALYTICS', 'Alert when a retention rate falls by at least this many points from the previous cohort', 'N')
ON CONFLICT (config_key) DO NOTHING;
