-- Payment, deductions, statements, accounting and tax (spec 1.2 rules 5-6, 1.3 steps 9-12, 2.6, 2.7, 3.2).
-- Owned by payment-tax. Batch steps 9-12 (accountingEntryGenerate, yearEndIncomeAggregate,
-- withholdingTaxQuarterly, vatReportQuarterly) write contract_accounting_entry, agent_annual_income,
-- withholding_tax_report and vat_report. Money numeric(15,2); rates in system_config (spec 8).

-- ---------------------------------------------------------------------------------------------
-- payment: one payout of a settlement to an agent
CREATE TABLE payment (
  payment_id        bigserial     PRIMARY KEY,
  settle_id         bigint        REFERENCES settle_master (settle_id),
  agent_id          bigint        NOT NULL REFERENCES agent (agent_id),
  settle_month      char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  bank_code         varchar(10),
  account_no        text,
  amount            numeric(15,2) NOT NULL CHECK (amount >= 0),
  transfer_date     date,
  status            varchar(10)   NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENT', 'SUCCESS', 'FAIL')),
  result_code       varchar(20),
  result_msg        varchar(500),
  pay_file_ref      bigint        REFERENCES file_storage (file_id),
  income_tax_amount numeric(15,2) NOT NULL DEFAULT 0,
  local_tax_amount  numeric(15,2) NOT NULL DEFAULT 0,
  vat_amount        numeric(15,2) NOT NULL DEFAULT 0,
  deduction_amount  numeric(15,2) NOT NULL DEFAULT 0,
  net_amount        numeric(15,2) NOT NULL,
  tax_calculated_at timestamptz,
  version           integer       NOT NULL DEFAULT 0,
  created_at        timestamptz   NOT NULL DEFAULT now(),
  updated_at        timestamptz   NOT NULL DEFAULT now(),
  created_by        bigint,
  updated_by        bigint
);
CREATE INDEX payment_month_status_idx ON payment (settle_month, status);
CREATE INDEX payment_agent_month_idx ON payment (agent_id, settle_month);
CREATE INDEX payment_settle_idx ON payment (settle_id);
COMMENT ON TABLE payment IS 'Payments of settlements to agents, with withholding taxes (rule 5) and deductions (rule 6).';
COMMENT ON COLUMN payment.payment_id IS 'Payment identifier';
COMMENT ON COLUMN payment.settle_id IS 'Settlement paid (settle_master)';
COMMENT ON COLUMN payment.agent_id IS 'Agent paid';
COMMENT ON COLUMN payment.settle_month IS 'Settle month YYYYMM of the settlement; tax reports and annual income group by it';
COMMENT ON COLUMN payment.bank_code IS 'Bank of the target account';
COMMENT ON COLUMN payment.account_no IS 'Target account number, AES-256-CBC ciphertext base64(iv||data)';
COMMENT ON COLUMN payment.amount IS 'Payment amount before taxes and deductions';
COMMENT ON COLUMN payment.transfer_date IS 'Transfer date';
COMMENT ON COLUMN payment.status IS 'PENDING, SENT (transfer file created), SUCCESS, FAIL (common code PAYMENT_STATUS)';
COMMENT ON COLUMN payment.result_code IS 'Bank result code';
COMMENT ON COLUMN payment.result_msg IS 'Bank result message';
COMMENT ON COLUMN payment.pay_file_ref IS 'Transfer file (file_storage) the payment was sent in';
COMMENT ON COLUMN payment.income_tax_amount IS 'round0(amount x income rate of the agent''s tax type / 100)';
COMMENT ON COLUMN payment.local_tax_amount IS 'round0(income tax x TAX_RATE_LOCAL_INCOME / 100)';
COMMENT ON COLUMN payment.vat_amount IS 'amount x TAX_RATE_VAT / 100 for TAXABLE agents, else 0';
COMMENT ON COLUMN payment.deduction_amount IS 'Sum of the deductions applied (payment_deduction_detail)';
COMMENT ON COLUMN payment.net_amount IS 'amount - income tax - local tax + vat - deduction (= amount until taxes are calculated)';
COMMENT ON COLUMN payment.tax_calculated_at IS 'When the taxes were last calculated (NULL = not yet)';
COMMENT ON COLUMN payment.version IS 'Optimistic lock counter';

-- ---------------------------------------------------------------------------------------------
-- agent_deduction: amounts withheld from an agent's payment of a month
CREATE TABLE agent_deduction (
  deduction_id   bigserial     PRIMARY KEY,
  agent_id       bigint        NOT NULL REFERENCES agent (agent_id),
  settle_month   char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  deduction_type varchar(20)   NOT NULL CHECK (deduction_type IN ('LOAN', 'ADVANCE', 'GUARANTEE', 'DUES', 'AD', 'CHARGEBACK_PENDING', 'OTHER')),
  amount         numeric(15,2) NOT NULL CHECK (amount > 0),
  status         varchar(10)   NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPLIED', 'CANCELLED')),
  description    varchar(500),
  applied_at     timestamptz,
  cancelled_at   timestamptz,
  version        integer       NOT NULL DEFAULT 0,
  created_at     timestamptz   NOT NULL DEFAULT now(),
  updated_at     timestamptz   NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint,
  CONSTRAINT agent_deduction_key_uq UNIQUE (agent_id, settle_month, deduction_type)
);
CREATE INDEX agent_deduction_month_status_idx ON agent_deduction (settle_month, status);
COMMENT ON TABLE agent_deduction IS 'Deductions per agent, month and type (loan, advance, guarantee, dues, ads, pending chargeback, other).';
COMMENT ON COLUMN agent_deduction.deduction_id IS 'Deduction identifier';
COMMENT ON COLUMN agent_deduction.agent_id IS 'Agent';
COMMENT ON COLUMN agent_deduction.settle_month IS 'Settle month YYYYMM (unique with agent and type)';
COMMENT ON COLUMN agent_deduction.deduction_type IS 'LOAN, ADVANCE, GUARANTEE, DUES, AD, CHARGEBACK_PENDING, OTHER (common code DEDUCTION_TYPE)';
COMMENT ON COLUMN agent_deduction.amount IS 'Amount to deduct, > 0';
COMMENT ON COLUMN agent_deduction.status IS 'PENDING, APPLIED, CANCELLED (common code DEDUCTION_STATUS)';
COMMENT ON COLUMN agent_deduction.description IS 'Free-text description';
COMMENT ON COLUMN agent_deduction.applied_at IS 'When it was applied to a payment';
COMMENT ON COLUMN agent_deduction.cancelled_at IS 'When it was cancelled';
COMMENT ON COLUMN agent_deduction.version IS 'Optimistic lock counter';

CREATE TABLE payment_deduction_detail (
  detail_id    bigserial     PRIMARY KEY,
  payment_id   bigint        NOT NULL REFERENCES payment (payment_id) ON DELETE CASCADE,
  deduction_id bigint        NOT NULL REFERENCES agent_deduction (deduction_id),
  amount       numeric(15,2) NOT NULL CHECK (amount >= 0),
  created_at   timestamptz   NOT NULL DEFAULT now(),
  created_by   bigint,
  CONSTRAINT payment_deduction_detail_uq UNIQUE (payment_id, deduction_id)
);
CREATE INDEX payment_deduction_detail_deduction_idx ON payment_deduction_detail (deduction_id);
COMMENT ON TABLE payment_deduction_detail IS 'One row per deduction applied to a payment (rule 6).';
COMMENT ON COLUMN payment_deduction_detail.detail_id IS 'Detail identifier';
COMMENT ON COLUMN payment_deduction_detail.payment_id IS 'Payment';
COMMENT ON COLUMN payment_deduction_detail.deduction_id IS 'Deduction applied';
COMMENT ON COLUMN payment_deduction_detail.amount IS 'Amount deducted';

-- ---------------------------------------------------------------------------------------------
-- account_code: chart of accounts used by accounting entries
CREATE TABLE account_code (
  account_code varchar(10)   PRIMARY KEY CHECK (account_code ~ '^[0-9A-Z]{1,10}$'),
  account_name varchar(100)  NOT NULL,
  account_type varchar(10)   NOT NULL CHECK (account_type IN ('DEBIT', 'CREDIT', 'BOTH')),
  description  varchar(500),
  is_active    boolean       NOT NULL DEFAULT true,
  sort_order   integer       NOT NULL DEFAULT 0,
  created_at   timestamptz   NOT NULL DEFAULT now(),
  updated_at   timestamptz   NOT NULL DEFAULT now(),
  created_by   bigint,
  updated_by   bigint
);
COMMENT ON TABLE account_code IS 'Account codes of the accounting entries (four seeded).';
COMMENT ON COLUMN account_code.account_code IS 'Account code';
COMMENT ON COLUMN account_code.account_name IS 'Account name';
COMMENT ON COLUMN account_code.account_type IS 'DEBIT, CREDIT or BOTH: the side the account is normally used on';
COMMENT ON COLUMN account_code.description IS 'Description';
COMMENT ON COLUMN account_code.is_active IS 'Inactive codes are not offered for new entries';
COMMENT ON COLUMN account_code.sort_order IS 'Display order';

INSERT INTO account_code (account_code, account_name, account_type, description, sort_order) VALUES
  ('5110', 'Commission expense',        'DEBIT',  'Agent commission recognised as expense (debit of accountingEntryGenerate)', 1),
  ('2110', 'Commission payable',        'CREDIT', 'Agent commission owed until paid (credit of accountingEntryGenerate)', 2),
  ('2120', 'Withholding tax payable',   'CREDIT', 'Income and local tax withheld from payments, owed to the tax office', 3),
  ('1110', 'Cash and deposits',         'BOTH',   'Bank account the payments are made from', 4)
ON CONFLICT (account_code) DO NOTHING;

-- ---------------------------------------------------------------------------------------------
-- contract_accounting_entry: journal lines per ledger row (step 9); posted when journal_no is set
CREATE TABLE contract_accounting_entry (
  entry_id            bigserial     PRIMARY KEY,
  contract_id         bigint        NOT NULL REFERENCES contract (contract_id),
  ledger_type         varchar(10)   NOT NULL CHECK (ledger_type IN ('RECRUIT', 'MAINTAIN')),
  ledger_id           bigint        NOT NULL,
  settle_month        char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  agent_id            bigint        NOT NULL REFERENCES agent (agent_id),
  company_code        varchar(20),
  debit_account_code  varchar(10)   NOT NULL REFERENCES account_code (account_code) ON UPDATE CASCADE,
  credit_account_code varchar(10)   NOT NULL REFERENCES account_code (account_code) ON UPDATE CASCADE,
  amount              numeric(15,2) NOT NULL,
  journal_no          varchar(30),
  posted_at           timestamptz,
  run_id              bigint,
  created_at          timestamptz   NOT NULL DEFAULT now(),
  updated_at          timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT contract_accounting_entry_key_uq UNIQUE (ledger_type, ledger_id, debit_account_code, credit_account_code),
  CONSTRAINT contract_accounting_entry_sides_ck CHECK (debit_account_code <> credit_account_code)
);
CREATE INDEX contract_accounting_entry_month_idx ON contract_accounting_entry (settle_month, journal_no);
CREATE INDEX contract_accounting_entry_contract_idx ON contract_accounting_entry (contract_id);
CREATE INDEX contract_accounting_entry_journal_idx ON contract_accounting_entry (journal_no) WHERE journal_no IS NOT NULL;
COMMENT ON TABLE contract_accounting_entry IS 'Accounting entries of the commission ledgers: one line per ledger row and account pair; posted (closed) when journal_no is set.';
COMMENT ON COLUMN contract_accounting_entry.entry_id IS 'Entry identifier';
COMMENT ON COLUMN contract_accounting_entry.contract_id IS 'Contract of the ledger row';
COMMENT ON COLUMN contract_accounting_entry.ledger_type IS 'RECRUIT (recruit_ledger) or MAINTAIN (maintain_ledger)';
COMMENT ON COLUMN contract_accounting_entry.ledger_id IS 'Ledger row (recruit_ledger or maintain_ledger by ledger_type)';
COMMENT ON COLUMN contract_accounting_entry.settle_month IS 'Settle month YYYYMM of the ledger row';
COMMENT ON COLUMN contract_accounting_entry.agent_id IS 'Agent of the ledger row';
COMMENT ON COLUMN contract_accounting_entry.company_code IS 'Carrier of the ledger row';
COMMENT ON COLUMN contract_accounting_entry.debit_account_code IS 'Debit account (5110 commission expense for generated entries)';
COMMENT ON COLUMN contract_accounting_entry.credit_account_code IS 'Credit account (2110 commission payable for generated entries)';
COMMENT ON COLUMN contract_accounting_entry.amount IS 'Amount: the ledger row''s agent_amount';
COMMENT ON COLUMN contract_accounting_entry.journal_no IS 'Journal number; NULL until the entry is closed (posted)';
COMMENT ON COLUMN contract_accounting_entry.posted_at IS 'When journal_no was set';
COMMENT ON COLUMN contract_accounting_entry.run_id IS 'batch_job_log run that generated the entry';

-- ---------------------------------------------------------------------------------------------
-- agent_annual_income: yearly totals per agent (step 10)
CREATE TABLE agent_annual_income (
  income_id        bigserial     PRIMARY KEY,
  agent_id         bigint        NOT NULL REFERENCES agent (agent_id),
  settle_year      integer       NOT NULL CHECK (settle_year BETWEEN 1900 AND 9999),
  total_amount     numeric(15,2) NOT NULL DEFAULT 0,
  total_income_tax numeric(15,2) NOT NULL DEFAULT 0,
  total_local_tax  numeric(15,2) NOT NULL DEFAULT 0,
  total_vat        numeric(15,2) NOT NULL DEFAULT 0,
  total_net        numeric(15,2) NOT NULL DEFAULT 0,
  payment_count    integer       NOT NULL DEFAULT 0,
  run_id           bigint,
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT agent_annual_income_key_uq UNIQUE (agent_id, settle_year)
);
CREATE INDEX agent_annual_income_year_idx ON agent_annual_income (settle_year);
COMMENT ON TABLE agent_annual_income IS 'Business-income totals per agent and year: payments whose settle_month lies in the year and whose status is not FAIL.';
COMMENT ON COLUMN agent_annual_income.income_id IS 'Row identifier';
COMMENT ON COLUMN agent_annual_income.agent_id IS 'Agent (unique with settle_year)';
COMMENT ON COLUMN agent_annual_income.settle_year IS 'Year (4 digits)';
COMMENT ON COLUMN agent_annual_income.total_amount IS 'Sum of payment.amount';
COMMENT ON COLUMN agent_annual_income.total_income_tax IS 'Sum of payment.income_tax_amount';
COMMENT ON COLUMN agent_annual_income.total_local_tax IS 'Sum of payment.local_tax_amount';
COMMENT ON COLUMN agent_annual_income.total_vat IS 'Sum of payment.vat_amount';
COMMENT ON COLUMN agent_annual_income.total_net IS 'Sum of payment.net_amount';
COMMENT ON COLUMN agent_annual_income.payment_count IS 'Payments counted';
COMMENT ON COLUMN agent_annual_income.run_id IS 'batch_job_log run that last aggregated the row (NULL = regenerated through the API)';

-- ---------------------------------------------------------------------------------------------
-- withholding_tax_report: quarterly withholding per agent (step 11)
CREATE TABLE withholding_tax_report (
  report_id       bigserial     PRIMARY KEY,
  settle_quarter  char(7)       NOT NULL CHECK (settle_quarter ~ '^[0-9]{4}-Q[1-4]$'),
  agent_id        bigint        NOT NULL REFERENCES agent (agent_id),
  org_id          bigint        REFERENCES organization (org_id),
  total_income    numeric(15,2) NOT NULL DEFAULT 0,
  total_withheld  numeric(15,2) NOT NULL DEFAULT 0,
  total_local_tax numeric(15,2) NOT NULL DEFAULT 0,
  payment_count   integer       NOT NULL DEFAULT 0,
  file_status     varchar(10)   NOT NULL DEFAULT 'PENDING' CHECK (file_status IN ('PENDING', 'COMPLETED')),
  completed_by    bigint,
  completed_at    timestamptz,
  run_id          bigint,
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT withholding_tax_report_key_uq UNIQUE (settle_quarter, agent_id)
);
CREATE INDEX withholding_tax_report_quarter_idx ON withholding_tax_report (settle_quarter, file_status);
CREATE INDEX withholding_tax_report_org_idx ON withholding_tax_report (org_id);
COMMENT ON TABLE withholding_tax_report IS 'Withholding tax per agent and quarter (payments of the quarter''s three settle months, status not FAIL); COMPLETED rows are never recomputed.';
COMMENT ON COLUMN withholding_tax_report.report_id IS 'Report row identifier';
COMMENT ON COLUMN withholding_tax_report.settle_quarter IS 'Quarter YYYY-Qn';
COMMENT ON COLUMN withholding_tax_report.agent_id IS 'Agent (unique with settle_quarter)';
COMMENT ON COLUMN withholding_tax_report.org_id IS 'Agent''s organization when the report was aggregated';
COMMENT ON COLUMN withholding_tax_report.total_income IS 'Sum of payment.amount';
COMMENT ON COLUMN withholding_tax_report.total_withheld IS 'Sum of payment.income_tax_amount';
COMMENT ON COLUMN withholding_tax_report.total_local_tax IS 'Sum of payment.local_tax_amount';
COMMENT ON COLUMN withholding_tax_report.payment_count IS 'Payments counted';
COMMENT ON COLUMN withholding_tax_report.file_status IS 'PENDING (recomputed by the batch and regenerate) or COMPLETED (filed; untouched)';
COMMENT ON COLUMN withholding_tax_report.completed_by IS 'User who completed the row';
COMMENT ON COLUMN withholding_tax_report.completed_at IS 'When it was completed';
COMMENT ON COLUMN withholding_tax_report.run_id IS 'batch_job_log run that last aggregated the row';

-- ---------------------------------------------------------------------------------------------
-- vat_report: quarterly VAT (step 12)
CREATE TABLE vat_report (
  report_id         bigserial     PRIMARY KEY,
  settle_quarter    char(7)       NOT NULL CHECK (settle_quarter ~ '^[0-9]{4}-Q[1-4]$'),
  total_sales       numeric(15,2) NOT NULL DEFAULT 0,
  total_purchase    numeric(15,2) NOT NULL DEFAULT 0,
  total_vat_payable numeric(15,2) NOT NULL DEFAULT 0,
  tax_invoice_count integer       NOT NULL DEFAULT 0,
  file_status       varchar(10)   NOT NULL DEFAULT 'PENDING' CHECK (file_status IN ('PENDING', 'COMPLETED')),
  completed_by      bigint,
  completed_at      timestamptz,
  run_id            bigint,
  created_at        timestamptz   NOT NULL DEFAULT now(),
  updated_at        timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT vat_report_quarter_uq UNIQUE (settle_quarter)
);
COMMENT ON TABLE vat_report IS 'VAT per quarter over the payments of the quarter''s three settle months (status not FAIL); COMPLETED rows are never recomputed.';
COMMENT ON COLUMN vat_report.report_id IS 'Report identifier';
COMMENT ON COLUMN vat_report.settle_quarter IS 'Quarter YYYY-Qn (unique)';
COMMENT ON COLUMN vat_report.total_sales IS 'Sum of payment.amount of agents whose vat_type is TAXABLE';
COMMENT ON COLUMN vat_report.total_purchase IS 'Purchases with input VAT (not modelled yet: 0)';
COMMENT ON COLUMN vat_report.total_vat_payable IS 'Sum of payment.vat_amount';
COMMENT ON COLUMN vat_report.tax_invoice_count IS 'Payments with vat_amount > 0 (one tax invoice each)';
COMMENT ON COLUMN vat_report.file_status IS 'PENDING (recomputed) or COMPLETED (filed; untouched)';
COMMENT ON COLUMN vat_report.completed_by IS 'User who completed the row';
COMMENT ON COLUMN vat_report.completed_at IS 'When it was completed';
COMMENT ON COLUMN vat_report.run_id IS 'batch_job_log run that last aggregated the row';

-- ---------------------------------------------------------------------------------------------
-- commission_statement: issued statements (API in a later issue)
CREATE TABLE commission_statement (
  statement_id      bigserial     PRIMARY KEY,
  agent_id          bigint        NOT NULL REFERENCES agent (agent_id),
  settle_month      char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  statement_type    varchar(10)   NOT NULL DEFAULT 'MONTHLY' CHECK (statement_type IN ('MONTHLY', 'ANNUAL', 'PROOF')),
  gross_amount      numeric(15,2) NOT NULL DEFAULT 0,
  income_tax_amount numeric(15,2) NOT NULL DEFAULT 0,
  local_tax_amount  numeric(15,2) NOT NULL DEFAULT 0,
  vat_amount        numeric(15,2) NOT NULL DEFAULT 0,
  deduction_amount  numeric(15,2) NOT NULL DEFAULT 0,
  net_amount        numeric(15,2) NOT NULL DEFAULT 0,
  file_id           bigint        REFERENCES file_storage (file_id),
  file_format       varchar(10)   NOT NULL DEFAULT 'XLSX' CHECK (file_format IN ('XLSX', 'PDF')),
  issue_status      varchar(12)   NOT NULL DEFAULT 'GENERATED' CHECK (issue_status IN ('GENERATED', 'SENT', 'DOWNLOADED', 'CANCELLED')),
  issued_at         timestamptz,
  issued_by         bigint,
  version           integer       NOT NULL DEFAULT 0,
  created_at        timestamptz   NOT NULL DEFAULT now(),
  updated_at        timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT commission_statement_key_uq UNIQUE (agent_id, settle_month, statement_type)
);
CREATE INDEX commission_statement_month_idx ON commission_statement (settle_month, issue_status);
COMMENT ON TABLE commission_statement IS 'Commission statements per agent, month and type with a snapshot of the amounts; re-issue updates the row.';
COMMENT ON COLUMN commission_statement.statement_id IS 'Statement identifier';
COMMENT ON COLUMN commission_statement.agent_id IS 'Agent';
COMMENT ON COLUMN commission_statement.settle_month IS 'Settle month YYYYMM';
COMMENT ON COLUMN commission_statement.statement_type IS 'MONTHLY, ANNUAL, PROOF (common code STATEMENT_TYPE)';
COMMENT ON COLUMN commission_statement.gross_amount IS 'Gross amount at issue';
COMMENT ON COLUMN commission_statement.income_tax_amount IS 'Income tax at issue';
COMMENT ON COLUMN commission_statement.local_tax_amount IS 'Local tax at issue';
COMMENT ON COLUMN commission_statement.vat_amount IS 'VAT at issue';
COMMENT ON COLUMN commission_statement.deduction_amount IS 'Deductions at issue';
COMMENT ON COLUMN commission_statement.net_amount IS 'Net amount at issue';
COMMENT ON COLUMN commission_statement.file_id IS 'Generated file (file_storage)';
COMMENT ON COLUMN commission_statement.file_format IS 'XLSX (PDF is rejected by the API)';
COMMENT ON COLUMN commission_statement.issue_status IS 'GENERATED, SENT, DOWNLOADED, CANCELLED (common code STATEMENT_STATUS)';
COMMENT ON COLUMN commission_statement.issued_at IS 'Issue time';
COMMENT ON COLUMN commission_statement.issued_by IS 'User who issued it';
COMMENT ON COLUMN commission_statement.version IS 'Optimistic lock counter';

-- ---------------------------------------------------------------------------------------------
-- Data dictionary rows for the key columns (unknown domain codes leave domain_code NULL).
INSERT INTO data_dictionary (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
SELECT v.table_name, v.column_name, d.domain_code, v.column_label, v.is_pk, v.is_fk, v.fk_reference, v.business_rule, v.sample_value
FROM (VALUES
  ('payment', 'payment_id', 'ID', 'Payment ID', 'Y', 'N', NULL, NULL, '1'),
  ('payment', 'settle_id', 'ID', 'Settlement', 'N', 'Y', 'settle_master.settle_id', NULL, '1'),
  ('payment', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', NULL, '1001'),
  ('payment', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('payment', 'bank_code', 'BANK_CODE', 'Bank code', 'N', 'N', NULL, NULL, '004'),
  ('payment', 'account_no', 'ACCOUNT_NO', 'Account number', 'N', 'N', NULL, 'AES-256-CBC encrypted; masked on output', '110-***-******'),
  ('payment', 'amount', 'AMOUNT', 'Amount', 'N', 'N', NULL, '>= 0', '1000000.00'),
  ('payment', 'status', 'STATUS', 'Payment status', 'N', 'N', NULL, 'PENDING, SENT, SUCCESS, FAIL (common code PAYMENT_STATUS)', 'PENDING'),
  ('payment', 'income_tax_amount', 'AMOUNT', 'Income tax', 'N', 'N', NULL, 'round0(amount x income rate / 100)', '33000.00'),
  ('payment', 'local_tax_amount', 'AMOUNT', 'Local tax', 'N', 'N', NULL, 'round0(income tax x local rate / 100)', '3300.00'),
  ('payment', 'vat_amount', 'AMOUNT', 'VAT', 'N', 'N', NULL, 'TAXABLE agents only', '0.00'),
  ('payment', 'deduction_amount', 'AMOUNT', 'Deductions', 'N', 'N', NULL, 'Sum of applied deductions', '0.00'),
  ('payment', 'net_amount', 'AMOUNT', 'Net amount', 'N', 'N', NULL, 'amount - income tax - local tax + vat - deduction', '963700.00'),
  ('agent_deduction', 'deduction_id', 'ID', 'Deduction ID', 'Y', 'N', NULL, NULL, '1'),
  ('agent_deduction', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', 'Unique with settle_month and deduction_type', '1001'),
  ('agent_deduction', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('agent_deduction', 'deduction_type', 'CODE', 'Deduction type', 'N', 'N', NULL, 'Common code DEDUCTION_TYPE', 'LOAN'),
  ('agent_deduction', 'amount', 'AMOUNT', 'Amount', 'N', 'N', NULL, '> 0', '50000.00'),
  ('agent_deduction', 'status', 'STATUS', 'Deduction status', 'N', 'N', NULL, 'PENDING, APPLIED, CANCELLED', 'PENDING'),
  ('payment_deduction_detail', 'detail_id', 'ID', 'Detail ID', 'Y', 'N', NULL, NULL, '1'),
  ('payment_deduction_detail', 'payment_id', 'ID', 'Payment', 'N', 'Y', 'payment.payment_id', NULL, '1'),
  ('payment_deduction_detail', 'deduction_id', 'ID', 'Deduction', 'N', 'Y', 'agent_deduction.deduction_id', NULL, '1'),
  ('payment_deduction_detail', 'amount', 'AMOUNT', 'Amount', 'N', 'N', NULL, NULL, '50000.00'),
  ('account_code', 'account_code', 'CODE', 'Account code', 'Y', 'N', NULL, 'Seeded 5110, 2110, 2120, 1110', '5110'),
  ('account_code', 'account_name', 'NAME_TEXT', 'Account name', 'N', 'N', NULL, NULL, 'Commission expense'),
  ('account_code', 'account_type', 'CODE', 'Account type', 'N', 'N', NULL, 'DEBIT, CREDIT, BOTH', 'DEBIT'),
  ('account_code', 'is_active', 'FLAG', 'Active', 'N', 'N', NULL, NULL, 'true'),
  ('contract_accounting_entry', 'entry_id', 'ID', 'Entry ID', 'Y', 'N', NULL, NULL, '1'),
  ('contract_accounting_entry', 'contract_id', 'ID', 'Contract', 'N', 'Y', 'contract.contract_id', NULL, '1'),
  ('contract_accounting_entry', 'ledger_type', 'CODE', 'Ledger type', 'N', 'N', NULL, 'RECRUIT or MAINTAIN', 'RECRUIT'),
  ('contract_accounting_entry', 'ledger_id', 'ID', 'Ledger row', 'N', 'N', NULL, 'recruit_ledger or maintain_ledger by ledger_type', '10'),
  ('contract_accounting_entry', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('contract_accounting_entry', 'debit_account_code', 'CODE', 'Debit account', 'N', 'Y', 'account_code.account_code', NULL, '5110'),
  ('contract_accounting_entry', 'credit_account_code', 'CODE', 'Credit account', 'N', 'Y', 'account_code.account_code', NULL, '2110'),
  ('contract_accounting_entry', 'amount', 'AMOUNT', 'Amount', 'N', 'N', NULL, 'Ledger agent_amount', '7200.00'),
  ('contract_accounting_entry', 'journal_no', NULL, 'Journal number', 'N', 'N', NULL, 'NULL until closed; posted entries are never regenerated', 'J202501-0001'),
  ('agent_annual_income', 'income_id', 'ID', 'Row ID', 'Y', 'N', NULL, NULL, '1'),
  ('agent_annual_income', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', 'Unique with settle_year', '1001'),
  ('agent_annual_income', 'settle_year', NULL, 'Year', 'N', 'N', NULL, '4 digits', '2025'),
  ('agent_annual_income', 'total_amount', 'AMOUNT', 'Total amount', 'N', 'N', NULL, 'Payments of the year, status not FAIL', '12000000.00'),
  ('agent_annual_income', 'total_income_tax', 'AMOUNT', 'Total income tax', 'N', 'N', NULL, NULL, '396000.00'),
  ('agent_annual_income', 'total_local_tax', 'AMOUNT', 'Total local tax', 'N', 'N', NULL, NULL, '39600.00'),
  ('agent_annual_income', 'total_vat', 'AMOUNT', 'Total VAT', 'N', 'N', NULL, NULL, '0.00'),
  ('agent_annual_income', 'total_net', 'AMOUNT', 'Total net', 'N', 'N', NULL, NULL, '11564400.00'),
  ('withholding_tax_report', 'report_id', 'ID', 'Report ID', 'Y', 'N', NULL, NULL, '1'),
  ('withholding_tax_report', 'settle_quarter', NULL, 'Quarter', 'N', 'N', NULL, 'YYYY-Qn', '2025-Q1'),
  ('withholding_tax_report', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', 'Unique with settle_quarter', '1001'),
  ('withholding_tax_report', 'org_id', 'ID', 'Organization', 'N', 'Y', 'organization.org_id', NULL, '10'),
  ('withholding_tax_report', 'total_income', 'AMOUNT', 'Total income', 'N', 'N', NULL, NULL, '3000000.00'),
  ('withholding_tax_report', 'total_withheld', 'AMOUNT', 'Income tax withheld', 'N', 'N', NULL, NULL, '99000.00'),
  ('withholding_tax_report', 'total_local_tax', 'AMOUNT', 'Local tax withheld', 'N', 'N', NULL, NULL, '9900.00'),
  ('withholding_tax_report', 'file_status', 'STATUS', 'File status', 'N', 'N', NULL, 'PENDING or COMPLETED', 'PENDING'),
  ('vat_report', 'report_id', 'ID', 'Report ID', 'Y', 'N', NULL, NULL, '1'),
  ('vat_report', 'settle_quarter', NULL, 'Quarter', 'N', 'N', NULL, 'YYYY-Qn, unique', '2025-Q1'),
  ('vat_report', 'total_sales', 'AMOUNT', 'Total sales', 'N', 'N', NULL, 'Payments of TAXABLE agents', '5000000.00'),
  ('vat_report', 'total_purchase', 'AMOUNT', 'Total purchase', 'N', 'N', NULL, 'Not modelled yet: 0', '0.00'),
  ('vat_report', 'total_vat_payable', 'AMOUNT', 'VAT payable', 'N', 'N', NULL, 'Sum of payment VAT', '500000.00'),
  ('vat_report', 'tax_invoice_count', NULL, 'Tax invoices', 'N', 'N', NULL, 'Payments with VAT > 0', '12'),
  ('vat_report', 'file_status', 'STATUS', 'File status', 'N', 'N', NULL, 'PENDING or COMPLETED', 'PENDING'),
  ('commission_statement', 'statement_id', 'ID', 'Statement ID', 'Y', 'N', NULL, NULL, '1'),
  ('commission_statement', 'agent_id', 'ID', 'Agent', 'N', 'Y', 'agent.agent_id', 'Unique with settle_month and statement_type', '1001'),
  ('commission_statement', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('commission_statement', 'statement_type', 'CODE', 'Statement type', 'N', 'N', NULL, 'MONTHLY, ANNUAL, PROOF', 'MONTHLY'),
  ('commission_statement', 'file_format', 'CODE', 'File format', 'N', 'N', NULL, 'XLSX; PDF rejected', 'XLSX'),
  ('commission_statement', 'issue_status', 'STATUS', 'Issue status', 'N', 'N', NULL, 'GENERATED, SENT, DOWNLOADED, CANCELLED', 'GENERATED'),
  ('commission_statement', 'net_amount', 'AMOUNT', 'Net amount', 'N', 'N', NULL, 'Snapshot at issue', '963700.00')
) AS v (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
LEFT JOIN data_domain d ON d.domain_code = v.domain_code
ON CONFLICT (table_name, column_name) DO NOTHING;
