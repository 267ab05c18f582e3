-- Commission rules, regulatory limits, chargeback grades, installment ratios and plans (spec 2.4).
-- Owned by master-data. Rates are percent numeric(7,4) (3.3 = 3.3 %), money numeric(15,2).
-- Revisable rules (commission_rate, payout_rule, override_rule, chargeback_rule) carry `version` and a
-- half-open validity [effective_from, effective_to); limits, grades and ratios use a closed validity
-- [effective_from, effective_to] and an is_active flag (spec 2.4 "Rule lookup").

CREATE TABLE commission_rate (
  rate_id         bigserial     PRIMARY KEY,
  product_id      bigint        NOT NULL REFERENCES product (product_id),
  commission_year integer       NOT NULL CHECK (commission_year >= 1),
  rate_pct        numeric(7,4)  NOT NULL CHECK (rate_pct >= 0),
  pay_method_cond varchar(30),
  min_premium     numeric(15,2) CHECK (min_premium >= 0),
  effective_from  date          NOT NULL,
  effective_to    date,
  version         integer       NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now(),
  created_by      bigint,
  updated_by      bigint,
  CONSTRAINT commission_rate_period_chk CHECK (effective_to IS NULL OR effective_to > effective_from)
);
CREATE INDEX commission_rate_lookup_idx ON commission_rate (product_id, commission_year, effective_from DESC);

CREATE TABLE payout_rule (
  rule_id           bigserial    PRIMARY KEY,
  grade_id          bigint       NOT NULL REFERENCES grade (grade_id),
  insurance_type    varchar(30)  NOT NULL,
  commission_year   integer      NOT NULL CHECK (commission_year >= 1),
  payout_pct        numeric(7,4) NOT NULL CHECK (payout_pct >= 0),
  pay_method_cond   varchar(30),
  performance_grade varchar(20),
  effective_from    date         NOT NULL,
  effective_to      date,
  version           integer      NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at        timestamptz  NOT NULL DEFAULT now(),
  updated_at        timestamptz  NOT NULL DEFAULT now(),
  created_by        bigint,
  updated_by        bigint,
  CONSTRAINT payout_rule_period_chk CHECK (effective_to IS NULL OR effective_to > effective_from)
);
CREATE INDEX payout_rule_lookup_idx ON payout_rule (grade_id, insurance_type, commission_year, effective_from DESC);

CREATE TABLE override_rule (
  override_id         bigserial     PRIMARY KEY,
  from_grade          bigint        NOT NULL REFERENCES grade (grade_id),
  to_grade            bigint        NOT NULL REFERENCES grade (grade_id),
  override_pct        numeric(7,4)  NOT NULL CHECK (override_pct >= 0),
  calc_type           varchar(20)   NOT NULL DEFAULT 'RATE',
  insurance_type_cond varchar(30),
  cap_amount          numeric(15,2) CHECK (cap_amount >= 0),
  effective_from      date          NOT NULL,
  effective_to        date,
  version             integer       NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at          timestamptz   NOT NULL DEFAULT now(),
  updated_at          timestamptz   NOT NULL DEFAULT now(),
  created_by          bigint,
  updated_by          bigint,
  CONSTRAINT override_rule_grades_chk CHECK (from_grade <> to_grade),
  CONSTRAINT override_rule_period_chk CHECK (effective_to IS NULL OR effective_to > effective_from)
);
CREATE INDEX override_rule_lookup_idx ON override_rule (from_grade, to_grade, effective_from DESC);

CREATE TABLE chargeback_rule (
  cb_rule_id          bigserial    PRIMARY KEY,
  company_code        varchar(20)  NOT NULL REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  insurance_type      varchar(30)  NOT NULL,
  lapse_month_from    integer      NOT NULL CHECK (lapse_month_from >= 0),
  lapse_month_to      integer,
  cb_rate             numeric(7,4) NOT NULL CHECK (cb_rate >= 0),
  include_override    boolean      NOT NULL DEFAULT false,
  installment_allowed boolean      NOT NULL DEFAULT false,
  max_installments    integer      NOT NULL DEFAULT 1 CHECK (max_installments >= 1),
  effective_from      date         NOT NULL,
  effective_to        date,
  version             integer      NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at          timestamptz  NOT NULL DEFAULT now(),
  updated_at          timestamptz  NOT NULL DEFAULT now(),
  created_by          bigint,
  updated_by          bigint,
  CONSTRAINT chargeback_rule_months_chk CHECK (lapse_month_to IS NULL OR lapse_month_to >= lapse_month_from),
  CONSTRAINT chargeback_rule_period_chk CHECK (effective_to IS NULL OR effective_to > effective_from)
);
CREATE INDEX chargeback_rule_lookup_idx ON chargeback_rule (company_code, insurance_type, lapse_month_from, effective_from DESC);

-- exception_code is the key the ledgers use; exception_id is a surrogate for the API paths (every
-- resource of the service kit is addressed by a numeric id).
CREATE TABLE exception_type_code (
  exception_code    varchar(30)  PRIMARY KEY CHECK (exception_code ~ '^[A-Z0-9_]{1,30}$'),
  exception_id      bigserial    NOT NULL UNIQUE,
  exception_name    varchar(100) NOT NULL,
  category          varchar(30)  NOT NULL,
  direction         varchar(10)  NOT NULL CHECK (direction IN ('PLUS', 'MINUS')),
  auto_calc_yn      char(1)      NOT NULL DEFAULT 'N' CHECK (auto_calc_yn IN ('Y', 'N')),
  approval_required char(1)      NOT NULL DEFAULT 'Y' CHECK (approval_required IN ('Y', 'N')),
  tax_included      char(1)      NOT NULL DEFAULT 'Y' CHECK (tax_included IN ('Y', 'N')),
  description       varchar(500),
  is_active         boolean      NOT NULL DEFAULT true,
  sort_order        integer      NOT NULL DEFAULT 0,
  created_at        timestamptz  NOT NULL DEFAULT now(),
  updated_at        timestamptz  NOT NULL DEFAULT now(),
  created_by        bigint,
  updated_by        bigint
);
CREATE INDEX exception_type_code_auto_idx ON exception_type_code (exception_code) WHERE auto_calc_yn = 'Y' AND is_active;

CREATE TABLE regulatory_limit (
  limit_id         bigserial     PRIMARY KEY,
  limit_type       varchar(30)   NOT NULL CHECK (limit_type IN ('TOTAL_RATIO', 'FIRST_YEAR_RATIO', 'INSTALLMENT_YEARS')),
  product_category varchar(30)   CHECK (product_category IN ('ALL', 'LIFE', 'ANNUITY', 'SAVINGS', 'EXCLUDED_AUTO', 'EXCLUDED_HEALTH')),
  -- 1200 (percent) does not fit numeric(7,4): limits get a wider precision, same scale.
  limit_value      numeric(11,4) NOT NULL CHECK (limit_value > 0),
  unit             varchar(10)   NOT NULL CHECK (unit IN ('PERCENT', 'YEAR')),
  effective_from   date          NOT NULL,
  effective_to     date,
  is_active        boolean       NOT NULL DEFAULT true,
  description      varchar(500),
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  created_by       bigint,
  updated_by       bigint,
  CONSTRAINT regulatory_limit_period_chk CHECK (effective_to IS NULL OR effective_to >= effective_from)
);
CREATE INDEX regulatory_limit_lookup_idx ON regulatory_limit (limit_type, product_category, effective_from DESC) WHERE is_active;

CREATE TABLE chargeback_grade (
  cb_grade_id      bigserial    PRIMARY KEY,
  product_category varchar(30)  CHECK (product_category IN ('ALL', 'LIFE', 'ANNUITY', 'SAVINGS', 'EXCLUDED_AUTO', 'EXCLUDED_HEALTH')),
  months_from      integer      NOT NULL CHECK (months_from >= 0),
  months_to        integer,
  percent          numeric(7,4) NOT NULL CHECK (percent >= 0),
  effective_from   date         NOT NULL,
  effective_to     date,
  is_active        boolean      NOT NULL DEFAULT true,
  description      varchar(500),
  created_at       timestamptz  NOT NULL DEFAULT now(),
  updated_at       timestamptz  NOT NULL DEFAULT now(),
  created_by       bigint,
  updated_by       bigint,
  CONSTRAINT chargeback_grade_months_chk CHECK (months_to IS NULL OR months_to >= months_from),
  CONSTRAINT chargeback_grade_period_chk CHECK (effective_to IS NULL OR effective_to >= effective_from)
);
CREATE INDEX chargeback_grade_lookup_idx ON chargeback_grade (product_category, months_from, effective_from DESC) WHERE is_active;

CREATE TABLE installment_ratio (
  ratio_id         bigserial    PRIMARY KEY,
  product_category varchar(30)  CHECK (product_category IN ('ALL', 'LIFE', 'ANNUITY', 'SAVINGS', 'EXCLUDED_AUTO', 'EXCLUDED_HEALTH')),
  plan_year        smallint     NOT NULL CHECK (plan_year BETWEEN 1 AND 7),
  plan_month       smallint     CHECK (plan_month BETWEEN 1 AND 12),
  ratio_percent    numeric(7,4) NOT NULL CHECK (ratio_percent > 0),
  effective_from   date         NOT NULL,
  effective_to     date,
  is_active        boolean      NOT NULL DEFAULT true,
  created_at       timestamptz  NOT NULL DEFAULT now(),
  updated_at       timestamptz  NOT NULL DEFAULT now(),
  created_by       bigint,
  updated_by       bigint,
  CONSTRAINT installment_ratio_period_chk CHECK (effective_to IS NULL OR effective_to >= effective_from),
  CONSTRAINT installment_ratio_key_uq UNIQUE NULLS NOT DISTINCT (product_category, plan_year, plan_month, effective_from)
);

CREATE TABLE installment_plan (
  plan_id        bigserial     PRIMARY KEY,
  contract_id    bigint        NOT NULL REFERENCES contract (contract_id),
  plan_year      smallint      NOT NULL CHECK (plan_year BETWEEN 1 AND 7),
  plan_month     smallint      NOT NULL CHECK (plan_month BETWEEN 1 AND 12),
  settle_month   char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  ratio_percent  numeric(7,4)  NOT NULL CHECK (ratio_percent > 0),
  planned_amount numeric(15,2) NOT NULL CHECK (planned_amount >= 0),
  status         varchar(20)   NOT NULL DEFAULT 'SCHEDULED' CHECK (status IN ('SCHEDULED', 'PAID', 'DEFERRED', 'CANCELLED')),
  paid_amount    numeric(15,2) CHECK (paid_amount >= 0),
  paid_at        timestamptz,
  -- payment belongs to payment-tax (a later migration): no foreign key from here.
  payment_id     bigint,
  created_at     timestamptz   NOT NULL DEFAULT now(),
  updated_at     timestamptz   NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint,
  CONSTRAINT installment_plan_key_uq UNIQUE (contract_id, plan_year, plan_month)
);
CREATE INDEX installment_plan_settle_month_idx ON installment_plan (settle_month, status);

COMMENT ON TABLE commission_rate IS 'Company commission rate per product and commission year; half-open validity, newest version wins';
COMMENT ON COLUMN commission_rate.rate_pct IS 'Company commission rate in percent (3.3 = 3.3 %)';
COMMENT ON COLUMN commission_rate.effective_to IS 'Exclusive end of validity; NULL = open';
COMMENT ON COLUMN commission_rate.version IS 'Optimistic lock on update; a revision is a new row with version + 1';
COMMENT ON TABLE payout_rule IS 'Share of the company commission paid to the agent, per grade, insurance type and commission year';
COMMENT ON COLUMN payout_rule.payout_pct IS 'Payout rate in percent of the company amount';
COMMENT ON COLUMN payout_rule.version IS 'Optimistic lock on update; a revision is a new row with version + 1';
COMMENT ON TABLE override_rule IS 'Override commission of an upper grade on a lower grade''s recruit and maintain sum';
COMMENT ON COLUMN override_rule.cap_amount IS 'Upper bound of one override amount; NULL = no cap';
COMMENT ON TABLE chargeback_rule IS 'Chargeback rate by company, insurance type and lapse month range';
COMMENT ON COLUMN chargeback_rule.max_installments IS 'Number of monthly chargeback installments when installment_allowed';
COMMENT ON TABLE exception_type_code IS 'Exception ledger types; auto_calc_yn = Y types are created by the settlement batch';
COMMENT ON COLUMN exception_type_code.direction IS 'PLUS adds to gross, MINUS subtracts';
COMMENT ON TABLE regulatory_limit IS 'Regulatory commission limits; closed validity, active rows only, newest effective_from first';
COMMENT ON COLUMN regulatory_limit.product_category IS 'NULL or ALL applies to every product category';
COMMENT ON COLUMN regulatory_limit.limit_value IS 'Positive; percent of the contract premium for unit PERCENT, years for unit YEAR';
COMMENT ON TABLE chargeback_grade IS 'Differential chargeback bands by months elapsed (spec 1.2 rule 7)';
COMMENT ON COLUMN chargeback_grade.months_to IS 'Inclusive upper bound; NULL = unbounded';
COMMENT ON COLUMN chargeback_grade.percent IS 'Share of the original commission charged back, in percent';
COMMENT ON TABLE installment_ratio IS 'Commission installment ratios per plan year (and optionally month)';
COMMENT ON COLUMN installment_ratio.plan_month IS 'NULL = annual ratio, paid in month 1 of the plan year';
COMMENT ON TABLE installment_plan IS 'Generated installment schedule of a contract';
COMMENT ON COLUMN installment_plan.settle_month IS 'YYYYMM in which the installment is due';

-- Data dictionary rows for the key columns (domain codes of V002; an unknown code leaves domain_code NULL).
INSERT INTO data_dictionary (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
SELECT v.table_name, v.column_name, d.domain_code, v.column_label, v.is_pk, v.is_fk, v.fk_reference, v.business_rule, v.sample_value
FROM (VALUES
  ('commission_rate', 'rate_id', 'ID', 'Commission rate ID', 'Y', 'N', NULL, NULL, '1'),
  ('commission_rate', 'product_id', 'ID', 'Product', 'N', 'Y', 'product.product_id', NULL, '1'),
  ('commission_rate', 'commission_year', 'COMMISSION_YEAR', 'Commission year', 'N', 'N', NULL, '1 = recruit, 2 to 5 = maintain', '1'),
  ('commission_rate', 'rate_pct', 'RATE', 'Company rate (%)', 'N', 'N', NULL, 'numeric(7,4), >= 0', '12.5000'),
  ('commission_rate', 'min_premium', 'AMOUNT', 'Minimum premium', 'N', 'N', NULL, 'NULL = no minimum', '100000.00'),
  ('commission_rate', 'effective_from', 'DATE', 'Effective from', 'N', 'N', NULL, 'Lookup: effective_from <= date < effective_to, highest version', '2025-01-01'),
  ('commission_rate', 'effective_to', 'DATE', 'Effective to (exclusive)', 'N', 'N', NULL, 'NULL = open; set by a revision', NULL),
  ('commission_rate', 'version', NULL, 'Version', 'N', 'N', NULL, 'Optimistic lock (stale -> B002); a revision starts at the old version + 1', '1'),
  ('payout_rule', 'rule_id', 'ID', 'Payout rule ID', 'Y', 'N', NULL, NULL, '1'),
  ('payout_rule', 'grade_id', 'GRADE', 'Grade', 'N', 'Y', 'grade.grade_id', NULL, '1'),
  ('payout_rule', 'insurance_type', 'CODE', 'Insurance type', 'N', 'N', NULL, 'Common code INSURANCE_TYPE', 'LIFE'),
  ('payout_rule', 'commission_year', 'COMMISSION_YEAR', 'Commission year', 'N', 'N', NULL, '1 = recruit, 2 to 5 = maintain', '1'),
  ('payout_rule', 'payout_pct', 'RATE', 'Payout rate (%)', 'N', 'N', NULL, 'Percent of the company amount, >= 0', '60.0000'),
  ('payout_rule', 'effective_from', 'DATE', 'Effective from', 'N', 'N', NULL, 'Half-open lookup like commission_rate', '2025-01-01'),
  ('payout_rule', 'version', NULL, 'Version', 'N', 'N', NULL, 'Optimistic lock (stale -> B002)', '1'),
  ('override_rule', 'override_id', 'ID', 'Override rule ID', 'Y', 'N', NULL, NULL, '1'),
  ('override_rule', 'from_grade', 'GRADE', 'Lower grade', 'N', 'Y', 'grade.grade_id', NULL, '1'),
  ('override_rule', 'to_grade', 'GRADE', 'Receiving grade', 'N', 'Y', 'grade.grade_id', 'Differs from from_grade', '3'),
  ('override_rule', 'override_pct', 'RATE', 'Override rate (%)', 'N', 'N', NULL, '>= 0', '5.0000'),
  ('override_rule', 'cap_amount', 'AMOUNT', 'Cap amount', 'N', 'N', NULL, 'NULL = no cap', '500000.00'),
  ('chargeback_rule', 'cb_rule_id', 'ID', 'Chargeback rule ID', 'Y', 'N', NULL, NULL, '1'),
  ('chargeback_rule', 'company_code', 'CODE', 'Insurance company', 'N', 'Y', 'insurance_company.company_code', NULL, 'L001'),
  ('chargeback_rule', 'insurance_type', 'CODE', 'Insurance type', 'N', 'N', NULL, 'Common code INSURANCE_TYPE', 'LIFE'),
  ('chargeback_rule', 'cb_rate', 'RATE', 'Chargeback rate (%)', 'N', 'N', NULL, '>= 0', '100.0000'),
  ('chargeback_rule', 'max_installments', NULL, 'Max installments', 'N', 'N', NULL, '>= 1; used when installment_allowed', '3'),
  ('exception_type_code', 'exception_code', 'CODE', 'Exception code', 'Y', 'N', NULL, 'Key; referenced by exception ledgers', 'BONUS_SPECIAL'),
  ('exception_type_code', 'exception_id', 'ID', 'Exception type ID', 'N', 'N', NULL, 'Surrogate key of the API paths', '1'),
  ('exception_type_code', 'direction', 'CODE', 'Direction', 'N', 'N', NULL, 'PLUS or MINUS (common code EXCEPTION_DIRECTION)', 'PLUS'),
  ('exception_type_code', 'auto_calc_yn', 'YN', 'Created by the batch', 'N', 'N', NULL, 'Y = created by the chargebackException step', 'N'),
  ('exception_type_code', 'is_active', 'FLAG', 'Active', 'N', 'N', NULL, 'Deactivate instead of delete', 'true'),
  ('regulatory_limit', 'limit_id', 'ID', 'Limit ID', 'Y', 'N', NULL, NULL, '1'),
  ('regulatory_limit', 'limit_type', 'CODE', 'Limit type', 'N', 'N', NULL, 'TOTAL_RATIO, FIRST_YEAR_RATIO, INSTALLMENT_YEARS (common code LIMIT_TYPE)', 'TOTAL_RATIO'),
  ('regulatory_limit', 'product_category', 'CODE', 'Product category', 'N', 'N', NULL, 'NULL or ALL = every category (common code PRODUCT_CATEGORY)', 'ALL'),
  ('regulatory_limit', 'limit_value', NULL, 'Limit value', 'N', 'N', NULL, 'Positive; percent of the premium (PERCENT) or years (YEAR)', '1200.0000'),
  ('regulatory_limit', 'unit', 'CODE', 'Unit', 'N', 'N', NULL, 'PERCENT or YEAR', 'PERCENT'),
  ('regulatory_limit', 'effective_from', 'DATE', 'Effective from', 'N', 'N', NULL, 'Closed lookup: effective_from <= date <= effective_to, active only', '2000-01-01'),
  ('regulatory_limit', 'is_active', 'FLAG', 'Active', 'N', 'N', NULL, 'Inactive rows are never chosen', 'true'),
  ('chargeback_grade', 'cb_grade_id', 'ID', 'Chargeback grade ID', 'Y', 'N', NULL, NULL, '1'),
  ('chargeback_grade', 'product_category', 'CODE', 'Product category', 'N', 'N', NULL, 'NULL = every category', 'LIFE'),
  ('chargeback_grade', 'months_from', NULL, 'Months from', 'N', 'N', NULL, '>= 0', '13'),
  ('chargeback_grade', 'months_to', NULL, 'Months to', 'N', 'N', NULL, 'NULL = unbounded; >= months_from', '24'),
  ('chargeback_grade', 'percent', 'RATE', 'Chargeback (%)', 'N', 'N', NULL, '>= 0; amount = round_HALF_UP_scale0(commission x percent / 100)', '50.0000'),
  ('installment_ratio', 'ratio_id', 'ID', 'Installment ratio ID', 'Y', 'N', NULL, NULL, '1'),
  ('installment_ratio', 'plan_year', NULL, 'Plan year', 'N', 'N', NULL, '1 to 7', '1'),
  ('installment_ratio', 'plan_month', NULL, 'Plan month', 'N', 'N', NULL, 'NULL = annual (month 1), else 1 to 12', NULL),
  ('installment_ratio', 'ratio_percent', 'RATE', 'Ratio (%)', 'N', 'N', NULL, 'Positive; a set adds up to 100', '35.0000'),
  ('installment_plan', 'plan_id', 'ID', 'Installment plan ID', 'Y', 'N', NULL, NULL, '1'),
  ('installment_plan', 'contract_id', 'ID', 'Contract', 'N', 'Y', 'contract.contract_id', NULL, '1'),
  ('installment_plan', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM the installment is due', '202601'),
  ('installment_plan', 'planned_amount', 'AMOUNT', 'Planned amount', 'N', 'N', NULL, 'Rows of a plan sum to the plan total', '350000.00'),
  ('installment_plan', 'status', 'STATUS', 'Status', 'N', 'N', NULL, 'SCHEDULED, PAID, DEFERRED, CANCELLED (common code INSTALLMENT_STATUS)', 'SCHEDULED'),
  ('installment_plan', 'paid_amount', 'AMOUNT', 'Paid amount', 'N', 'N', NULL, NULL, '350000.00')
) AS v (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
LEFT JOIN data_domain d ON d.domain_code = v.domain_code
ON CONFLICT (table_name, column_name) DO NOTHING;

-- Seed data (spec 1.2 rules 7-9, spec 2.4).
INSERT INTO exception_type_code (exception_code, exception_name, category, direction, auto_calc_yn, approval_required, tax_included, description, sort_order) VALUES
  ('ADV_RECOVERY',    'Advance recovery',            'RECOVERY',  'MINUS', 'N', 'Y', 'Y', 'Recovery of an advance payment', 1),
  ('BONUS_SPECIAL',   'Special bonus',               'BONUS',     'PLUS',  'N', 'Y', 'Y', 'One-off special bonus', 2),
  ('CAMPAIGN_PRIZE',  'Campaign prize',              'CAMPAIGN',  'PLUS',  'N', 'Y', 'Y', 'Sales campaign prize', 3),
  ('MISC_PLUS',       'Miscellaneous addition',      'MISC',      'PLUS',  'N', 'Y', 'Y', 'Other manual addition', 4),
  ('MISC_MINUS',      'Miscellaneous deduction',     'MISC',      'MINUS', 'N', 'Y', 'Y', 'Other manual deduction', 5),
  ('PENALTY',         'Penalty',                     'PENALTY',   'MINUS', 'N', 'Y', 'Y', 'Penalty for a compliance breach', 6),
  ('SYSTEM_ADJ_PLUS', 'System adjustment (plus)',    'SYSTEM',    'PLUS',  'N', 'Y', 'Y', 'Correction of a system calculation, upward', 7),
  ('SYSTEM_ADJ_MINUS','System adjustment (minus)',   'SYSTEM',    'MINUS', 'N', 'Y', 'Y', 'Correction of a system calculation, downward', 8),
  ('RETRO_PLUS',      'Retroactive addition',        'RETRO',     'PLUS',  'Y', 'Y', 'Y', 'Retroactive rate change, upward; created by the batch', 9),
  ('RETRO_MINUS',     'Retroactive deduction',       'RETRO',     'MINUS', 'Y', 'Y', 'Y', 'Retroactive rate change, downward; created by the batch', 10)
ON CONFLICT (exception_code) DO NOTHING;

INSERT INTO regulatory_limit (limit_type, product_category, limit_value, unit, effective_from, description) VALUES
  ('TOTAL_RATIO',       'ALL', 1200, 'PERCENT', '2000-01-01', 'Total commission of a contract at most 1200 % of the premium'),
  ('FIRST_YEAR_RATIO',  'ALL', 35,   'PERCENT', '2000-01-01', 'First-year commission at most 35 % of the premium'),
  ('INSTALLMENT_YEARS', 'ALL', 7,    'YEAR',    '2000-01-01', 'Commission installments spread over at most 7 years');

INSERT INTO chargeback_grade (product_category, months_from, months_to, percent, effective_from, description) VALUES
  (NULL, 1,  12,   100, '2000-01-01', 'Months 1-12'),
  (NULL, 13, 24,   50,  '2000-01-01', 'Months 13-24'),
  (NULL, 25, 36,   25,  '2000-01-01', 'Months 25-36'),
  (NULL, 37, 84,   10,  '2000-01-01', 'Months 37-84'),
  (NULL, 85, NULL, 0,   '2000-01-01', 'Month 85 and later');

INSERT INTO installment_ratio (product_category, plan_year, plan_month, ratio_percent, effective_from) VALUES
  ('ALL', 1, NULL, 35, '2000-01-01'),
  ('ALL', 2, NULL, 25, '2000-01-01'),
  ('ALL', 3, NULL, 15, '2000-01-01'),
  ('ALL', 4, NULL, 10, '2000-01-01'),
  ('ALL', 5, NULL, 7,  '2000-01-01'),
  ('ALL', 6, NULL, 5,  '2000-01-01'),
  ('ALL', 7, NULL, 3,  '2000-01-01')
ON CONFLICT ON CONSTRAINT installment_ratio_key_uq DO NOTHING;
