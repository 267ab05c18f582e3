-- Ledgers and settlement (spec 1.2 rules 2-4 and 10, 1.3 steps 4-8, 2.6, DECISIONS "Settlement semantics").
-- Owned by ledger-settlement. Written by batch steps 4-8 (calcRecruit, calcMaintain, chargebackException,
-- calcOverride, aggregate); intake's transformData (step 2) writes the insurer-reported figures onto
-- recruit_ledger / maintain_ledger rows (reported_premium, reported_company_amount, raw_id).
-- Money numeric(15,2), rates numeric(7,4) in percent. The calc_basis JSON shapes are documented in
-- services/ledger-settlement/STEPS.md. raw_id and run_id carry no foreign key: raw data lives in a later
-- migration (V031) and batch logs may be purged.

-- ---------------------------------------------------------------------------------------------
-- recruit_ledger (commission_year 1) and maintain_ledger (commission_years 2..5): same columns.
CREATE TABLE recruit_ledger (
  ledger_id               bigserial     PRIMARY KEY,
  contract_id             bigint        NOT NULL REFERENCES contract (contract_id),
  agent_id                bigint        NOT NULL REFERENCES agent (agent_id),
  policy_no               varchar(50),
  company_code            varchar(20),
  product_code            varchar(30),
  insurance_type          varchar(30),
  commission_year         integer       NOT NULL CHECK (commission_year >= 1),
  premium                 numeric(15,2) NOT NULL DEFAULT 0,
  pay_method              varchar(12),
  company_rate            numeric(7,4)  NOT NULL DEFAULT 0,
  company_amount          numeric(15,2) NOT NULL DEFAULT 0,
  payout_rate             numeric(7,4)  NOT NULL DEFAULT 0,
  agent_amount            numeric(15,2) NOT NULL DEFAULT 0,
  tax_amount              numeric(15,2) NOT NULL DEFAULT 0,
  reported_premium        numeric(15,2),
  reported_company_amount numeric(15,2),
  reconcile_status        varchar(10)   NOT NULL DEFAULT 'PENDING' CHECK (reconcile_status IN ('PENDING', 'MATCHED', 'DIFF')),
  reconcile_diff          numeric(15,2),
  advance_yn              char(1)       NOT NULL DEFAULT 'N' CHECK (advance_yn IN ('Y', 'N')),
  advance_amount          numeric(15,2) NOT NULL DEFAULT 0,
  chargeback_yn           char(1)       NOT NULL DEFAULT 'N' CHECK (chargeback_yn IN ('Y', 'N')),
  settle_month            char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  status                  varchar(12)   NOT NULL DEFAULT 'CALCULATED' CHECK (status IN ('CALCULATED', 'CONFIRMED', 'HOLD', 'PAID')),
  raw_id                  bigint,
  run_id                  bigint,
  calc_basis              jsonb,
  version                 integer       NOT NULL DEFAULT 0,
  created_at              timestamptz   NOT NULL DEFAULT now(),
  updated_at              timestamptz   NOT NULL DEFAULT now(),
  created_by              bigint,
  updated_by              bigint,
  CONSTRAINT recruit_ledger_key_uq UNIQUE (contract_id, settle_month, commission_year)
);
CREATE INDEX recruit_ledger_month_agent_idx ON recruit_ledger (settle_month, agent_id);
CREATE INDEX recruit_ledger_agent_month_idx ON recruit_ledger (agent_id, settle_month);
CREATE INDEX recruit_ledger_raw_idx ON recruit_ledger (raw_id) WHERE raw_id IS NOT NULL;

CREATE TABLE maintain_ledger (
  ledger_id               bigserial     PRIMARY KEY,
  contract_id             bigint        NOT NULL REFERENCES contract (contract_id),
  agent_id                bigint        NOT NULL REFERENCES agent (agent_id),
  policy_no               varchar(50),
  company_code            varchar(20),
  product_code            varchar(30),
  insurance_type          varchar(30),
  commission_year         integer       NOT NULL CHECK (commission_year >= 1),
  premium                 numeric(15,2) NOT NULL DEFAULT 0,
  pay_method              varchar(12),
  company_rate            numeric(7,4)  NOT NULL DEFAULT 0,
  company_amount          numeric(15,2) NOT NULL DEFAULT 0,
  payout_rate             numeric(7,4)  NOT NULL DEFAULT 0,
  agent_amount            numeric(15,2) NOT NULL DEFAULT 0,
  tax_amount              numeric(15,2) NOT NULL DEFAULT 0,
  reported_premium        numeric(15,2),
  reported_company_amount numeric(15,2),
  reconcile_status        varchar(10)   NOT NULL DEFAULT 'PENDING' CHECK (reconcile_status IN ('PENDING', 'MATCHED', 'DIFF')),
  reconcile_diff          numeric(15,2),
  advance_yn              char(1)       NOT NULL DEFAULT 'N' CHECK (advance_yn IN ('Y', 'N')),
  advance_amount          numeric(15,2) NOT NULL DEFAULT 0,
  chargeback_yn           char(1)       NOT NULL DEFAULT 'N' CHECK (chargeback_yn IN ('Y', 'N')),
  settle_month            char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  status                  varchar(12)   NOT NULL DEFAULT 'CALCULATED' CHECK (status IN ('CALCULATED', 'CONFIRMED', 'HOLD', 'PAID')),
  raw_id                  bigint,
  run_id                  bigint,
  calc_basis              jsonb,
  version                 integer       NOT NULL DEFAULT 0,
  created_at              timestamptz   NOT NULL DEFAULT now(),
  updated_at              timestamptz   NOT NULL DEFAULT now(),
  created_by              bigint,
  updated_by              bigint,
  CONSTRAINT maintain_ledger_key_uq UNIQUE (contract_id, settle_month, commission_year)
);
CREATE INDEX maintain_ledger_month_agent_idx ON maintain_ledger (settle_month, agent_id);
CREATE INDEX maintain_ledger_agent_month_idx ON maintain_ledger (agent_id, settle_month);
CREATE INDEX maintain_ledger_raw_idx ON maintain_ledger (raw_id) WHERE raw_id IS NOT NULL;

COMMENT ON TABLE recruit_ledger IS 'Recruit commission (rule 2, commission_year 1): one row per (contract, settle month, year); system figures by calcRecruit, insurer figures by transformData.';
COMMENT ON TABLE maintain_ledger IS 'Maintain commission (rules 3 and 10, commission_year 2..5): one row per (contract, settle month, year); agent_id is the successor when a succession is effective.';

-- ---------------------------------------------------------------------------------------------
-- exception_ledger: manual and batch-created (recurring) additions/deductions, approved before they count.
CREATE TABLE exception_ledger (
  ledger_id           bigserial     PRIMARY KEY,
  agent_id            bigint        NOT NULL REFERENCES agent (agent_id),
  contract_id         bigint        REFERENCES contract (contract_id),
  policy_no           varchar(50),
  company_code        varchar(20),
  product_code        varchar(30),
  insurance_type      varchar(30),
  settle_month        char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  exception_code      varchar(30)   NOT NULL REFERENCES exception_type_code (exception_code) ON UPDATE CASCADE,
  direction           varchar(10)   NOT NULL CHECK (direction IN ('PLUS', 'MINUS')),
  amount              numeric(15,2) NOT NULL CHECK (amount >= 0),
  tax_amount          numeric(15,2) NOT NULL DEFAULT 0,
  reason              varchar(1000),
  status              varchar(12)   NOT NULL DEFAULT 'NEW' CHECK (status IN ('NEW', 'APPLIED', 'CANCELLED')),
  approve_status      varchar(12)   NOT NULL DEFAULT 'PENDING' CHECK (approve_status IN ('PENDING', 'APPROVED', 'REJECTED', 'CANCELLED')),
  approver_id         bigint,
  approve_date        timestamptz,
  reject_reason       varchar(1000),
  recurring_yn        char(1)       NOT NULL DEFAULT 'N' CHECK (recurring_yn IN ('Y', 'N')),
  recurring_until     char(6)       CHECK (recurring_until ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  recurring_parent_id bigint        REFERENCES exception_ledger (ledger_id),
  source              varchar(10)   NOT NULL DEFAULT 'MANUAL' CHECK (source IN ('MANUAL', 'AUTO')),
  run_id              bigint,
  calc_basis          jsonb,
  version             integer       NOT NULL DEFAULT 0,
  created_at          timestamptz   NOT NULL DEFAULT now(),
  updated_at          timestamptz   NOT NULL DEFAULT now(),
  created_by          bigint,
  updated_by          bigint,
  CONSTRAINT exception_ledger_recurring_ck CHECK (recurring_yn = 'N' OR recurring_until IS NOT NULL)
);
CREATE INDEX exception_ledger_month_agent_idx ON exception_ledger (settle_month, agent_id);
CREATE INDEX exception_ledger_agent_month_idx ON exception_ledger (agent_id, settle_month);
CREATE INDEX exception_ledger_pending_idx ON exception_ledger (settle_month) WHERE approve_status = 'PENDING';
CREATE INDEX exception_ledger_recurring_idx ON exception_ledger (recurring_until) WHERE recurring_yn = 'Y';
-- one batch-created child per recurring parent and month
CREATE UNIQUE INDEX exception_ledger_child_uq ON exception_ledger (recurring_parent_id, settle_month) WHERE recurring_parent_id IS NOT NULL;
COMMENT ON TABLE exception_ledger IS 'Exception additions (PLUS) and deductions (MINUS) per agent and month; only APPROVED rows count in the aggregate.';

-- ---------------------------------------------------------------------------------------------
-- settle_master: one row per agent and month (rule 4).
CREATE TABLE settle_master (
  settle_id        bigserial     PRIMARY KEY,
  agent_id         bigint        NOT NULL REFERENCES agent (agent_id),
  settle_month     char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  recruit_total    numeric(15,2) NOT NULL DEFAULT 0,
  maintain_total   numeric(15,2) NOT NULL DEFAULT 0,
  exception_plus   numeric(15,2) NOT NULL DEFAULT 0,
  exception_minus  numeric(15,2) NOT NULL DEFAULT 0,
  override_total   numeric(15,2) NOT NULL DEFAULT 0,
  chargeback_total numeric(15,2) NOT NULL DEFAULT 0,
  gross_amount     numeric(15,2) NOT NULL DEFAULT 0,
  tax_amount       numeric(15,2) NOT NULL DEFAULT 0,
  net_amount       numeric(15,2) NOT NULL DEFAULT 0,
  status           varchar(12)   NOT NULL DEFAULT 'CALCULATED' CHECK (status IN ('CALCULATED', 'CONFIRMED', 'HOLD', 'PAID')),
  calc_date        timestamptz,
  confirmed_by     bigint,
  confirmed_at     timestamptz,
  hold_reason      varchar(1000),
  hold_reason_code varchar(30),
  released_by      bigint,
  released_at      timestamptz,
  run_id           bigint,
  calc_basis       jsonb,
  version          integer       NOT NULL DEFAULT 0,
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  created_by       bigint,
  updated_by       bigint,
  CONSTRAINT settle_master_agent_month_uq UNIQUE (agent_id, settle_month)
);
CREATE INDEX settle_master_month_status_idx ON settle_master (settle_month, status);
COMMENT ON TABLE settle_master IS 'Monthly settlement per agent (rule 4): gross = recruit + maintain + override + exception_plus - chargeback - exception_minus.';

-- ---------------------------------------------------------------------------------------------
-- override_settle: override paid to an upper agent on a lower agent's month (step 7).
CREATE TABLE override_settle (
  os_id            bigserial     PRIMARY KEY,
  settle_id        bigint        REFERENCES settle_master (settle_id) ON DELETE SET NULL,
  settle_month     char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  from_agent_id    bigint        NOT NULL REFERENCES agent (agent_id),
  to_agent_id      bigint        NOT NULL REFERENCES agent (agent_id),
  override_rule_id bigint        NOT NULL REFERENCES override_rule (override_id),
  base_amount      numeric(15,2) NOT NULL,
  override_pct     numeric(7,4)  NOT NULL,
  override_amount  numeric(15,2) NOT NULL,
  capped           boolean       NOT NULL DEFAULT false,
  calc_basis       jsonb,
  run_id           bigint,
  status           varchar(12)   NOT NULL DEFAULT 'CALCULATED' CHECK (status IN ('CALCULATED', 'CONFIRMED', 'HOLD', 'PAID')),
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT override_settle_key_uq UNIQUE (settle_month, from_agent_id, to_agent_id, override_rule_id),
  CONSTRAINT override_settle_agents_ck CHECK (from_agent_id <> to_agent_id)
);
CREATE INDEX override_settle_month_to_idx ON override_settle (settle_month, to_agent_id);
CREATE INDEX override_settle_from_month_idx ON override_settle (from_agent_id, settle_month);
CREATE INDEX override_settle_settle_idx ON override_settle (settle_id) WHERE settle_id IS NOT NULL;
COMMENT ON TABLE override_settle IS 'Overrides of a month: to_agent_id receives min(pct(base, override_pct), cap) on from_agent_id''s recruit + maintain sum.';

-- ---------------------------------------------------------------------------------------------
-- chargeback: commission recovered after a lapse, possibly in installments (step 6).
CREATE TABLE chargeback (
  cb_id             bigserial     PRIMARY KEY,
  contract_id       bigint        NOT NULL REFERENCES contract (contract_id),
  agent_id          bigint        NOT NULL REFERENCES agent (agent_id),
  settle_month      char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  lapse_month       char(6)       NOT NULL CHECK (lapse_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  lapse_date        date,
  lapse_month_diff  integer       NOT NULL,
  base_amount       numeric(15,2) NOT NULL,
  cb_rate           numeric(7,4)  NOT NULL,
  cb_amount         numeric(15,2) NOT NULL CHECK (cb_amount >= 0),
  installment_seq   integer       NOT NULL DEFAULT 1 CHECK (installment_seq >= 1),
  installment_total integer       NOT NULL DEFAULT 1 CHECK (installment_total >= 1),
  cb_rule_id        bigint        REFERENCES chargeback_rule (cb_rule_id),
  status            varchar(12)   NOT NULL DEFAULT 'CALCULATED' CHECK (status IN ('CALCULATED', 'CONFIRMED', 'CANCELLED')),
  calc_basis        jsonb,
  run_id            bigint,
  created_at        timestamptz   NOT NULL DEFAULT now(),
  updated_at        timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT chargeback_key_uq UNIQUE (contract_id, lapse_month, installment_seq),
  CONSTRAINT chargeback_seq_ck CHECK (installment_seq <= installment_total)
);
CREATE INDEX chargeback_month_agent_idx ON chargeback (settle_month, agent_id);
CREATE INDEX chargeback_agent_month_idx ON chargeback (agent_id, settle_month);
CREATE INDEX chargeback_lapse_month_idx ON chargeback (lapse_month);
COMMENT ON TABLE chargeback IS 'Chargeback installments of lapsed contracts; settle_month is the month the installment is due (counted by that month''s aggregate).';

-- ---------------------------------------------------------------------------------------------
-- Column comments (same wording for both commission ledgers).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['recruit_ledger', 'maintain_ledger'] LOOP
    EXECUTE format('COMMENT ON COLUMN %I.ledger_id IS %L', t, 'Ledger row identifier');
    EXECUTE format('COMMENT ON COLUMN %I.contract_id IS %L', t, 'Contract');
    EXECUTE format('COMMENT ON COLUMN %I.agent_id IS %L', t, 'Agent paid: recruiting agent (recruit) or successor when a succession is effective (maintain)');
    EXECUTE format('COMMENT ON COLUMN %I.policy_no IS %L', t, 'Policy number (copied from the contract)');
    EXECUTE format('COMMENT ON COLUMN %I.company_code IS %L', t, 'Carrier code of the product');
    EXECUTE format('COMMENT ON COLUMN %I.product_code IS %L', t, 'Carrier product code');
    EXECUTE format('COMMENT ON COLUMN %I.insurance_type IS %L', t, 'Insurance type of the product (payout rule key)');
    EXECUTE format('COMMENT ON COLUMN %I.commission_year IS %L', t, '1 = recruit, 2 to 5 = maintain');
    EXECUTE format('COMMENT ON COLUMN %I.premium IS %L', t, 'Contract premium the system figures are computed on');
    EXECUTE format('COMMENT ON COLUMN %I.pay_method IS %L', t, 'Pay cycle of the contract (MONTHLY, QUARTERLY, SEMI_ANNUAL, ANNUAL, SINGLE)');
    EXECUTE format('COMMENT ON COLUMN %I.company_rate IS %L', t, 'Company commission rate (%) of the year, as of the contract date; missing = 0');
    EXECUTE format('COMMENT ON COLUMN %I.company_amount IS %L', t, 'pct(premium, company_rate)');
    EXECUTE format('COMMENT ON COLUMN %I.payout_rate IS %L', t, 'Payout rate (%) of the agent''s grade, insurance type and year; missing = 0');
    EXECUTE format('COMMENT ON COLUMN %I.agent_amount IS %L', t, 'pct(company_amount, payout_rate): the commission counted in the settlement');
    EXECUTE format('COMMENT ON COLUMN %I.tax_amount IS %L', t, 'pct(agent_amount, 3.3)');
    EXECUTE format('COMMENT ON COLUMN %I.reported_premium IS %L', t, 'Premium reported by the carrier (transformData); NULL = not reported');
    EXECUTE format('COMMENT ON COLUMN %I.reported_company_amount IS %L', t, 'Company commission reported by the carrier (transformData); NULL = not reported');
    EXECUTE format('COMMENT ON COLUMN %I.reconcile_status IS %L', t, 'PENDING (nothing reported or not computed yet), MATCHED (|diff| <= RECON_DIFF_THRESHOLD), DIFF');
    EXECUTE format('COMMENT ON COLUMN %I.reconcile_diff IS %L', t, 'reported_company_amount - company_amount; NULL when nothing was reported');
    EXECUTE format('COMMENT ON COLUMN %I.advance_yn IS %L', t, 'Y when the commission was advanced');
    EXECUTE format('COMMENT ON COLUMN %I.advance_amount IS %L', t, 'Amount advanced');
    EXECUTE format('COMMENT ON COLUMN %I.chargeback_yn IS %L', t, 'Y when the row is subject to a chargeback');
    EXECUTE format('COMMENT ON COLUMN %I.settle_month IS %L', t, 'Settle month YYYYMM');
    EXECUTE format('COMMENT ON COLUMN %I.status IS %L', t, 'CALCULATED (recomputed by a re-run), CONFIRMED, HOLD, PAID (left untouched)');
    EXECUTE format('COMMENT ON COLUMN %I.raw_id IS %L', t, 'raw_commission_data row the carrier figures came from (NULL = computed only)');
    EXECUTE format('COMMENT ON COLUMN %I.run_id IS %L', t, 'batch_job_log run that last computed the row');
    EXECUTE format('COMMENT ON COLUMN %I.calc_basis IS %L', t, 'Inputs of the calculation (rate ids, rates, dates); shape in services/ledger-settlement/STEPS.md');
    EXECUTE format('COMMENT ON COLUMN %I.version IS %L', t, 'Optimistic lock counter, +1 per recalculation');
  END LOOP;
END $$;

COMMENT ON COLUMN exception_ledger.ledger_id IS 'Exception row identifier';
COMMENT ON COLUMN exception_ledger.agent_id IS 'Agent the addition/deduction applies to';
COMMENT ON COLUMN exception_ledger.contract_id IS 'Contract concerned (optional)';
COMMENT ON COLUMN exception_ledger.settle_month IS 'Settle month YYYYMM the row counts in';
COMMENT ON COLUMN exception_ledger.exception_code IS 'Exception type (exception_type_code)';
COMMENT ON COLUMN exception_ledger.direction IS 'PLUS (exception_plus) or MINUS (exception_minus); copied from the type';
COMMENT ON COLUMN exception_ledger.amount IS 'Amount, >= 0; the direction gives the sign';
COMMENT ON COLUMN exception_ledger.reason IS 'Free-text reason';
COMMENT ON COLUMN exception_ledger.status IS 'NEW, APPLIED, CANCELLED (only NEW is used by the service)';
COMMENT ON COLUMN exception_ledger.approve_status IS 'PENDING, APPROVED, REJECTED; only APPROVED rows count in the aggregate';
COMMENT ON COLUMN exception_ledger.approver_id IS 'User who approved or rejected';
COMMENT ON COLUMN exception_ledger.approve_date IS 'Approval or rejection time';
COMMENT ON COLUMN exception_ledger.reject_reason IS 'Reason of a rejection';
COMMENT ON COLUMN exception_ledger.recurring_yn IS 'Y: the batch creates a child row every month up to recurring_until';
COMMENT ON COLUMN exception_ledger.recurring_until IS 'Last settle month (YYYYMM) of a recurring exception';
COMMENT ON COLUMN exception_ledger.recurring_parent_id IS 'The recurring row this batch-created row continues';
COMMENT ON COLUMN exception_ledger.source IS 'MANUAL (entered) or AUTO (created by chargebackException)';
COMMENT ON COLUMN exception_ledger.run_id IS 'batch_job_log run that created an AUTO row';
COMMENT ON COLUMN exception_ledger.calc_basis IS 'Why an AUTO row was created; shape in services/ledger-settlement/STEPS.md';

COMMENT ON COLUMN settle_master.settle_id IS 'Settlement identifier';
COMMENT ON COLUMN settle_master.agent_id IS 'Agent settled';
COMMENT ON COLUMN settle_master.settle_month IS 'Settle month YYYYMM (unique with agent_id)';
COMMENT ON COLUMN settle_master.recruit_total IS 'Sum of recruit_ledger.agent_amount of the agent and month';
COMMENT ON COLUMN settle_master.maintain_total IS 'Sum of maintain_ledger.agent_amount of the agent and month (follows successions)';
COMMENT ON COLUMN settle_master.exception_plus IS 'Sum of APPROVED PLUS exception_ledger amounts';
COMMENT ON COLUMN settle_master.exception_minus IS 'Sum of APPROVED MINUS exception_ledger amounts';
COMMENT ON COLUMN settle_master.override_total IS 'Sum of override_settle.override_amount received';
COMMENT ON COLUMN settle_master.chargeback_total IS 'Sum of chargeback installments due in the month';
COMMENT ON COLUMN settle_master.gross_amount IS 'recruit + maintain + override + exception_plus - chargeback - exception_minus';
COMMENT ON COLUMN settle_master.tax_amount IS 'pct(gross, TAX_RATE)';
COMMENT ON COLUMN settle_master.net_amount IS 'gross - tax';
COMMENT ON COLUMN settle_master.status IS 'CALCULATED (recomputed by a re-run), CONFIRMED, HOLD, PAID (left untouched by the batch)';
COMMENT ON COLUMN settle_master.calc_date IS 'Time of the last calculation';
COMMENT ON COLUMN settle_master.confirmed_by IS 'User who confirmed';
COMMENT ON COLUMN settle_master.confirmed_at IS 'Confirmation time';
COMMENT ON COLUMN settle_master.hold_reason IS 'Reason of a hold';
COMMENT ON COLUMN settle_master.hold_reason_code IS 'Hold reason (common code HOLD_REASON)';
COMMENT ON COLUMN settle_master.released_by IS 'User who released the hold';
COMMENT ON COLUMN settle_master.released_at IS 'Release time';
COMMENT ON COLUMN settle_master.run_id IS 'batch_job_log run that last computed the row';
COMMENT ON COLUMN settle_master.calc_basis IS 'Aggregate inputs (tax rate, row counts); shape in services/ledger-settlement/STEPS.md';
COMMENT ON COLUMN settle_master.version IS 'Optimistic lock counter';

COMMENT ON COLUMN override_settle.os_id IS 'Override row identifier';
COMMENT ON COLUMN override_settle.settle_id IS 'Receiver''s settle_master row (set by the aggregate step; empty before)';
COMMENT ON COLUMN override_settle.settle_month IS 'Settle month YYYYMM';
COMMENT ON COLUMN override_settle.from_agent_id IS 'Lower agent whose month is the base';
COMMENT ON COLUMN override_settle.to_agent_id IS 'Receiver: active agent of to_grade in the nearest organization upward';
COMMENT ON COLUMN override_settle.override_rule_id IS 'override_rule applied';
COMMENT ON COLUMN override_settle.base_amount IS 'Lower agent''s recruit + maintain agent_amount sum of the month';
COMMENT ON COLUMN override_settle.override_pct IS 'Override rate (%)';
COMMENT ON COLUMN override_settle.override_amount IS 'min(pct(base, override_pct), cap_amount)';
COMMENT ON COLUMN override_settle.capped IS 'true when the cap reduced the amount';
COMMENT ON COLUMN override_settle.calc_basis IS 'Rule, rate, cap and organizations walked; shape in services/ledger-settlement/STEPS.md';
COMMENT ON COLUMN override_settle.run_id IS 'batch_job_log run that computed the row';
COMMENT ON COLUMN override_settle.status IS 'CALCULATED, CONFIRMED, HOLD, PAID';

COMMENT ON COLUMN chargeback.cb_id IS 'Chargeback row identifier';
COMMENT ON COLUMN chargeback.contract_id IS 'Lapsed contract';
COMMENT ON COLUMN chargeback.agent_id IS 'Agent charged: the contract''s recruiting agent';
COMMENT ON COLUMN chargeback.settle_month IS 'Month the installment is due (counted by that month''s aggregate)';
COMMENT ON COLUMN chargeback.lapse_month IS 'Settle month the lapse happened in';
COMMENT ON COLUMN chargeback.lapse_date IS 'Lapse date of the contract';
COMMENT ON COLUMN chargeback.lapse_month_diff IS 'monthsElapsed(contract_date, lapse_date)';
COMMENT ON COLUMN chargeback.base_amount IS 'Commission charged back: recruit + maintain agent_amount of the contract up to the lapse month';
COMMENT ON COLUMN chargeback.cb_rate IS 'Chargeback rate (%) of the rule';
COMMENT ON COLUMN chargeback.cb_amount IS 'This installment''s amount (the last installment absorbs the rounding remainder)';
COMMENT ON COLUMN chargeback.installment_seq IS 'Installment number 1..installment_total';
COMMENT ON COLUMN chargeback.installment_total IS 'Number of installments';
COMMENT ON COLUMN chargeback.cb_rule_id IS 'chargeback_rule applied';
COMMENT ON COLUMN chargeback.status IS 'CALCULATED (replaced by a re-run), CONFIRMED (kept), CANCELLED';
COMMENT ON COLUMN chargeback.calc_basis IS 'Rule and base details; shape in services/ledger-settlement/STEPS.md';
COMMENT ON COLUMN chargeback.run_id IS 'batch_job_log run that computed the row';

-- ---------------------------------------------------------------------------------------------
-- Data dictionary rows for the key columns (domain codes of V002; an unknown code leaves domain_code NULL).
INSERT INTO data_dictionary (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
SELECT v.table_name, v.column_name, d.domain_code, v.column_label, v.is_pk, v.is_fk, v.fk_reference, v.business_rule, v.sample_value
FROM (VALUES
  ('recruit_ledger', 'ledger_id', 'ID', 'Ledger ID', 'Y', 'N', NULL, NULL, '1'),
  ('recruit_ledger', 'contract_id', 'ID', 'Contract', 'N', 'Y', 'contract.contract_id', 'Unique with settle_month and commission_year', '1'),
  ('recruit_ledger', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', 'Recruiting agent', '1001'),
  ('recruit_ledger', 'policy_no', 'POLICY_NO', 'Policy number', 'N', 'N', NULL, NULL, 'POL-0001'),
  ('recruit_ledger', 'commission_year', 'COMMISSION_YEAR', 'Commission year', 'N', 'N', NULL, '1 for recruit', '1'),
  ('recruit_ledger', 'premium', 'AMOUNT', 'Premium', 'N', 'N', NULL, 'Contract premium', '100000.00'),
  ('recruit_ledger', 'company_rate', 'RATE', 'Company rate (%)', 'N', 'N', NULL, 'commission_rate as of the contract date; missing = 0', '12.0000'),
  ('recruit_ledger', 'company_amount', 'AMOUNT', 'Company amount', 'N', 'N', NULL, 'pct(premium, company_rate)', '12000.00'),
  ('recruit_ledger', 'payout_rate', 'RATE', 'Payout rate (%)', 'N', 'N', NULL, 'payout_rule of grade, insurance type, year; missing = 0', '60.0000'),
  ('recruit_ledger', 'agent_amount', 'AMOUNT', 'Agent amount', 'N', 'N', NULL, 'pct(company_amount, payout_rate)', '7200.00'),
  ('recruit_ledger', 'tax_amount', 'AMOUNT', 'Tax', 'N', 'N', NULL, 'pct(agent_amount, 3.3)', '237.60'),
  ('recruit_ledger', 'reported_company_amount', 'AMOUNT', 'Reported company amount', 'N', 'N', NULL, 'Carrier figure written by transformData', '12000.00'),
  ('recruit_ledger', 'reconcile_status', 'STATUS', 'Reconcile status', 'N', 'N', NULL, 'PENDING, MATCHED, DIFF (common code RECONCILE_STATUS)', 'MATCHED'),
  ('recruit_ledger', 'reconcile_diff', 'AMOUNT', 'Reconcile difference', 'N', 'N', NULL, 'reported - computed company amount', '0.00'),
  ('recruit_ledger', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('recruit_ledger', 'status', 'STATUS', 'Status', 'N', 'N', NULL, 'CALCULATED, CONFIRMED, HOLD, PAID', 'CALCULATED'),
  ('recruit_ledger', 'calc_basis', 'JSON', 'Calculation basis', 'N', 'N', NULL, 'See STEPS.md', NULL),
  ('maintain_ledger', 'ledger_id', 'ID', 'Ledger ID', 'Y', 'N', NULL, NULL, '1'),
  ('maintain_ledger', 'contract_id', 'ID', 'Contract', 'N', 'Y', 'contract.contract_id', 'Unique with settle_month and commission_year', '1'),
  ('maintain_ledger', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', 'Successor when a succession is effective in the month', '1001'),
  ('maintain_ledger', 'policy_no', 'POLICY_NO', 'Policy number', 'N', 'N', NULL, NULL, 'POL-0001'),
  ('maintain_ledger', 'commission_year', 'COMMISSION_YEAR', 'Commission year', 'N', 'N', NULL, '2 to 5', '2'),
  ('maintain_ledger', 'premium', 'AMOUNT', 'Premium', 'N', 'N', NULL, 'Contract premium', '100000.00'),
  ('maintain_ledger', 'company_rate', 'RATE', 'Company rate (%)', 'N', 'N', NULL, 'commission_rate of the year as of the contract date; missing = 0', '3.0000'),
  ('maintain_ledger', 'company_amount', 'AMOUNT', 'Company amount', 'N', 'N', NULL, 'pct(premium, company_rate)', '3000.00'),
  ('maintain_ledger', 'payout_rate', 'RATE', 'Payout rate (%)', 'N', 'N', NULL, 'payout_rule of the (successor''s) grade, insurance type, year', '50.0000'),
  ('maintain_ledger', 'agent_amount', 'AMOUNT', 'Agent amount', 'N', 'N', NULL, 'pct(company_amount, payout_rate)', '1500.00'),
  ('maintain_ledger', 'tax_amount', 'AMOUNT', 'Tax', 'N', 'N', NULL, 'pct(agent_amount, 3.3)', '49.50'),
  ('maintain_ledger', 'reported_company_amount', 'AMOUNT', 'Reported company amount', 'N', 'N', NULL, 'Carrier figure written by transformData', '3000.00'),
  ('maintain_ledger', 'reconcile_status', 'STATUS', 'Reconcile status', 'N', 'N', NULL, 'PENDING, MATCHED, DIFF', 'MATCHED'),
  ('maintain_ledger', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('maintain_ledger', 'status', 'STATUS', 'Status', 'N', 'N', NULL, 'CALCULATED, CONFIRMED, HOLD, PAID', 'CALCULATED'),
  ('maintain_ledger', 'calc_basis', 'JSON', 'Calculation basis', 'N', 'N', NULL, 'See STEPS.md', NULL),
  ('exception_ledger', 'ledger_id', 'ID', 'Exception ID', 'Y', 'N', NULL, NULL, '1'),
  ('exception_ledger', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', NULL, '1001'),
  ('exception_ledger', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('exception_ledger', 'exception_code', 'CODE', 'Exception type', 'N', 'Y', 'exception_type_code.exception_code', NULL, 'BONUS_SPECIAL'),
  ('exception_ledger', 'direction', 'CODE', 'Direction', 'N', 'N', NULL, 'PLUS or MINUS', 'PLUS'),
  ('exception_ledger', 'amount', 'AMOUNT', 'Amount', 'N', 'N', NULL, '>= 0', '50000.00'),
  ('exception_ledger', 'approve_status', 'APPROVE_STATUS', 'Approval status', 'N', 'N', NULL, 'Only APPROVED counts in the aggregate', 'PENDING'),
  ('exception_ledger', 'approver_id', 'AUDIT_USER', 'Approver', 'N', 'N', NULL, NULL, '1'),
  ('exception_ledger', 'approve_date', 'DATETIME', 'Approval time', 'N', 'N', NULL, NULL, NULL),
  ('exception_ledger', 'recurring_yn', 'YN', 'Recurring', 'N', 'N', NULL, 'Y: continued monthly by the batch', 'N'),
  ('exception_ledger', 'recurring_until', 'SETTLE_MONTH', 'Recurring until', 'N', 'N', NULL, 'Required when recurring_yn = Y', '202512'),
  ('exception_ledger', 'recurring_parent_id', 'ID', 'Recurring parent', 'N', 'Y', 'exception_ledger.ledger_id', 'One child per parent and month', NULL),
  ('exception_ledger', 'source', 'CODE', 'Source', 'N', 'N', NULL, 'MANUAL or AUTO', 'MANUAL'),
  ('settle_master', 'settle_id', 'ID', 'Settlement ID', 'Y', 'N', NULL, NULL, '1'),
  ('settle_master', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', 'Unique with settle_month', '1001'),
  ('settle_master', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('settle_master', 'recruit_total', 'AMOUNT', 'Recruit total', 'N', 'N', NULL, NULL, '7200.00'),
  ('settle_master', 'maintain_total', 'AMOUNT', 'Maintain total', 'N', 'N', NULL, NULL, '1500.00'),
  ('settle_master', 'exception_plus', 'AMOUNT', 'Exception plus', 'N', 'N', NULL, 'APPROVED only', '0.00'),
  ('settle_master', 'exception_minus', 'AMOUNT', 'Exception minus', 'N', 'N', NULL, 'APPROVED only', '0.00'),
  ('settle_master', 'override_total', 'AMOUNT', 'Override total', 'N', 'N', NULL, 'As receiver', '0.00'),
  ('settle_master', 'chargeback_total', 'AMOUNT', 'Chargeback total', 'N', 'N', NULL, 'Installments due in the month', '0.00'),
  ('settle_master', 'gross_amount', 'AMOUNT', 'Gross', 'N', 'N', NULL, 'recruit + maintain + override + plus - chargeback - minus', '8700.00'),
  ('settle_master', 'tax_amount', 'AMOUNT', 'Tax', 'N', 'N', NULL, 'pct(gross, TAX_RATE)', '287.10'),
  ('settle_master', 'net_amount', 'AMOUNT', 'Net', 'N', 'N', NULL, 'gross - tax', '8412.90'),
  ('settle_master', 'status', 'STATUS', 'Status', 'N', 'N', NULL, 'CALCULATED, CONFIRMED, HOLD, PAID (common code SETTLE_STATUS)', 'CALCULATED'),
  ('settle_master', 'hold_reason_code', 'CODE', 'Hold reason', 'N', 'N', NULL, 'Common code HOLD_REASON', NULL),
  ('settle_master', 'calc_basis', 'JSON', 'Calculation basis', 'N', 'N', NULL, 'See STEPS.md', NULL),
  ('override_settle', 'os_id', 'ID', 'Override ID', 'Y', 'N', NULL, NULL, '1'),
  ('override_settle', 'settle_id', 'ID', 'Settlement', 'N', 'Y', 'settle_master.settle_id', 'Set by the aggregate step', NULL),
  ('override_settle', 'from_agent_id', 'ID', 'Lower agent', 'N', 'Y', 'agent.agent_id', NULL, '1001'),
  ('override_settle', 'to_agent_id', 'ID', 'Receiver', 'N', 'Y', 'agent.agent_id', NULL, '1002'),
  ('override_settle', 'override_rule_id', 'ID', 'Override rule', 'N', 'Y', 'override_rule.override_id', NULL, '1'),
  ('override_settle', 'base_amount', 'AMOUNT', 'Base', 'N', 'N', NULL, 'Lower agent''s recruit + maintain', '8700.00'),
  ('override_settle', 'override_pct', 'RATE', 'Override rate (%)', 'N', 'N', NULL, NULL, '5.0000'),
  ('override_settle', 'override_amount', 'AMOUNT', 'Override amount', 'N', 'N', NULL, 'min(pct(base, pct), cap)', '435.00'),
  ('override_settle', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('override_settle', 'calc_basis', 'JSON', 'Calculation basis', 'N', 'N', NULL, 'See STEPS.md', NULL),
  ('chargeback', 'cb_id', 'ID', 'Chargeback ID', 'Y', 'N', NULL, NULL, '1'),
  ('chargeback', 'contract_id', 'ID', 'Contract', 'N', 'Y', 'contract.contract_id', NULL, '1'),
  ('chargeback', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', 'Recruiting agent', '1001'),
  ('chargeback', 'settle_month', 'SETTLE_MONTH', 'Due month', 'N', 'N', NULL, 'Month the installment counts in', '202502'),
  ('chargeback', 'lapse_month', 'SETTLE_MONTH', 'Lapse month', 'N', 'N', NULL, 'Month of the lapse date', '202501'),
  ('chargeback', 'base_amount', 'AMOUNT', 'Base', 'N', 'N', NULL, 'Commission earned on the contract', '7200.00'),
  ('chargeback', 'cb_rate', 'RATE', 'Chargeback rate (%)', 'N', 'N', NULL, NULL, '100.0000'),
  ('chargeback', 'cb_amount', 'AMOUNT', 'Installment amount', 'N', 'N', NULL, 'Last installment absorbs the remainder', '2400.00'),
  ('chargeback', 'status', 'STATUS', 'Status', 'N', 'N', NULL, 'CALCULATED, CONFIRMED, CANCELLED', 'CALCULATED'),
  ('chargeback', 'calc_basis', 'JSON', 'Calculation basis', 'N', 'N', NULL, 'See STEPS.md', NULL)
) AS v (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
LEFT JOIN data_domain d ON d.domain_code = v.domain_code
ON CONFLICT (table_name, column_name) DO NOTHING;
