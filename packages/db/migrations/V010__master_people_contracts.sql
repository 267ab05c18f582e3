-- Master data: organization, people, products, contracts (spec 2.2, 2.3, 2.9). Owned by master-data.
-- Rule tables of the same service live in V011.

-- ---------------------------------------------------------------------------------------------
-- grade
CREATE TABLE grade (
  grade_id    bigserial    PRIMARY KEY,
  grade_code  varchar(30)  NOT NULL UNIQUE,
  grade_name  varchar(100) NOT NULL,
  grade_level integer      NOT NULL CHECK (grade_level BETWEEN 1 AND 99),
  grade_group varchar(30),
  description varchar(500),
  is_active   boolean      NOT NULL DEFAULT true,
  sort_order  integer      NOT NULL DEFAULT 0,
  created_at  timestamptz  NOT NULL DEFAULT now(),
  updated_at  timestamptz  NOT NULL DEFAULT now(),
  created_by  bigint,
  updated_by  bigint
);
COMMENT ON TABLE grade IS 'Agent grades (career levels); payout and override rules are keyed by grade.';
COMMENT ON COLUMN grade.grade_id IS 'Grade identifier (seeded 1..6)';
COMMENT ON COLUMN grade.grade_code IS 'Stable grade code (FC, SFC, TM_LEADER, BR_MANAGER, HQ_DIRECTOR, EXEC)';
COMMENT ON COLUMN grade.grade_name IS 'Display name';
COMMENT ON COLUMN grade.grade_level IS 'Rank, 1 = lowest';
COMMENT ON COLUMN grade.grade_group IS 'Grade family (common code GRADE_GROUP: AGENT, MANAGER, EXECUTIVE)';
COMMENT ON COLUMN grade.is_active IS 'Inactive grades cannot be assigned to agents';
COMMENT ON COLUMN grade.sort_order IS 'Display order';

INSERT INTO grade (grade_id, grade_code, grade_name, grade_level, grade_group, description, sort_order) VALUES
  (1, 'FC',          'Financial Consultant',        1, 'AGENT',     'Entry sales grade',                    1),
  (2, 'SFC',         'Senior Financial Consultant', 2, 'AGENT',     'Senior sales grade',                   2),
  (3, 'TM_LEADER',   'Team Manager',                3, 'MANAGER',   'Leads a team (TM organization)',       3),
  (4, 'BR_MANAGER',  'Branch Manager',              4, 'MANAGER',   'Leads a branch (BR organization)',     4),
  (5, 'HQ_DIRECTOR', 'Headquarters Director',       5, 'EXECUTIVE', 'Leads a headquarters (HQ organization)', 5),
  (6, 'EXEC',        'Executive',                   6, 'EXECUTIVE', 'Agency executive',                     6);
SELECT setval(pg_get_serial_sequence('grade', 'grade_id'), 6);

-- ---------------------------------------------------------------------------------------------
-- organization
CREATE TABLE organization (
  org_id         bigserial    PRIMARY KEY,
  parent_org_id  bigint       REFERENCES organization (org_id),
  org_name       varchar(100) NOT NULL,
  org_type       varchar(10)  NOT NULL CHECK (org_type IN ('HQ', 'BR', 'TM')),
  org_level      integer      NOT NULL DEFAULT 1 CHECK (org_level >= 1),
  region         varchar(50),
  effective_from date,
  effective_to   date,
  is_active      boolean      NOT NULL DEFAULT true,
  sort_order     integer      NOT NULL DEFAULT 0,
  version        integer      NOT NULL DEFAULT 0,
  created_at     timestamptz  NOT NULL DEFAULT now(),
  updated_at     timestamptz  NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint,
  CHECK (parent_org_id IS NULL OR parent_org_id <> org_id),
  CHECK (effective_to IS NULL OR effective_from IS NULL OR effective_to >= effective_from)
);
CREATE INDEX organization_parent_idx ON organization (parent_org_id);
COMMENT ON TABLE organization IS 'Organization tree: HQ (headquarters) > BR (branch) > TM (team).';
COMMENT ON COLUMN organization.org_id IS 'Organization identifier';
COMMENT ON COLUMN organization.parent_org_id IS 'Parent organization; NULL = root';
COMMENT ON COLUMN organization.org_name IS 'Organization name';
COMMENT ON COLUMN organization.org_type IS 'HQ, BR or TM';
COMMENT ON COLUMN organization.org_level IS 'Depth in the tree, root = 1 (maintained by the service)';
COMMENT ON COLUMN organization.region IS 'Region label';
COMMENT ON COLUMN organization.effective_from IS 'First day the organization exists';
COMMENT ON COLUMN organization.effective_to IS 'Last day the organization exists (NULL = open)';
COMMENT ON COLUMN organization.is_active IS 'Active flag';
COMMENT ON COLUMN organization.version IS 'Optimistic lock counter';

-- ---------------------------------------------------------------------------------------------
-- agent
CREATE TABLE agent (
  agent_id    bigserial    PRIMARY KEY,
  org_id      bigint       NOT NULL REFERENCES organization (org_id),
  grade_id    bigint       NOT NULL REFERENCES grade (grade_id),
  agent_name  varchar(100) NOT NULL,
  resident_no text,
  license_no  varchar(30),
  phone       varchar(30),
  email       varchar(200),
  bank_code   varchar(10),
  account_no  text,
  status      varchar(10)  NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'LEAVE', 'SUSPEND')),
  join_date   date,
  leave_date  date,
  tax_type    varchar(20)  NOT NULL DEFAULT 'BUSINESS_INCOME' CHECK (tax_type IN ('BUSINESS_INCOME', 'OTHER_INCOME')),
  business_no varchar(20),
  vat_type    varchar(10)  NOT NULL DEFAULT 'NONE' CHECK (vat_type IN ('NONE', 'EXEMPT', 'TAXABLE')),
  version     integer      NOT NULL DEFAULT 0,
  created_at  timestamptz  NOT NULL DEFAULT now(),
  updated_at  timestamptz  NOT NULL DEFAULT now(),
  created_by  bigint,
  updated_by  bigint,
  CHECK (leave_date IS NULL OR join_date IS NULL OR leave_date >= join_date)
);
CREATE INDEX agent_org_idx ON agent (org_id);
CREATE INDEX agent_grade_idx ON agent (grade_id);
CREATE INDEX agent_status_idx ON agent (status);
CREATE INDEX agent_license_no_idx ON agent (license_no);
COMMENT ON TABLE agent IS 'Insurance agents (planners) of the agency.';
COMMENT ON COLUMN agent.agent_id IS 'Agent identifier';
COMMENT ON COLUMN agent.org_id IS 'Current organization';
COMMENT ON COLUMN agent.grade_id IS 'Current grade';
COMMENT ON COLUMN agent.agent_name IS 'Agent name';
COMMENT ON COLUMN agent.resident_no IS 'Resident registration number, AES-256-CBC ciphertext base64(iv||data)';
COMMENT ON COLUMN agent.license_no IS 'Registration (license) number';
COMMENT ON COLUMN agent.phone IS 'Mobile phone (masked on output)';
COMMENT ON COLUMN agent.email IS 'E-mail (masked on output)';
COMMENT ON COLUMN agent.bank_code IS 'Bank of the commission account';
COMMENT ON COLUMN agent.account_no IS 'Commission account number, AES-256-CBC ciphertext base64(iv||data)';
COMMENT ON COLUMN agent.status IS 'ACTIVE, LEAVE, SUSPEND';
COMMENT ON COLUMN agent.join_date IS 'Appointment date';
COMMENT ON COLUMN agent.leave_date IS 'Retirement date (set by the retire action)';
COMMENT ON COLUMN agent.tax_type IS 'BUSINESS_INCOME (3.3 %) or OTHER_INCOME (8.8 %)';
COMMENT ON COLUMN agent.business_no IS 'Business registration number (expected for business-income agents)';
COMMENT ON COLUMN agent.vat_type IS 'NONE, EXEMPT, TAXABLE';
COMMENT ON COLUMN agent.version IS 'Optimistic lock counter';

-- ---------------------------------------------------------------------------------------------
-- agent_org_history
CREATE TABLE agent_org_history (
  history_id    bigserial    PRIMARY KEY,
  agent_id      bigint       NOT NULL REFERENCES agent (agent_id),
  from_org_id   bigint       REFERENCES organization (org_id),
  to_org_id     bigint       REFERENCES organization (org_id),
  from_grade_id bigint       REFERENCES grade (grade_id),
  to_grade_id   bigint       REFERENCES grade (grade_id),
  change_type   varchar(10)  NOT NULL CHECK (change_type IN ('TRANSFER', 'PROMOTE', 'DEMOTE', 'JOIN', 'LEAVE')),
  change_date   date         NOT NULL,
  change_reason varchar(500),
  created_at    timestamptz  NOT NULL DEFAULT now(),
  created_by    bigint
);
CREATE INDEX agent_org_history_agent_idx ON agent_org_history (agent_id, change_date);
COMMENT ON TABLE agent_org_history IS 'Organization and grade changes of agents (append-only).';
COMMENT ON COLUMN agent_org_history.history_id IS 'History identifier';
COMMENT ON COLUMN agent_org_history.agent_id IS 'Agent';
COMMENT ON COLUMN agent_org_history.from_org_id IS 'Organization before the change (NULL on JOIN)';
COMMENT ON COLUMN agent_org_history.to_org_id IS 'Organization after the change';
COMMENT ON COLUMN agent_org_history.from_grade_id IS 'Grade before the change (NULL on JOIN)';
COMMENT ON COLUMN agent_org_history.to_grade_id IS 'Grade after the change';
COMMENT ON COLUMN agent_org_history.change_type IS 'TRANSFER, PROMOTE, DEMOTE, JOIN, LEAVE';
COMMENT ON COLUMN agent_org_history.change_date IS 'Date the change takes effect';
COMMENT ON COLUMN agent_org_history.change_reason IS 'Free-text reason';

-- ---------------------------------------------------------------------------------------------
-- insurance_company
CREATE TABLE insurance_company (
  company_id    bigserial    PRIMARY KEY,
  company_code  varchar(20)  NOT NULL,
  company_name  varchar(100) NOT NULL,
  company_type  varchar(20)  CHECK (company_type IN ('LIFE', 'NON_LIFE', 'OTHER')),
  biz_no        varchar(20),
  contact_name  varchar(100),
  contact_phone varchar(30),
  contact_email varchar(200),
  is_active     boolean      NOT NULL DEFAULT true,
  version       integer      NOT NULL DEFAULT 0,
  created_at    timestamptz  NOT NULL DEFAULT now(),
  updated_at    timestamptz  NOT NULL DEFAULT now(),
  created_by    bigint,
  updated_by    bigint,
  CONSTRAINT insurance_company_code_uq UNIQUE (company_code)
);
COMMENT ON TABLE insurance_company IS 'Insurance carriers whose products the agency sells.';
COMMENT ON COLUMN insurance_company.company_id IS 'Company identifier';
COMMENT ON COLUMN insurance_company.company_code IS 'Carrier code (unique; used by intake mappings and chargeback rules)';
COMMENT ON COLUMN insurance_company.company_name IS 'Carrier name';
COMMENT ON COLUMN insurance_company.company_type IS 'LIFE, NON_LIFE, OTHER';
COMMENT ON COLUMN insurance_company.biz_no IS 'Business registration number';
COMMENT ON COLUMN insurance_company.contact_name IS 'Contact person';
COMMENT ON COLUMN insurance_company.contact_phone IS 'Contact phone';
COMMENT ON COLUMN insurance_company.contact_email IS 'Contact e-mail';
COMMENT ON COLUMN insurance_company.is_active IS 'Inactive carriers are skipped by data intake';
COMMENT ON COLUMN insurance_company.version IS 'Optimistic lock counter';

-- ---------------------------------------------------------------------------------------------
-- product
CREATE TABLE product (
  product_id      bigserial    PRIMARY KEY,
  company_id      bigint       NOT NULL REFERENCES insurance_company (company_id),
  product_code    varchar(30)  NOT NULL,
  product_name    varchar(200) NOT NULL,
  insurance_type  varchar(30)  NOT NULL CHECK (insurance_type IN ('LIFE', 'NON_LIFE', 'ANNUITY', 'SAVINGS', 'HEALTH', 'AUTO')),
  product_group   varchar(30)  CHECK (product_group IN ('LIFE', 'ANNUITY', 'SAVINGS', 'EXCLUDED_AUTO', 'EXCLUDED_HEALTH')),
  pay_period_type varchar(20),
  is_active       boolean      NOT NULL DEFAULT true,
  launch_date     date,
  end_date        date,
  version         integer      NOT NULL DEFAULT 0,
  created_at      timestamptz  NOT NULL DEFAULT now(),
  updated_at      timestamptz  NOT NULL DEFAULT now(),
  created_by      bigint,
  updated_by      bigint,
  CONSTRAINT product_company_code_uq UNIQUE (company_id, product_code),
  CHECK (end_date IS NULL OR launch_date IS NULL OR end_date >= launch_date)
);
COMMENT ON TABLE product IS 'Insurance products per carrier.';
COMMENT ON COLUMN product.product_id IS 'Product identifier';
COMMENT ON COLUMN product.company_id IS 'Carrier';
COMMENT ON COLUMN product.product_code IS 'Carrier product code (unique per carrier)';
COMMENT ON COLUMN product.product_name IS 'Product name';
COMMENT ON COLUMN product.insurance_type IS 'Insurance type (common code INSURANCE_TYPE); key of payout and chargeback rules';
COMMENT ON COLUMN product.product_group IS 'Product category used by regulatory limits, installment ratios and chargeback grades (NULL = uncategorised)';
COMMENT ON COLUMN product.pay_period_type IS 'How the payment period is expressed (YEAR, AGE, LIFETIME, SINGLE)';
COMMENT ON COLUMN product.is_active IS 'Soft-delete flag: DELETE /api/products/{id} sets it to false';
COMMENT ON COLUMN product.launch_date IS 'First sale date';
COMMENT ON COLUMN product.end_date IS 'Last sale date';
COMMENT ON COLUMN product.version IS 'Optimistic lock counter';

-- ---------------------------------------------------------------------------------------------
-- contract
CREATE TABLE contract (
  contract_id     bigserial     PRIMARY KEY,
  agent_id        bigint        NOT NULL REFERENCES agent (agent_id),
  product_id      bigint        NOT NULL REFERENCES product (product_id),
  policy_no       varchar(50)   NOT NULL,
  contractor_name varchar(100),
  insured_name    varchar(100),
  premium         numeric(15,2) NOT NULL CHECK (premium >= 0),
  pay_cycle       varchar(12)   NOT NULL DEFAULT 'MONTHLY' CHECK (pay_cycle IN ('MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SINGLE')),
  pay_period      integer       CHECK (pay_period BETWEEN 0 AND 100),
  coverage_period integer       CHECK (coverage_period BETWEEN 0 AND 120),
  status          varchar(10)   NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'LAPSE', 'REVIVE', 'TERMINATE')),
  contract_date   date,
  effective_date  date,
  lapse_date      date,
  revival_date    date,
  version         integer       NOT NULL DEFAULT 0,
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now(),
  created_by      bigint,
  updated_by      bigint,
  CONSTRAINT contract_policy_no_uq UNIQUE (policy_no),
  CHECK (status <> 'LAPSE' OR lapse_date IS NOT NULL)
);
CREATE INDEX contract_agent_idx ON contract (agent_id);
CREATE INDEX contract_product_idx ON contract (product_id);
CREATE INDEX contract_date_idx ON contract (contract_date);
CREATE INDEX contract_status_lapse_idx ON contract (status, lapse_date);
COMMENT ON TABLE contract IS 'Insurance contracts sold by agents; agent_id is the recruiting agent (successions do not change it).';
COMMENT ON COLUMN contract.contract_id IS 'Contract identifier';
COMMENT ON COLUMN contract.agent_id IS 'Recruiting agent';
COMMENT ON COLUMN contract.product_id IS 'Product';
COMMENT ON COLUMN contract.policy_no IS 'Policy number (unique); intake matches carrier rows on it';
COMMENT ON COLUMN contract.contractor_name IS 'Policyholder name (masked in logs)';
COMMENT ON COLUMN contract.insured_name IS 'Insured person name';
COMMENT ON COLUMN contract.premium IS 'Premium per pay cycle, numeric(15,2)';
COMMENT ON COLUMN contract.pay_cycle IS 'MONTHLY, QUARTERLY, SEMI_ANNUAL, ANNUAL, SINGLE';
COMMENT ON COLUMN contract.pay_period IS 'Premium payment period in years';
COMMENT ON COLUMN contract.coverage_period IS 'Coverage period in years';
COMMENT ON COLUMN contract.status IS 'ACTIVE, LAPSE, REVIVE, TERMINATE';
COMMENT ON COLUMN contract.contract_date IS 'Contract (subscription) date; rate lookups use it';
COMMENT ON COLUMN contract.effective_date IS 'Coverage start date';
COMMENT ON COLUMN contract.lapse_date IS 'Lapse date (required when status is LAPSE)';
COMMENT ON COLUMN contract.revival_date IS 'Revival date';
COMMENT ON COLUMN contract.version IS 'Optimistic lock counter (stale update -> B002)';

-- ---------------------------------------------------------------------------------------------
-- contract_succession (spec 1.2 rule 10)
CREATE TABLE contract_succession (
  succession_id   bigserial    PRIMARY KEY,
  contract_id     bigint       NOT NULL REFERENCES contract (contract_id),
  from_agent_id   bigint       NOT NULL REFERENCES agent (agent_id),
  to_agent_id     bigint       NOT NULL REFERENCES agent (agent_id),
  effective_month char(6)      NOT NULL CHECK (effective_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  status          varchar(10)  NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'CANCELLED')),
  reason          varchar(500),
  cancel_reason   varchar(500),
  cancelled_at    timestamptz,
  cancelled_by    bigint,
  version         integer      NOT NULL DEFAULT 0,
  created_at      timestamptz  NOT NULL DEFAULT now(),
  updated_at      timestamptz  NOT NULL DEFAULT now(),
  created_by      bigint,
  updated_by      bigint,
  CHECK (from_agent_id <> to_agent_id),
  CHECK ((status = 'CANCELLED') = (cancelled_at IS NOT NULL))
);
CREATE INDEX contract_succession_contract_idx ON contract_succession (contract_id, status, effective_month);
CREATE INDEX contract_succession_to_agent_idx ON contract_succession (to_agent_id);
-- at most one active succession per contract and month
CREATE UNIQUE INDEX contract_succession_active_uq ON contract_succession (contract_id, effective_month) WHERE status = 'ACTIVE';
COMMENT ON TABLE contract_succession IS 'Hand-over of a contract''s maintain commission to a successor agent from a settle month on.';
COMMENT ON COLUMN contract_succession.succession_id IS 'Succession identifier';
COMMENT ON COLUMN contract_succession.contract_id IS 'Contract handed over';
COMMENT ON COLUMN contract_succession.from_agent_id IS 'Agent handing over (contract agent or previous successor)';
COMMENT ON COLUMN contract_succession.to_agent_id IS 'Successor agent (receives maintain commission)';
COMMENT ON COLUMN contract_succession.effective_month IS 'First settle month (YYYYMM) the successor is paid';
COMMENT ON COLUMN contract_succession.status IS 'ACTIVE or CANCELLED';
COMMENT ON COLUMN contract_succession.reason IS 'Reason of the hand-over';
COMMENT ON COLUMN contract_succession.cancel_reason IS 'Reason of the cancellation';
COMMENT ON COLUMN contract_succession.cancelled_at IS 'Cancellation time';
COMMENT ON COLUMN contract_succession.cancelled_by IS 'User who cancelled';

-- ---------------------------------------------------------------------------------------------
-- agent_contract: the agent's appointment contract with the agency
CREATE TABLE agent_contract (
  agent_contract_id   bigserial    PRIMARY KEY,
  agent_id            bigint       NOT NULL REFERENCES agent (agent_id),
  contract_type       varchar(20)  NOT NULL CHECK (contract_type IN ('EXCLUSIVE', 'NON_EXCLUSIVE', 'PART_TIME')),
  start_date          date         NOT NULL,
  end_date            date,
  status              varchar(12)  NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'EXPIRED', 'TERMINATED')),
  commission_schedule varchar(50),
  note                varchar(1000),
  version             integer      NOT NULL DEFAULT 0,
  created_at          timestamptz  NOT NULL DEFAULT now(),
  updated_at          timestamptz  NOT NULL DEFAULT now(),
  created_by          bigint,
  updated_by          bigint,
  CHECK (end_date IS NULL OR end_date >= start_date)
);
CREATE INDEX agent_contract_agent_idx ON agent_contract (agent_id, start_date);
COMMENT ON TABLE agent_contract IS 'Appointment contracts between an agent and the agency.';
COMMENT ON COLUMN agent_contract.agent_contract_id IS 'Appointment contract identifier';
COMMENT ON COLUMN agent_contract.agent_id IS 'Agent';
COMMENT ON COLUMN agent_contract.contract_type IS 'EXCLUSIVE, NON_EXCLUSIVE, PART_TIME';
COMMENT ON COLUMN agent_contract.start_date IS 'Contract start';
COMMENT ON COLUMN agent_contract.end_date IS 'Contract end (NULL = open)';
COMMENT ON COLUMN agent_contract.status IS 'ACTIVE, EXPIRED, TERMINATED';
COMMENT ON COLUMN agent_contract.commission_schedule IS 'Name of the commission schedule agreed in the contract';
COMMENT ON COLUMN agent_contract.note IS 'Free-text note';

-- ---------------------------------------------------------------------------------------------
-- agent_license
CREATE TABLE agent_license (
  license_id   bigserial    PRIMARY KEY,
  agent_id     bigint       NOT NULL REFERENCES agent (agent_id),
  license_type varchar(20)  NOT NULL CHECK (license_type IN ('LIFE', 'NON_LIFE', 'THIRD_SECTOR', 'VARIABLE')),
  license_no   varchar(30)  NOT NULL,
  issue_date   date         NOT NULL,
  expiry_date  date,
  status       varchar(12)  NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'EXPIRED', 'SUSPENDED', 'REVOKED')),
  note         varchar(1000),
  version      integer      NOT NULL DEFAULT 0,
  created_at   timestamptz  NOT NULL DEFAULT now(),
  updated_at   timestamptz  NOT NULL DEFAULT now(),
  created_by   bigint,
  updated_by   bigint,
  CONSTRAINT agent_license_type_no_uq UNIQUE (license_type, license_no),
  CHECK (expiry_date IS NULL OR expiry_date >= issue_date)
);
CREATE INDEX agent_license_agent_idx ON agent_license (agent_id);
CREATE INDEX agent_license_expiry_idx ON agent_license (expiry_date);
COMMENT ON TABLE agent_license IS 'Sales licenses of agents (renewal assumed every 5 years, spec 8).';
COMMENT ON COLUMN agent_license.license_id IS 'License identifier';
COMMENT ON COLUMN agent_license.agent_id IS 'Agent';
COMMENT ON COLUMN agent_license.license_type IS 'LIFE, NON_LIFE, THIRD_SECTOR, VARIABLE';
COMMENT ON COLUMN agent_license.license_no IS 'License number (unique per type)';
COMMENT ON COLUMN agent_license.issue_date IS 'Issue date';
COMMENT ON COLUMN agent_license.expiry_date IS 'Expiry date';
COMMENT ON COLUMN agent_license.status IS 'ACTIVE, EXPIRED, SUSPENDED, REVOKED';

-- ---------------------------------------------------------------------------------------------
-- agent_training
CREATE TABLE agent_training (
  training_id   bigserial    PRIMARY KEY,
  agent_id      bigint       NOT NULL REFERENCES agent (agent_id),
  course_name   varchar(200) NOT NULL,
  training_date date         NOT NULL,
  hours         numeric(5,2) NOT NULL CHECK (hours > 0),
  status        varchar(12)  NOT NULL DEFAULT 'SCHEDULED' CHECK (status IN ('SCHEDULED', 'COMPLETED', 'ABSENT', 'CANCELLED')),
  note          varchar(1000),
  version       integer      NOT NULL DEFAULT 0,
  created_at    timestamptz  NOT NULL DEFAULT now(),
  updated_at    timestamptz  NOT NULL DEFAULT now(),
  created_by    bigint,
  updated_by    bigint
);
CREATE INDEX agent_training_agent_idx ON agent_training (agent_id, training_date);
COMMENT ON TABLE agent_training IS 'Mandatory and optional trainings of agents (12 hours per year assumed, spec 8).';
COMMENT ON COLUMN agent_training.training_id IS 'Training identifier';
COMMENT ON COLUMN agent_training.agent_id IS 'Agent';
COMMENT ON COLUMN agent_training.course_name IS 'Course';
COMMENT ON COLUMN agent_training.training_date IS 'Training date';
COMMENT ON COLUMN agent_training.hours IS 'Training hours, numeric(5,2)';
COMMENT ON COLUMN agent_training.status IS 'SCHEDULED, COMPLETED, ABSENT, CANCELLED';

-- ---------------------------------------------------------------------------------------------
-- contract_endorsement
CREATE TABLE contract_endorsement (
  endorsement_id bigserial     PRIMARY KEY,
  contract_id    bigint        NOT NULL REFERENCES contract (contract_id),
  endorse_type   varchar(20)   NOT NULL CHECK (endorse_type IN ('PREMIUM_CHANGE', 'PAY_CYCLE_CHANGE', 'COVERAGE_CHANGE', 'CONTRACTOR_CHANGE', 'BENEFICIARY_CHANGE', 'OTHER')),
  endorse_date   date          NOT NULL,
  before_value   varchar(1000),
  after_value    varchar(1000),
  premium_change numeric(15,2) NOT NULL DEFAULT 0,
  status         varchar(12)   NOT NULL DEFAULT 'REQUESTED' CHECK (status IN ('REQUESTED', 'APPLIED', 'REJECTED', 'CANCELLED')),
  note           varchar(1000),
  version        integer       NOT NULL DEFAULT 0,
  created_at     timestamptz   NOT NULL DEFAULT now(),
  updated_at     timestamptz   NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint
);
CREATE INDEX contract_endorsement_contract_idx ON contract_endorsement (contract_id, endorse_date);
CREATE INDEX contract_endorsement_date_idx ON contract_endorsement (endorse_date);
COMMENT ON TABLE contract_endorsement IS 'Endorsements (changes) of contracts reported by carriers.';
COMMENT ON COLUMN contract_endorsement.endorsement_id IS 'Endorsement identifier';
COMMENT ON COLUMN contract_endorsement.contract_id IS 'Contract';
COMMENT ON COLUMN contract_endorsement.endorse_type IS 'PREMIUM_CHANGE, PAY_CYCLE_CHANGE, COVERAGE_CHANGE, CONTRACTOR_CHANGE, BENEFICIARY_CHANGE, OTHER';
COMMENT ON COLUMN contract_endorsement.endorse_date IS 'Endorsement date';
COMMENT ON COLUMN contract_endorsement.before_value IS 'Value before the change (text)';
COMMENT ON COLUMN contract_endorsement.after_value IS 'Value after the change (text)';
COMMENT ON COLUMN contract_endorsement.premium_change IS 'Premium difference caused by the endorsement (may be negative)';
COMMENT ON COLUMN contract_endorsement.status IS 'REQUESTED, APPLIED, REJECTED, CANCELLED';

-- ---------------------------------------------------------------------------------------------
-- contract_complaint
CREATE TABLE contract_complaint (
  complaint_id   bigserial    PRIMARY KEY,
  contract_id    bigint       NOT NULL REFERENCES contract (contract_id),
  agent_id       bigint       NOT NULL REFERENCES agent (agent_id),
  complaint_date date         NOT NULL,
  complaint_type varchar(20)  NOT NULL CHECK (complaint_type IN ('MIS_SELLING', 'INCOMPLETE_SALE', 'SERVICE', 'OTHER')),
  content        varchar(4000) NOT NULL,
  status         varchar(12)  NOT NULL DEFAULT 'RECEIVED' CHECK (status IN ('RECEIVED', 'IN_PROGRESS', 'RESOLVED', 'REJECTED')),
  resolution     varchar(4000),
  resolved_date  date,
  chargeback_yn  boolean      NOT NULL DEFAULT false,
  version        integer      NOT NULL DEFAULT 0,
  created_at     timestamptz  NOT NULL DEFAULT now(),
  updated_at     timestamptz  NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint,
  CHECK (resolved_date IS NULL OR resolved_date >= complaint_date)
);
CREATE INDEX contract_complaint_contract_idx ON contract_complaint (contract_id);
CREATE INDEX contract_complaint_agent_idx ON contract_complaint (agent_id);
CREATE INDEX contract_complaint_date_idx ON contract_complaint (complaint_date);
COMMENT ON TABLE contract_complaint IS 'Customer complaints about contracts (complaint within 13 months: 100 % chargeback assumed, spec 8).';
COMMENT ON COLUMN contract_complaint.complaint_id IS 'Complaint identifier';
COMMENT ON COLUMN contract_complaint.contract_id IS 'Contract';
COMMENT ON COLUMN contract_complaint.agent_id IS 'Agent responsible for the sale';
COMMENT ON COLUMN contract_complaint.complaint_date IS 'Date received';
COMMENT ON COLUMN contract_complaint.complaint_type IS 'MIS_SELLING, INCOMPLETE_SALE, SERVICE, OTHER';
COMMENT ON COLUMN contract_complaint.content IS 'Complaint text';
COMMENT ON COLUMN contract_complaint.status IS 'RECEIVED, IN_PROGRESS, RESOLVED, REJECTED';
COMMENT ON COLUMN contract_complaint.resolution IS 'How it was resolved';
COMMENT ON COLUMN contract_complaint.resolved_date IS 'Resolution date';
COMMENT ON COLUMN contract_complaint.chargeback_yn IS 'Commission is to be charged back because of the complaint';

-- ---------------------------------------------------------------------------------------------
-- Data dictionary rows for the key columns. Domain codes come from the V002 seeds; a code that
-- does not exist leaves domain_code NULL instead of failing the migration.
INSERT INTO data_dictionary (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
SELECT v.table_name, v.column_name, d.domain_code, v.column_label, v.is_pk, v.is_fk, v.fk_reference, v.business_rule, v.sample_value
FROM (VALUES
  ('grade', 'grade_id', 'ID', 'Grade ID', 'Y', 'N', NULL, 'Seeded 1..6', '1'),
  ('grade', 'grade_code', 'CODE', 'Grade code', 'N', 'N', NULL, 'Unique', 'FC'),
  ('grade', 'grade_level', NULL, 'Grade level', 'N', 'N', NULL, '1 = lowest', '1'),
  ('organization', 'org_id', 'ID', 'Organization ID', 'Y', 'N', NULL, NULL, '10'),
  ('organization', 'parent_org_id', 'ID', 'Parent organization', 'N', 'Y', 'organization.org_id', 'NULL = root; no cycles', '1'),
  ('organization', 'org_type', 'CODE', 'Organization type', 'N', 'N', NULL, 'HQ, BR, TM', 'BR'),
  ('agent', 'agent_id', 'ID', 'Agent ID', 'Y', 'N', NULL, NULL, '1001'),
  ('agent', 'org_id', 'ID', 'Organization', 'N', 'Y', 'organization.org_id', NULL, '10'),
  ('agent', 'grade_id', 'GRADE', 'Grade', 'N', 'Y', 'grade.grade_id', NULL, '1'),
  ('agent', 'agent_name', 'NAME', 'Agent name', 'N', 'N', NULL, 'Masked in logs', 'Hong Gildong'),
  ('agent', 'resident_no', 'RESIDENT_NO', 'Resident registration number', 'N', 'N', NULL, 'AES-256-CBC encrypted; masked on output', '900101-1******'),
  ('agent', 'phone', 'PHONE', 'Mobile phone', 'N', 'N', NULL, 'Masked on output', '010-****-5678'),
  ('agent', 'email', 'EMAIL', 'E-mail', 'N', 'N', NULL, 'Masked on output', 'h***@example.com'),
  ('agent', 'account_no', 'ACCOUNT_NO', 'Account number', 'N', 'N', NULL, 'AES-256-CBC encrypted; masked on output', '110-***-******'),
  ('agent', 'status', 'STATUS', 'Agent status', 'N', 'N', NULL, 'ACTIVE, LEAVE, SUSPEND (common code AGENT_STATUS)', 'ACTIVE'),
  ('agent', 'tax_type', 'TAX_TYPE', 'Tax type', 'N', 'N', NULL, 'BUSINESS_INCOME, OTHER_INCOME (common code TAX_TYPE)', 'BUSINESS_INCOME'),
  ('agent', 'business_no', 'BUSINESS_NO', 'Business number', 'N', 'N', NULL, 'Max 20; expected for BUSINESS_INCOME', '123-45-67890'),
  ('agent', 'vat_type', 'CODE', 'VAT type', 'N', 'N', NULL, 'NONE, EXEMPT, TAXABLE (common code VAT_TYPE)', 'NONE'),
  ('agent', 'license_no', 'LICENSE_NO', 'License number', 'N', 'N', NULL, NULL, 'LIC-12345'),
  ('agent', 'bank_code', 'BANK_CODE', 'Bank code', 'N', 'N', NULL, NULL, '004'),
  ('agent', 'join_date', 'DATE', 'Join date', 'N', 'N', NULL, NULL, '2024-03-01'),
  ('organization', 'org_name', 'NAME_TEXT', 'Organization name', 'N', 'N', NULL, NULL, 'Seoul Branch'),
  ('agent_org_history', 'history_id', 'ID', 'History ID', 'Y', 'N', NULL, NULL, '1'),
  ('agent_org_history', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', NULL, '1001'),
  ('agent_org_history', 'change_type', 'CODE', 'Change type', 'N', 'N', NULL, 'TRANSFER, PROMOTE, DEMOTE, JOIN, LEAVE', 'TRANSFER'),
  ('agent_org_history', 'change_date', 'DATE', 'Change date', 'N', 'N', NULL, NULL, '2025-01-01'),
  ('insurance_company', 'company_id', 'ID', 'Company ID', 'Y', 'N', NULL, NULL, '1'),
  ('insurance_company', 'company_code', 'CODE', 'Company code', 'N', 'N', NULL, 'Unique', 'L001'),
  ('insurance_company', 'company_name', 'NAME_TEXT', 'Company name', 'N', 'N', NULL, NULL, 'Alpha Life'),
  ('insurance_company', 'biz_no', 'BUSINESS_NO', 'Business number', 'N', 'N', NULL, NULL, '123-45-67890'),
  ('product', 'product_id', 'ID', 'Product ID', 'Y', 'N', NULL, NULL, '1'),
  ('product', 'company_id', 'ID', 'Company', 'N', 'Y', 'insurance_company.company_id', NULL, '1'),
  ('product', 'product_code', 'CODE', 'Product code', 'N', 'N', NULL, 'Unique per company', 'P-100'),
  ('product', 'product_group', 'CODE', 'Product category', 'N', 'N', NULL, 'LIFE, ANNUITY, SAVINGS, EXCLUDED_AUTO, EXCLUDED_HEALTH', 'LIFE'),
  ('contract', 'contract_id', 'ID', 'Contract ID', 'Y', 'N', NULL, NULL, '1'),
  ('contract', 'agent_id', 'ID', 'Recruiting agent', 'N', 'Y', 'agent.agent_id', NULL, '1001'),
  ('contract', 'product_id', 'ID', 'Product', 'N', 'Y', 'product.product_id', NULL, '1'),
  ('contract', 'policy_no', 'POLICY_NO', 'Policy number', 'N', 'N', NULL, 'Unique', 'POL-0001'),
  ('contract', 'contractor_name', 'NAME', 'Policyholder', 'N', 'N', NULL, NULL, 'Kim'),
  ('contract', 'premium', 'AMOUNT', 'Premium', 'N', 'N', NULL, 'numeric(15,2), >= 0', '100000.00'),
  ('contract', 'status', 'STATUS', 'Contract status', 'N', 'N', NULL, 'ACTIVE, LAPSE, REVIVE, TERMINATE', 'ACTIVE'),
  ('contract', 'contract_date', 'DATE', 'Contract date', 'N', 'N', NULL, NULL, '2025-01-15'),
  ('contract', 'lapse_date', 'DATE', 'Lapse date', 'N', 'N', NULL, 'Required when status is LAPSE', '2025-06-30'),
  ('contract_succession', 'succession_id', 'ID', 'Succession ID', 'Y', 'N', NULL, NULL, '1'),
  ('contract_succession', 'contract_id', 'ID', 'Contract', 'N', 'Y', 'contract.contract_id', NULL, '1'),
  ('contract_succession', 'from_agent_id', 'ID', 'From agent', 'N', 'Y', 'agent.agent_id', 'Contract agent or previous successor', '1001'),
  ('contract_succession', 'to_agent_id', 'ID', 'To agent', 'N', 'Y', 'agent.agent_id', 'Differs from from_agent_id', '1002'),
  ('contract_succession', 'effective_month', 'SETTLE_MONTH', 'Effective month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('agent_contract', 'agent_contract_id', 'ID', 'Appointment contract ID', 'Y', 'N', NULL, NULL, '1'),
  ('agent_contract', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', NULL, '1001'),
  ('agent_license', 'license_id', 'ID', 'License ID', 'Y', 'N', NULL, NULL, '1'),
  ('agent_license', 'license_no', 'LICENSE_NO', 'License number', 'N', 'N', NULL, 'Unique per license type', 'LIC-12345'),
  ('agent_training', 'training_id', 'ID', 'Training ID', 'Y', 'N', NULL, NULL, '1'),
  ('agent_training', 'hours', 'TRAINING_HOURS', 'Hours', 'N', 'N', NULL, '> 0', '4.00'),
  ('contract_endorsement', 'endorsement_id', 'ID', 'Endorsement ID', 'Y', 'N', NULL, NULL, '1'),
  ('contract_endorsement', 'contract_id', 'ID', 'Contract', 'N', 'Y', 'contract.contract_id', NULL, '1'),
  ('contract_endorsement', 'premium_change', 'AMOUNT', 'Premium change', 'N', 'N', NULL, 'May be negative', '-5000.00'),
  ('contract_complaint', 'complaint_id', 'ID', 'Complaint ID', 'Y', 'N', NULL, NULL, '1'),
  ('contract_complaint', 'contract_id', 'ID', 'Contract', 'N', 'Y', 'contract.contract_id', NULL, '1'),
  ('contract_complaint', 'chargeback_yn', 'FLAG', 'Chargeback flag', 'N', 'N', NULL, 'Complaint within 13 months: 100 % chargeback', 'false')
) AS v (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
LEFT JOIN data_domain d ON d.domain_code = v.domain_code
ON CONFLICT (table_name, column_name) DO NOTHING;
