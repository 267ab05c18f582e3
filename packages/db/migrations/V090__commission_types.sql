-- Issue 16: every commission type (DECISIONS "Commission types beyond recruit, maintain and override").
-- Rules are owned by master-data (effective-dated, versioned like commission_rate: half-open validity
-- [effective_from, effective_to)); ledgers, incentive results and the commission master are owned by
-- ledger-settlement. Money numeric(15,2), rates numeric(7,4) in percent. With no rule configured every
-- new figure is 0 and settle_master.other_total is 0 (rule 1.2.4 reads exactly as written).

-- ---------------------------------------------------------------------------------------------
-- A renewal is reported as an endorsement of type RENEWAL.
ALTER TABLE contract_endorsement DROP CONSTRAINT contract_endorsement_endorse_type_check;
ALTER TABLE contract_endorsement ADD CONSTRAINT contract_endorsement_endorse_type_check
  CHECK (endorse_type IN ('PREMIUM_CHANGE', 'PAY_CYCLE_CHANGE', 'COVERAGE_CHANGE', 'CONTRACTOR_CHANGE',
                          'BENEFICIARY_CHANGE', 'RENEWAL', 'OTHER'));
COMMENT ON COLUMN contract_endorsement.endorse_type IS 'PREMIUM_CHANGE, PAY_CYCLE_CHANGE, COVERAGE_CHANGE, CONTRACTOR_CHANGE, BENEFICIARY_CHANGE, RENEWAL, OTHER';

-- ---------------------------------------------------------------------------------------------
-- commission_type: the nine types of the commission master and their settings (COMM_TYPE).
CREATE TABLE commission_type (
  type_id      bigserial     PRIMARY KEY,
  type_code    varchar(20)   NOT NULL,
  type_name    varchar(100)  NOT NULL,
  description  varchar(1000),
  source_table varchar(50)   NOT NULL,
  is_active    boolean       NOT NULL DEFAULT true,
  taxable_yn   char(1)       NOT NULL DEFAULT 'Y' CHECK (taxable_yn IN ('Y', 'N')),
  gross_yn     char(1)       NOT NULL DEFAULT 'Y' CHECK (gross_yn IN ('Y', 'N')),
  sort_order   integer       NOT NULL DEFAULT 0,
  version      integer       NOT NULL DEFAULT 0,
  created_at   timestamptz   NOT NULL DEFAULT now(),
  updated_at   timestamptz   NOT NULL DEFAULT now(),
  created_by   bigint,
  updated_by   bigint,
  CONSTRAINT commission_type_code_uq UNIQUE (type_code)
);
COMMENT ON TABLE commission_type IS 'The nine commission types of the commission master with their settings (active, taxable, counted in gross).';
COMMENT ON COLUMN commission_type.type_code IS 'RECRUIT, MAINTAIN, OVERRIDE, COLLECTION, RENEWAL, REINSTATEMENT, PERSISTENCY, INCENTIVE, APPOINTMENT';
COMMENT ON COLUMN commission_type.source_table IS 'Ledger the type''s amounts come from';
COMMENT ON COLUMN commission_type.is_active IS 'Inactive types are not calculated by the monthly run';
COMMENT ON COLUMN commission_type.taxable_yn IS 'Y = subject to withholding tax';
COMMENT ON COLUMN commission_type.gross_yn IS 'Y = counted in the settle row''s gross';

INSERT INTO commission_type (type_code, type_name, description, source_table, sort_order) VALUES
  ('RECRUIT',       'Recruit commission',       'Commission year 1 (rule 1.2.2)',                                         'recruit_ledger',          10),
  ('MAINTAIN',      'Maintain commission',      'Commission years 2 to 5 (rule 1.2.3), successor when a succession applies', 'maintain_ledger',      20),
  ('OVERRIDE',      'Override',                 'Paid to upper agents on lower agents'' commission (step 7)',             'override_settle',         30),
  ('COLLECTION',    'Collection commission',    'Premiums falling due from commission year 6 on, to the current agent',   'other_commission_ledger', 40),
  ('RENEWAL',       'Renewal commission',       'A RENEWAL endorsement effective in the month',                          'other_commission_ledger', 50),
  ('REINSTATEMENT', 'Reinstatement commission', 'A lapsed contract revived in the month; its unpaid chargeback installments are cancelled', 'other_commission_ledger', 60),
  ('PERSISTENCY',   'Persistency bonus',        'Contract still in force at month 13 and at month 25, to the recruiting agent', 'other_commission_ledger', 70),
  ('INCENTIVE',     'Incentive',                'Incentive program results, approved before they count',                 'incentive_result',        80),
  ('APPOINTMENT',   'Appointment allowance',    'A new agent''s fixed monthly amount in its first months after join_date', 'other_commission_ledger', 90);

-- ---------------------------------------------------------------------------------------------
-- Rules (master-data). collection/renewal/reinstatement share one shape.
CREATE TABLE collection_rule (
  rule_id           bigserial    PRIMARY KEY,
  company_code      varchar(20)  NOT NULL REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  insurance_type    varchar(30)  NOT NULL,
  min_commission_year integer    NOT NULL DEFAULT 6 CHECK (min_commission_year >= 1),
  rate_pct          numeric(7,4) NOT NULL CHECK (rate_pct >= 0),
  effective_from    date         NOT NULL,
  effective_to      date,
  version           integer      NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at        timestamptz  NOT NULL DEFAULT now(),
  updated_at        timestamptz  NOT NULL DEFAULT now(),
  created_by        bigint,
  updated_by        bigint,
  CONSTRAINT collection_rule_period_chk CHECK (effective_to IS NULL OR effective_to > effective_from)
);
CREATE INDEX collection_rule_lookup_idx ON collection_rule (company_code, insurance_type, effective_from DESC);
COMMENT ON TABLE collection_rule IS 'Collection commission: pct(premium, rate) for premiums falling due from commission year min_commission_year (default 6) on.';

CREATE TABLE renewal_rule (
  rule_id           bigserial    PRIMARY KEY,
  company_code      varchar(20)  NOT NULL REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  insurance_type    varchar(30)  NOT NULL,
  rate_pct          numeric(7,4) NOT NULL CHECK (rate_pct >= 0),
  effective_from    date         NOT NULL,
  effective_to      date,
  version           integer      NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at        timestamptz  NOT NULL DEFAULT now(),
  updated_at        timestamptz  NOT NULL DEFAULT now(),
  created_by        bigint,
  updated_by        bigint,
  CONSTRAINT renewal_rule_period_chk CHECK (effective_to IS NULL OR effective_to > effective_from)
);
CREATE INDEX renewal_rule_lookup_idx ON renewal_rule (company_code, insurance_type, effective_from DESC);
COMMENT ON TABLE renewal_rule IS 'Renewal commission: pct(renewed premium, rate) for a RENEWAL endorsement effective in the month.';

CREATE TABLE reinstatement_rule (
  rule_id           bigserial    PRIMARY KEY,
  company_code      varchar(20)  NOT NULL REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  insurance_type    varchar(30)  NOT NULL,
  rate_pct          numeric(7,4) NOT NULL CHECK (rate_pct >= 0),
  effective_from    date         NOT NULL,
  effective_to      date,
  version           integer      NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at        timestamptz  NOT NULL DEFAULT now(),
  updated_at        timestamptz  NOT NULL DEFAULT now(),
  created_by        bigint,
  updated_by        bigint,
  CONSTRAINT reinstatement_rule_period_chk CHECK (effective_to IS NULL OR effective_to > effective_from)
);
CREATE INDEX reinstatement_rule_lookup_idx ON reinstatement_rule (company_code, insurance_type, effective_from DESC);
COMMENT ON TABLE reinstatement_rule IS 'Reinstatement commission: pct(premium, rate) when a lapsed contract is revived in the month.';

CREATE TABLE persistency_rule (
  rule_id           bigserial    PRIMARY KEY,
  milestone_month   integer      NOT NULL CHECK (milestone_month IN (13, 25)),
  insurance_type    varchar(30)  NOT NULL,
  bonus_pct         numeric(7,4) NOT NULL CHECK (bonus_pct >= 0),
  effective_from    date         NOT NULL,
  effective_to      date,
  version           integer      NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at        timestamptz  NOT NULL DEFAULT now(),
  updated_at        timestamptz  NOT NULL DEFAULT now(),
  created_by        bigint,
  updated_by        bigint,
  CONSTRAINT persistency_rule_period_chk CHECK (effective_to IS NULL OR effective_to > effective_from)
);
CREATE INDEX persistency_rule_lookup_idx ON persistency_rule (milestone_month, insurance_type, effective_from DESC);
COMMENT ON TABLE persistency_rule IS 'Persistency bonus: pct(recruit agent_amount, bonus_pct) to the recruiting agent when the contract is still in force at the milestone month (13 or 25).';

CREATE TABLE appointment_rule (
  rule_id           bigserial     PRIMARY KEY,
  grade_id          bigint        NOT NULL REFERENCES grade (grade_id),
  months            integer       NOT NULL CHECK (months BETWEEN 1 AND 120),
  monthly_amount    numeric(15,2) NOT NULL CHECK (monthly_amount >= 0),
  effective_from    date          NOT NULL,
  effective_to      date,
  version           integer       NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at        timestamptz   NOT NULL DEFAULT now(),
  updated_at        timestamptz   NOT NULL DEFAULT now(),
  created_by        bigint,
  updated_by        bigint,
  CONSTRAINT appointment_rule_period_chk CHECK (effective_to IS NULL OR effective_to > effective_from)
);
CREATE INDEX appointment_rule_lookup_idx ON appointment_rule (grade_id, effective_from DESC);
COMMENT ON TABLE appointment_rule IS 'Appointment allowance: a fixed monthly amount by grade in a new agent''s first `months` months after join_date (the join month is month 1).';

-- ---------------------------------------------------------------------------------------------
-- other_commission_ledger (ledger-settlement): collection, renewal, reinstatement, persistency and
-- appointment rows. Same identity and explain basis as recruit/maintain: one row per (type, contract,
-- month); appointment rows carry no contract and are one per (agent, month).
CREATE TABLE other_commission_ledger (
  ledger_id        bigserial     PRIMARY KEY,
  commission_type  varchar(20)   NOT NULL CHECK (commission_type IN ('COLLECTION', 'RENEWAL', 'REINSTATEMENT', 'PERSISTENCY', 'APPOINTMENT')),
  contract_id      bigint        REFERENCES contract (contract_id),
  agent_id         bigint        NOT NULL REFERENCES agent (agent_id),
  policy_no        varchar(50),
  company_code     varchar(20),
  product_code     varchar(30),
  insurance_type   varchar(30),
  commission_year  integer,
  milestone_month  integer,
  base_amount      numeric(15,2) NOT NULL DEFAULT 0,
  rate_pct         numeric(7,4)  NOT NULL DEFAULT 0,
  agent_amount     numeric(15,2) NOT NULL DEFAULT 0,
  rule_id          bigint,
  rule_version     integer,
  source_id        bigint,
  settle_month     char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  status           varchar(12)   NOT NULL DEFAULT 'CALCULATED' CHECK (status IN ('CALCULATED', 'CONFIRMED', 'HOLD', 'PAID')),
  run_id           bigint,
  calc_basis       jsonb,
  version          integer       NOT NULL DEFAULT 0,
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  created_by       bigint,
  updated_by       bigint,
  CONSTRAINT other_commission_ledger_contract_ck CHECK ((commission_type = 'APPOINTMENT') = (contract_id IS NULL))
);
CREATE UNIQUE INDEX other_commission_ledger_contract_uq ON other_commission_ledger (commission_type, contract_id, settle_month) WHERE contract_id IS NOT NULL;
CREATE UNIQUE INDEX other_commission_ledger_appointment_uq ON other_commission_ledger (agent_id, settle_month) WHERE commission_type = 'APPOINTMENT';
CREATE INDEX other_commission_ledger_month_agent_idx ON other_commission_ledger (settle_month, agent_id);
CREATE INDEX other_commission_ledger_agent_month_idx ON other_commission_ledger (agent_id, settle_month);
COMMENT ON TABLE other_commission_ledger IS 'Collection, renewal, reinstatement, persistency bonus and appointment rows of a month (calcOtherCommission step); summed into settle_master.other_total.';
COMMENT ON COLUMN other_commission_ledger.commission_type IS 'COLLECTION, RENEWAL, REINSTATEMENT, PERSISTENCY, APPOINTMENT';
COMMENT ON COLUMN other_commission_ledger.base_amount IS 'What the rate applies to: premium (collection, reinstatement), renewed premium (renewal), recruit agent_amount (persistency); the fixed amount for appointment';
COMMENT ON COLUMN other_commission_ledger.milestone_month IS 'Persistency: 13 or 25; appointment: month number since join (1 = join month)';
COMMENT ON COLUMN other_commission_ledger.source_id IS 'Renewal: endorsement_id; others: null';
COMMENT ON COLUMN other_commission_ledger.rule_id IS 'Rule row used (table by commission_type)';
COMMENT ON COLUMN other_commission_ledger.rule_version IS 'Version of the rule row used';

-- ---------------------------------------------------------------------------------------------
-- Incentive programs (INCENTIVE_PROG), tiers and results (INCENTIVE_PAY, approved as INCENTIVE).
CREATE TABLE incentive_program (
  program_id    bigserial     PRIMARY KEY,
  program_code  varchar(30)   NOT NULL,
  program_name  varchar(200)  NOT NULL,
  metric        varchar(20)   NOT NULL CHECK (metric IN ('NEW_PREMIUM', 'RECRUIT_COUNT', 'RECRUIT_COMMISSION')),
  reward_type   varchar(10)   NOT NULL CHECK (reward_type IN ('FIXED', 'PCT')),
  period_from   char(6)       NOT NULL CHECK (period_from ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  period_to     char(6)       NOT NULL CHECK (period_to ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  pay_month     char(6)       NOT NULL CHECK (pay_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  status        varchar(10)   NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'ACTIVE', 'CLOSED')),
  description   varchar(1000),
  version       integer       NOT NULL DEFAULT 0,
  created_at    timestamptz   NOT NULL DEFAULT now(),
  updated_at    timestamptz   NOT NULL DEFAULT now(),
  created_by    bigint,
  updated_by    bigint,
  CONSTRAINT incentive_program_code_uq UNIQUE (program_code),
  CONSTRAINT incentive_program_period_ck CHECK (period_to >= period_from AND pay_month >= period_to)
);
COMMENT ON TABLE incentive_program IS 'Incentive campaign: agents whose metric over [period_from, period_to] reaches a tier get the tier''s reward in pay_month, once approved.';
COMMENT ON COLUMN incentive_program.metric IS 'NEW_PREMIUM (premium of contracts dated in the period), RECRUIT_COUNT (their number), RECRUIT_COMMISSION (recruit agent_amount of the period)';
COMMENT ON COLUMN incentive_program.reward_type IS 'FIXED = the tier''s reward_amount; PCT = reward_pct of the measured figure';

CREATE TABLE incentive_tier (
  tier_id       bigserial     PRIMARY KEY,
  program_id    bigint        NOT NULL REFERENCES incentive_program (program_id) ON DELETE CASCADE,
  tier_no       integer       NOT NULL CHECK (tier_no >= 1),
  threshold     numeric(15,2) NOT NULL CHECK (threshold >= 0),
  reward_amount numeric(15,2) CHECK (reward_amount >= 0),
  reward_pct    numeric(7,4)  CHECK (reward_pct >= 0),
  created_at    timestamptz   NOT NULL DEFAULT now(),
  updated_at    timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT incentive_tier_no_uq UNIQUE (program_id, tier_no),
  CONSTRAINT incentive_tier_threshold_uq UNIQUE (program_id, threshold),
  CONSTRAINT incentive_tier_reward_ck CHECK (reward_amount IS NOT NULL OR reward_pct IS NOT NULL)
);
COMMENT ON TABLE incentive_tier IS 'Tiers of a program: the highest tier whose threshold the measured figure reaches (>=) applies.';

CREATE TABLE incentive_result (
  result_id           bigserial     PRIMARY KEY,
  program_id          bigint        NOT NULL REFERENCES incentive_program (program_id),
  agent_id            bigint        NOT NULL REFERENCES agent (agent_id),
  settle_month        char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  measured_value      numeric(18,2) NOT NULL,
  tier_no             integer       NOT NULL,
  amount              numeric(15,2) NOT NULL CHECK (amount >= 0),
  status              varchar(20)   NOT NULL DEFAULT 'CALCULATED' CHECK (status IN ('CALCULATED', 'PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'CANCELLED')),
  approval_request_id bigint,
  approved_by         bigint,
  approved_at         timestamptz,
  reject_reason       varchar(1000),
  calc_basis          jsonb,
  version             integer       NOT NULL DEFAULT 0,
  created_at          timestamptz   NOT NULL DEFAULT now(),
  updated_at          timestamptz   NOT NULL DEFAULT now(),
  created_by          bigint,
  updated_by          bigint,
  CONSTRAINT incentive_result_program_agent_uq UNIQUE (program_id, agent_id)
);
CREATE INDEX incentive_result_month_agent_idx ON incentive_result (settle_month, agent_id);
COMMENT ON TABLE incentive_result IS 'An agent''s result in a program: counted in settle_month''s other_total only once APPROVED (approval target INCENTIVE).';

-- ---------------------------------------------------------------------------------------------
-- commission_master (COMM_MASTER): one row per agent, month and type, written by the aggregate step.
-- computed_amount is the batch's figure and is never edited by hand; an UPDATE is an adjustment with a
-- reason (adjustment_amount, counted in other_total); a DELETE cancels the row's adjustment.
CREATE TABLE commission_master (
  cm_id             bigserial     PRIMARY KEY,
  agent_id          bigint        NOT NULL REFERENCES agent (agent_id),
  settle_month      char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  commission_type   varchar(20)   NOT NULL REFERENCES commission_type (type_code),
  computed_amount   numeric(15,2) NOT NULL DEFAULT 0,
  adjustment_amount numeric(15,2) NOT NULL DEFAULT 0,
  adjust_reason     varchar(1000),
  source_table      varchar(50)   NOT NULL,
  source_count      integer       NOT NULL DEFAULT 0,
  run_id            bigint,
  version           integer       NOT NULL DEFAULT 0,
  created_at        timestamptz   NOT NULL DEFAULT now(),
  updated_at        timestamptz   NOT NULL DEFAULT now(),
  created_by        bigint,
  updated_by        bigint,
  CONSTRAINT commission_master_key_uq UNIQUE (agent_id, settle_month, commission_type),
  CONSTRAINT commission_master_reason_ck CHECK (adjustment_amount = 0 OR adjust_reason IS NOT NULL)
);
CREATE INDEX commission_master_month_type_idx ON commission_master (settle_month, commission_type);
COMMENT ON TABLE commission_master IS 'One row per agent, month and commission type with the computed amount, its source ledger and any adjustment (with a reason).';

-- ---------------------------------------------------------------------------------------------
ALTER TABLE settle_master ADD COLUMN other_total numeric(15,2) NOT NULL DEFAULT 0;
COMMENT ON COLUMN settle_master.other_total IS 'Collection + renewal + reinstatement + persistency + appointment + approved incentives + commission master adjustments (part of gross)';
