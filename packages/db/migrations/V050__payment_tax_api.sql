-- V050: the payment-tax API (issue 12): payments from CONFIRMED settlements, negative-gross carry-forward,
-- payment accounting entries, accounting close with balance snapshots, statement runs, year-end statements.
-- DECISIONS "Payments and tax". Owned by payment-tax.

-- ---------------------------------------------------------------------------------------------
-- payment: one live (not FAIL) payment per settlement row; a FAIL payment can be paid again.
CREATE UNIQUE INDEX payment_settle_live_uq ON payment (settle_id) WHERE status <> 'FAIL' AND settle_id IS NOT NULL;
CREATE INDEX payment_file_idx ON payment (pay_file_ref) WHERE pay_file_ref IS NOT NULL;
COMMENT ON COLUMN payment.transfer_date IS 'Date the bank pays (a Korean business day), set when the transfer file is written';

-- ---------------------------------------------------------------------------------------------
-- deduction_carry_forward: a CONFIRMED settlement with a negative gross gets no payment; its amount becomes a
-- PENDING CHARGEBACK_PENDING deduction of the next month. One row per origin settlement (idempotent).
CREATE TABLE deduction_carry_forward (
  settle_id     bigint        PRIMARY KEY REFERENCES settle_master (settle_id),
  agent_id      bigint        NOT NULL REFERENCES agent (agent_id),
  from_month    char(6)       NOT NULL CHECK (from_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  to_month      char(6)       NOT NULL CHECK (to_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  deduction_id  bigint        NOT NULL REFERENCES agent_deduction (deduction_id),
  amount        numeric(15,2) NOT NULL CHECK (amount > 0),
  created_at    timestamptz   NOT NULL DEFAULT now(),
  created_by    bigint
);
CREATE INDEX deduction_carry_forward_deduction_idx ON deduction_carry_forward (deduction_id);
COMMENT ON TABLE deduction_carry_forward IS 'Negative-gross carry-forward: the settlement a CHARGEBACK_PENDING deduction came from.';
COMMENT ON COLUMN deduction_carry_forward.settle_id IS 'Origin settlement (negative gross, no payment)';
COMMENT ON COLUMN deduction_carry_forward.agent_id IS 'Agent';
COMMENT ON COLUMN deduction_carry_forward.from_month IS 'Settle month of the origin settlement';
COMMENT ON COLUMN deduction_carry_forward.to_month IS 'Settle month of the deduction (the next month)';
COMMENT ON COLUMN deduction_carry_forward.deduction_id IS 'CHARGEBACK_PENDING deduction that carries the amount';
COMMENT ON COLUMN deduction_carry_forward.amount IS 'Amount carried: minus the negative gross';

-- ---------------------------------------------------------------------------------------------
-- contract_accounting_entry: payments are booked too (ledger_type PAYMENT, ledger_id = payment_id, no contract).
ALTER TABLE contract_accounting_entry ALTER COLUMN contract_id DROP NOT NULL;
ALTER TABLE contract_accounting_entry DROP CONSTRAINT IF EXISTS contract_accounting_entry_ledger_type_check;
ALTER TABLE contract_accounting_entry ADD CONSTRAINT contract_accounting_entry_ledger_type_check
  CHECK (ledger_type IN ('RECRUIT', 'MAINTAIN', 'PAYMENT'));
ALTER TABLE contract_accounting_entry ADD COLUMN close_id bigint;
COMMENT ON COLUMN contract_accounting_entry.ledger_type IS 'RECRUIT (recruit_ledger), MAINTAIN (maintain_ledger) or PAYMENT (payment)';
COMMENT ON COLUMN contract_accounting_entry.ledger_id IS 'Ledger row (recruit_ledger or maintain_ledger) or payment_id by ledger_type';
COMMENT ON COLUMN contract_accounting_entry.contract_id IS 'Contract of the ledger row (NULL for payment entries)';
COMMENT ON COLUMN contract_accounting_entry.close_id IS 'accounting_close that gave the journal number (NULL when closed by hand)';

INSERT INTO account_code (account_code, account_name, account_type, description, sort_order) VALUES
  ('1130', 'Agent receivables', 'BOTH',  'Loans, advances and other amounts owed by agents, recovered by payment deductions', 5),
  ('1350', 'Input VAT',         'DEBIT', 'VAT paid to TAXABLE agents on their commission (reclaimable)', 6)
ON CONFLICT (account_code) DO NOTHING;

-- ---------------------------------------------------------------------------------------------
-- accounting_close: one per settle month. DRAFT -> CLOSED (execute: journal numbers and balance snapshots)
-- -> DRAFT again on reopen (only while no later month is CLOSED).
CREATE TABLE accounting_close (
  close_id       bigserial     PRIMARY KEY,
  settle_month   char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  status         varchar(10)   NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'CLOSED')),
  journal_no     varchar(30),
  execute_count  integer       NOT NULL DEFAULT 0,
  entry_count    integer       NOT NULL DEFAULT 0,
  total_debit    numeric(15,2) NOT NULL DEFAULT 0,
  total_credit   numeric(15,2) NOT NULL DEFAULT 0,
  note           varchar(500),
  closed_at      timestamptz,
  closed_by      bigint,
  reopened_at    timestamptz,
  reopened_by    bigint,
  reopen_reason  varchar(500),
  version        integer       NOT NULL DEFAULT 0,
  created_at     timestamptz   NOT NULL DEFAULT now(),
  updated_at     timestamptz   NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint,
  CONSTRAINT accounting_close_month_uq UNIQUE (settle_month)
);
COMMENT ON TABLE accounting_close IS 'Accounting close per settle month: posts the month''s entries under one journal number and snapshots account balances.';
COMMENT ON COLUMN accounting_close.close_id IS 'Close identifier';
COMMENT ON COLUMN accounting_close.settle_month IS 'Settle month YYYYMM (unique)';
COMMENT ON COLUMN accounting_close.status IS 'DRAFT (open) or CLOSED (entries posted)';
COMMENT ON COLUMN accounting_close.journal_no IS 'Journal number given to the entries at the last execution';
COMMENT ON COLUMN accounting_close.execute_count IS 'Executions so far (a reopened month closed again gets a new journal number)';
COMMENT ON COLUMN accounting_close.entry_count IS 'Entries posted by the last execution';
COMMENT ON COLUMN accounting_close.total_debit IS 'Sum of the debits of the month''s posted entries';
COMMENT ON COLUMN accounting_close.total_credit IS 'Sum of the credits of the month''s posted entries';

CREATE TABLE account_balance_snapshot (
  snapshot_id    bigserial     PRIMARY KEY,
  close_id       bigint        NOT NULL REFERENCES accounting_close (close_id) ON DELETE CASCADE,
  settle_month   char(6)       NOT NULL,
  account_code   varchar(10)   NOT NULL,
  account_name   varchar(100),
  debit_amount   numeric(15,2) NOT NULL DEFAULT 0,
  credit_amount  numeric(15,2) NOT NULL DEFAULT 0,
  balance_amount numeric(15,2) NOT NULL DEFAULT 0,
  created_at     timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT account_balance_snapshot_uq UNIQUE (close_id, account_code)
);
CREATE INDEX account_balance_snapshot_month_idx ON account_balance_snapshot (settle_month, account_code);
COMMENT ON TABLE account_balance_snapshot IS 'Per account at a close: the month''s debits and credits and the balance (debit - credit) carried from the previous closed month.';
COMMENT ON COLUMN account_balance_snapshot.balance_amount IS 'Previous closed month''s balance + debit - credit';

-- ---------------------------------------------------------------------------------------------
-- statement_run: progress of POST /api/statements/generate-for-month (one RUNNING run per month and type).
CREATE TABLE statement_run (
  run_id         bigserial     PRIMARY KEY,
  settle_month   char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  statement_type varchar(10)   NOT NULL CHECK (statement_type IN ('MONTHLY', 'ANNUAL', 'PROOF')),
  status         varchar(10)   NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING', 'COMPLETED', 'FAILED')),
  total_count    integer       NOT NULL DEFAULT 0,
  done_count     integer       NOT NULL DEFAULT 0,
  error_count    integer       NOT NULL DEFAULT 0,
  error_message  varchar(2000),
  started_at     timestamptz   NOT NULL DEFAULT now(),
  heartbeat_at   timestamptz   NOT NULL DEFAULT now(),
  ended_at       timestamptz,
  created_by     bigint
);
CREATE UNIQUE INDEX statement_run_running_uq ON statement_run (settle_month, statement_type) WHERE status = 'RUNNING';
COMMENT ON TABLE statement_run IS 'Runs of generate-for-month: counts for the progress view; a run without heartbeat for 2 minutes counts as failed.';

-- ---------------------------------------------------------------------------------------------
-- year_end_statement: per agent and year, from the payments of the year (status not FAIL).
CREATE TABLE year_end_statement (
  statement_id     bigserial     PRIMARY KEY,
  agent_id         bigint        NOT NULL REFERENCES agent (agent_id),
  settle_year      integer       NOT NULL CHECK (settle_year BETWEEN 1900 AND 9999),
  total_amount     numeric(15,2) NOT NULL DEFAULT 0,
  total_income_tax numeric(15,2) NOT NULL DEFAULT 0,
  total_local_tax  numeric(15,2) NOT NULL DEFAULT 0,
  total_vat        numeric(15,2) NOT NULL DEFAULT 0,
  total_deduction  numeric(15,2) NOT NULL DEFAULT 0,
  total_net        numeric(15,2) NOT NULL DEFAULT 0,
  payment_count    integer       NOT NULL DEFAULT 0,
  status           varchar(10)   NOT NULL DEFAULT 'GENERATED' CHECK (status IN ('GENERATED', 'ISSUED', 'SENT')),
  file_id          bigint        REFERENCES file_storage (file_id),
  issued_at        timestamptz,
  issued_by        bigint,
  sent_at          timestamptz,
  sent_by          bigint,
  version          integer       NOT NULL DEFAULT 0,
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT year_end_statement_key_uq UNIQUE (agent_id, settle_year)
);
CREATE INDEX year_end_statement_year_idx ON year_end_statement (settle_year, status);
COMMENT ON TABLE year_end_statement IS 'Year-end income statement per agent: sums of the year''s payments (status not FAIL); GENERATED rows are recomputed by regenerate, ISSUED and SENT rows are kept.';
COMMENT ON COLUMN year_end_statement.status IS 'GENERATED (figures only), ISSUED (spreadsheet written), SENT (sent to the agent)';
COMMENT ON COLUMN year_end_statement.file_id IS 'Issued spreadsheet (file_storage)';

-- ---------------------------------------------------------------------------------------------
-- Bank holidays beyond the public-holiday calendar (comma-separated YYYY-MM-DD).
INSERT INTO system_config (config_key, config_value, config_group, description, is_encrypted) VALUES
  ('BANK_CLOSED_DAYS', '', 'PAYMENT', 'Extra days the banks are closed (YYYY-MM-DD, comma separated) on top of weekends and Korean public holidays', 'N')
ON CONFLICT (config_key) DO NOTHING;
