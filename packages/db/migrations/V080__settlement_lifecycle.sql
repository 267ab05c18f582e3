-- Issue 15: the settlement lifecycle (DECISIONS "Settlement lifecycle"): period close, corrections,
-- disputes, holds with release conditions, retroactive exceptions (step 6), termination settlement,
-- tax invoices and the carrier reconciliation reply. Owned by ledger-settlement; Kysely types in
-- packages/db/src/schema/lifecycle.ts.

-- ---------------------------------------------------------------------------------------------
-- period_close: a settle month is OPEN until closed (no row = OPEN).
CREATE TABLE period_close (
  close_id         bigserial     PRIMARY KEY,
  settle_month     char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  status           varchar(10)   NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'CLOSED')),
  settle_count     integer       NOT NULL DEFAULT 0,
  gross_total      numeric(18,2) NOT NULL DEFAULT 0,
  tax_total        numeric(18,2) NOT NULL DEFAULT 0,
  net_total        numeric(18,2) NOT NULL DEFAULT 0,
  note             varchar(1000),
  closed_by        bigint,
  closed_at        timestamptz,
  reopened_by      bigint,
  reopened_at      timestamptz,
  reopen_reason    varchar(1000),
  reopen_count     integer       NOT NULL DEFAULT 0,
  version          integer       NOT NULL DEFAULT 0,
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  created_by       bigint,
  updated_by       bigint,
  CONSTRAINT period_close_month_uq UNIQUE (settle_month),
  CONSTRAINT period_close_closed_ck CHECK (status = 'OPEN' OR closed_at IS NOT NULL)
);
CREATE INDEX period_close_closed_idx ON period_close (settle_month) WHERE status = 'CLOSED';
COMMENT ON TABLE period_close IS 'Settle month close: a CLOSED month refuses batch runs, confirm/hold/release and ledger changes (B001); reopening needs a reason.';
COMMENT ON COLUMN period_close.settle_month IS 'Settle month YYYYMM (one row per month; no row = OPEN)';
COMMENT ON COLUMN period_close.status IS 'OPEN, CLOSED';
COMMENT ON COLUMN period_close.settle_count IS 'Settle rows of the month when it was last closed';
COMMENT ON COLUMN period_close.gross_total IS 'Sum of gross_amount of the month when it was last closed';
COMMENT ON COLUMN period_close.reopen_reason IS 'Why the month was last reopened';

-- Whether a settle month is closed (used by the guards below and by the services).
CREATE FUNCTION settle_month_closed(month char(6)) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM period_close WHERE settle_month = month AND status = 'CLOSED')
$$;

-- A run of a closed month is refused even when requested around the API (restart included).
CREATE FUNCTION refuse_closed_month_run() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.step_name IS NULL AND NEW.status = 'REQUESTED' AND NEW.settle_month IS NOT NULL
     AND settle_month_closed(NEW.settle_month) THEN
    RAISE EXCEPTION 'settle month % is closed', NEW.settle_month USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER batch_job_log_closed_month_trg
  BEFORE INSERT OR UPDATE OF status ON batch_job_log
  FOR EACH ROW EXECUTE FUNCTION refuse_closed_month_run();

-- Exception rows of a closed month do not change (low volume; the big ledgers are protected by the run guard).
CREATE FUNCTION refuse_closed_month_exception() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (TG_OP <> 'INSERT' AND settle_month_closed(OLD.settle_month))
     OR (TG_OP <> 'DELETE' AND settle_month_closed(NEW.settle_month)) THEN
    RAISE EXCEPTION 'settle month % is closed', coalesce(NEW.settle_month, OLD.settle_month) USING ERRCODE = '23514';
  END IF;
  RETURN coalesce(NEW, OLD);
END $$;
CREATE TRIGGER exception_ledger_closed_month_trg
  BEFORE INSERT OR UPDATE OR DELETE ON exception_ledger
  FOR EACH ROW EXECUTE FUNCTION refuse_closed_month_exception();

-- ---------------------------------------------------------------------------------------------
-- settle_correction: an amount (+ or -) with a reason against an agent and an original month; once
-- approved it is booked into target_month (the first OPEN month) and counted there as correction_total.
ALTER TABLE settle_master ADD COLUMN correction_total numeric(15,2) NOT NULL DEFAULT 0;
COMMENT ON COLUMN settle_master.correction_total IS 'Approved corrections booked into this month (signed; part of gross)';

CREATE TABLE settle_correction (
  correction_id   bigserial     PRIMARY KEY,
  agent_id        bigint        NOT NULL REFERENCES agent (agent_id),
  original_month  char(6)       NOT NULL CHECK (original_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  amount          numeric(15,2) NOT NULL CHECK (amount <> 0),
  reason          varchar(1000) NOT NULL CHECK (btrim(reason) <> ''),
  correction_type varchar(12)   NOT NULL DEFAULT 'MANUAL' CHECK (correction_type IN ('MANUAL', 'RECALC', 'DISPUTE')),
  source_table    varchar(30)   CHECK (source_table IN ('settle_master', 'recruit_ledger', 'maintain_ledger', 'exception_ledger', 'override_settle', 'chargeback')),
  source_id       bigint,
  dispute_id      bigint,
  status          varchar(12)   NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'CANCELLED')),
  target_month    char(6)       CHECK (target_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  decided_by      bigint,
  decided_at      timestamptz,
  decision_note   varchar(1000),
  calc_basis      jsonb,
  version         integer       NOT NULL DEFAULT 0,
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now(),
  created_by      bigint,
  updated_by      bigint,
  CONSTRAINT settle_correction_source_ck CHECK ((source_table IS NULL) = (source_id IS NULL)),
  CONSTRAINT settle_correction_booked_ck CHECK ((status = 'APPROVED') = (target_month IS NOT NULL))
);
CREATE INDEX settle_correction_target_idx ON settle_correction (target_month, agent_id) WHERE status = 'APPROVED';
CREATE INDEX settle_correction_agent_idx ON settle_correction (agent_id, original_month);
CREATE INDEX settle_correction_pending_idx ON settle_correction (created_at) WHERE status = 'PENDING';
COMMENT ON TABLE settle_correction IS 'Settlement corrections: approved ones are booked into target_month (first OPEN month) and counted there as correction_total; closed months are never rewritten.';
COMMENT ON COLUMN settle_correction.original_month IS 'Month the correction is about';
COMMENT ON COLUMN settle_correction.amount IS 'Signed amount added to gross of target_month';
COMMENT ON COLUMN settle_correction.correction_type IS 'MANUAL, RECALC (amount from re-pricing the month under today''s rules), DISPUTE (created by an approved dispute)';
COMMENT ON COLUMN settle_correction.status IS 'PENDING, APPROVED (booked), REJECTED, CANCELLED';
COMMENT ON COLUMN settle_correction.target_month IS 'Month the approved correction is booked into (NULL until approved)';

-- ---------------------------------------------------------------------------------------------
-- commission_dispute (spec 3.1): an agent's complaint against a settle or ledger row.
CREATE TABLE commission_dispute (
  dispute_id      bigserial     PRIMARY KEY,
  agent_id        bigint        NOT NULL REFERENCES agent (agent_id),
  settle_month    char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  target_table    varchar(30)   NOT NULL CHECK (target_table IN ('settle_master', 'recruit_ledger', 'maintain_ledger', 'exception_ledger', 'override_settle', 'chargeback')),
  target_id       bigint        NOT NULL,
  settle_id       bigint        REFERENCES settle_master (settle_id),
  reason_code     varchar(20)   NOT NULL CHECK (reason_code IN ('MISSING_COMMISSION', 'WRONG_AMOUNT', 'WRONG_RATE', 'WRONG_AGENT', 'CHARGEBACK', 'EXCEPTION', 'OTHER')),
  reason_text     varchar(2000) NOT NULL CHECK (btrim(reason_text) <> ''),
  claimed_amount  numeric(15,2),
  file_group_id   varchar(100),
  status          varchar(12)   NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'IN_REVIEW', 'APPROVED', 'REJECTED')),
  review_note     varchar(2000),
  reviewed_by     bigint,
  reviewed_at     timestamptz,
  decision_note   varchar(2000),
  approved_amount numeric(15,2),
  decided_by      bigint,
  decided_at      timestamptz,
  correction_id   bigint        REFERENCES settle_correction (correction_id),
  version         integer       NOT NULL DEFAULT 0,
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now(),
  created_by      bigint,
  updated_by      bigint,
  CONSTRAINT commission_dispute_amount_ck CHECK (approved_amount IS NULL OR approved_amount <> 0)
);
CREATE INDEX commission_dispute_agent_idx ON commission_dispute (agent_id, settle_month);
CREATE INDEX commission_dispute_status_idx ON commission_dispute (status, created_at);
CREATE INDEX commission_dispute_target_idx ON commission_dispute (target_table, target_id);
ALTER TABLE settle_correction
  ADD CONSTRAINT settle_correction_dispute_fk FOREIGN KEY (dispute_id) REFERENCES commission_dispute (dispute_id);
CREATE UNIQUE INDEX settle_correction_dispute_uq ON settle_correction (dispute_id) WHERE dispute_id IS NOT NULL;
COMMENT ON TABLE commission_dispute IS 'Commission disputes: OPEN -> IN_REVIEW -> APPROVED | REJECTED; an approved one with an amount creates its correction in the same transaction.';
COMMENT ON COLUMN commission_dispute.target_table IS 'Table of the disputed row (settle or ledger row)';
COMMENT ON COLUMN commission_dispute.target_id IS 'Id of the disputed row';
COMMENT ON COLUMN commission_dispute.settle_id IS 'The agent''s settle row of that month, when there is one';
COMMENT ON COLUMN commission_dispute.reason_code IS 'MISSING_COMMISSION, WRONG_AMOUNT, WRONG_RATE, WRONG_AGENT, CHARGEBACK, EXCEPTION, OTHER';
COMMENT ON COLUMN commission_dispute.file_group_id IS 'file_storage.group_id of the attachments';
COMMENT ON COLUMN commission_dispute.status IS 'OPEN, IN_REVIEW, APPROVED, REJECTED (common code DISPUTE_STATUS)';
COMMENT ON COLUMN commission_dispute.correction_id IS 'Correction created by the approval (approved_amount given)';

-- ---------------------------------------------------------------------------------------------
-- settle_hold: every hold of a settle row, with its HOLD_REASON code and optional release condition.
CREATE TABLE settle_hold (
  hold_id         bigserial     PRIMARY KEY,
  settle_id       bigint        NOT NULL REFERENCES settle_master (settle_id),
  agent_id        bigint        NOT NULL,
  settle_month    char(6)       NOT NULL,
  reason_code     varchar(30),
  reason          varchar(1000) NOT NULL,
  condition_type  varchar(20)   NOT NULL DEFAULT 'NONE' CHECK (condition_type IN ('NONE', 'UNTIL_DATE', 'LICENSE_VALID', 'TRAINING_HOURS', 'DISPUTE_CLOSED')),
  until_date      date,
  training_year   integer       CHECK (training_year BETWEEN 2000 AND 2999),
  training_hours  numeric(5,2)  CHECK (training_hours > 0),
  dispute_id      bigint        REFERENCES commission_dispute (dispute_id),
  status          varchar(10)   NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'RELEASED')),
  held_by         bigint,
  held_at         timestamptz   NOT NULL DEFAULT now(),
  released_by     bigint,
  released_at     timestamptz,
  release_kind    varchar(10)   CHECK (release_kind IN ('MANUAL', 'CONDITION')),
  release_note    varchar(1000),
  release_run_id  bigint,
  last_checked_at timestamptz,
  last_check_note varchar(1000),
  version         integer       NOT NULL DEFAULT 0,
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT settle_hold_condition_ck CHECK (
    (condition_type <> 'UNTIL_DATE' OR until_date IS NOT NULL)
    AND (condition_type <> 'TRAINING_HOURS' OR (training_year IS NOT NULL AND training_hours IS NOT NULL))
    AND (condition_type <> 'DISPUTE_CLOSED' OR dispute_id IS NOT NULL)),
  CONSTRAINT settle_hold_released_ck CHECK ((status = 'RELEASED') = (released_at IS NOT NULL))
);
CREATE UNIQUE INDEX settle_hold_active_uq ON settle_hold (settle_id) WHERE status = 'ACTIVE';
CREATE INDEX settle_hold_condition_idx ON settle_hold (condition_type) WHERE status = 'ACTIVE' AND condition_type <> 'NONE';
CREATE INDEX settle_hold_dispute_idx ON settle_hold (dispute_id) WHERE dispute_id IS NOT NULL;
COMMENT ON TABLE settle_hold IS 'Holds of settle rows: reason code, optional release condition; every monthly run releases the ACTIVE holds whose condition is met.';
COMMENT ON COLUMN settle_hold.condition_type IS 'NONE (manual release only), UNTIL_DATE, LICENSE_VALID, TRAINING_HOURS (training_year, training_hours), DISPUTE_CLOSED (dispute_id)';
COMMENT ON COLUMN settle_hold.release_kind IS 'MANUAL (release action) or CONDITION (released by a run, release_run_id)';
COMMENT ON COLUMN settle_hold.last_check_note IS 'Why the hold was still held at the last run';

-- Codes for the conditions (HOLD_REASON is maintained by administrators).
INSERT INTO common_code (group_code, code, code_name, code_name_en, sort_order) VALUES
  ('HOLD_REASON', 'LICENSE', 'License not valid', 'License not valid', 7),
  ('HOLD_REASON', 'TRAINING', 'Training hours not met', 'Training hours not met', 8)
ON CONFLICT (group_code, code) DO NOTHING;

INSERT INTO system_config (config_key, config_value, config_group, description, is_encrypted) VALUES
  ('TRAINING_HOURS_REQUIRED', '12', 'SETTLEMENT', 'Training hours per year a TRAINING_HOURS hold waits for when it names none (spec 8)', 'N')
ON CONFLICT (config_key) DO NOTHING;

-- ---------------------------------------------------------------------------------------------
-- Step 6 RETRO_PLUS/RETRO_MINUS: which rule revisions (rule row id + version) a month's run has handled,
-- so that later months do not scan the ledgers again for the same revision.
CREATE TABLE retro_rule_scan (
  rule_table    varchar(20)  NOT NULL CHECK (rule_table IN ('commission_rate', 'payout_rule')),
  rule_id       bigint       NOT NULL,
  rule_version  integer      NOT NULL,
  settle_month  char(6)      NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  run_id        bigint,
  ledger_rows   integer      NOT NULL DEFAULT 0,
  scanned_at    timestamptz  NOT NULL DEFAULT now(),
  PRIMARY KEY (rule_table, rule_id, rule_version)
);
COMMENT ON TABLE retro_rule_scan IS 'Rule revisions (id + version) whose earlier-month ledger rows step 6 of settle_month re-priced into RETRO_PLUS/RETRO_MINUS rows';

-- ---------------------------------------------------------------------------------------------
-- termination_settlement: the final settlement of a leaving agent.
CREATE TABLE termination_settlement (
  term_id            bigserial     PRIMARY KEY,
  agent_id           bigint        NOT NULL REFERENCES agent (agent_id),
  leave_date         date          NOT NULL,
  settle_month       char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  unpaid_confirmed   numeric(15,2) NOT NULL DEFAULT 0,
  future_chargebacks numeric(15,2) NOT NULL DEFAULT 0,
  pending_deductions numeric(15,2) NOT NULL DEFAULT 0,
  pending_exceptions numeric(15,2) NOT NULL DEFAULT 0,
  final_net          numeric(15,2) NOT NULL DEFAULT 0,
  status             varchar(12)   NOT NULL DEFAULT 'DRAFT' CHECK (status IN ('DRAFT', 'APPROVED', 'CANCELLED')),
  calc_basis         jsonb,
  note               varchar(1000),
  approved_by        bigint,
  approved_at        timestamptz,
  deduction_id       bigint        REFERENCES agent_deduction (deduction_id),
  version            integer       NOT NULL DEFAULT 0,
  created_at         timestamptz   NOT NULL DEFAULT now(),
  updated_at         timestamptz   NOT NULL DEFAULT now(),
  created_by         bigint,
  updated_by         bigint
);
CREATE UNIQUE INDEX termination_settlement_agent_uq ON termination_settlement (agent_id) WHERE status <> 'CANCELLED';
COMMENT ON TABLE termination_settlement IS 'Final settlement of a leaving agent: unpaid confirmed net - accelerated chargebacks - pending deductions +/- pending exceptions = final net (negative: a receivable carried as a deduction).';
COMMENT ON COLUMN termination_settlement.settle_month IS 'Month the final settlement (and a receivable) is booked into';
COMMENT ON COLUMN termination_settlement.final_net IS 'unpaid_confirmed - future_chargebacks - pending_deductions + pending_exceptions';
COMMENT ON COLUMN termination_settlement.deduction_id IS 'The receivable (agent_deduction) written when final_net is negative';

-- ---------------------------------------------------------------------------------------------
-- tax_invoice: for TAXABLE agents, one issued invoice per agent and month of payment.
CREATE TABLE tax_invoice (
  invoice_id     bigserial     PRIMARY KEY,
  invoice_no     varchar(30)   NOT NULL,
  agent_id       bigint        NOT NULL REFERENCES agent (agent_id),
  settle_month   char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  payment_id     bigint        REFERENCES payment (payment_id),
  supply_amount  numeric(15,2) NOT NULL CHECK (supply_amount >= 0),
  vat_amount     numeric(15,2) NOT NULL CHECK (vat_amount >= 0),
  total_amount   numeric(15,2) NOT NULL,
  issue_date     date          NOT NULL,
  status         varchar(12)   NOT NULL DEFAULT 'ISSUED' CHECK (status IN ('ISSUED', 'CANCELLED')),
  cancel_reason  varchar(1000),
  cancelled_by   bigint,
  cancelled_at   timestamptz,
  version        integer       NOT NULL DEFAULT 0,
  created_at     timestamptz   NOT NULL DEFAULT now(),
  updated_at     timestamptz   NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint,
  CONSTRAINT tax_invoice_no_uq UNIQUE (invoice_no),
  CONSTRAINT tax_invoice_total_ck CHECK (total_amount = supply_amount + vat_amount)
);
CREATE UNIQUE INDEX tax_invoice_agent_month_uq ON tax_invoice (agent_id, settle_month) WHERE status = 'ISSUED';
CREATE INDEX tax_invoice_month_idx ON tax_invoice (settle_month, status);
COMMENT ON TABLE tax_invoice IS 'Tax invoices of TAXABLE agents: one ISSUED per agent and month of payment (supply amount, VAT); counted in the VAT report''s taxInvoiceCount.';

-- ---------------------------------------------------------------------------------------------
-- carrier_reply: the reconciliation reply to a carrier for a month (spreadsheet file).
CREATE TABLE carrier_reply (
  reply_id         bigserial     PRIMARY KEY,
  company_code     varchar(20)   NOT NULL REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  settle_month     char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  diff_count       integer       NOT NULL DEFAULT 0,
  unmatched_count  integer       NOT NULL DEFAULT 0,
  diff_total       numeric(18,2) NOT NULL DEFAULT 0,
  file_id          bigint        REFERENCES file_storage (file_id),
  status           varchar(12)   NOT NULL DEFAULT 'GENERATED' CHECK (status IN ('GENERATED', 'SENT')),
  generated_by     bigint,
  generated_at     timestamptz   NOT NULL DEFAULT now(),
  sent_by          bigint,
  sent_at          timestamptz,
  sent_note        varchar(1000),
  version          integer       NOT NULL DEFAULT 0,
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT carrier_reply_company_month_uq UNIQUE (company_code, settle_month)
);
COMMENT ON TABLE carrier_reply IS 'Reconciliation reply per carrier and month: DIFF ledger rows and unmatched raw rows with the reason, as a spreadsheet file; GENERATED -> SENT.';
