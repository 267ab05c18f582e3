-- Events between services (packages/events), the approval workflow (auth-platform), withdraw requests
-- (payment-tax) and settlement decisions (ledger-settlement). DECISIONS "Approval workflow and events between
-- services"; spec 2.6 withdraw_request, 3.2, 4.5, 6.

-- ---------------------------------------------------------------------------------------------------------------
-- Outbox: written in the deciding transaction, published by the relay to the owner's BullMQ queue.
-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE event_outbox (
  event_id      bigserial    PRIMARY KEY,
  -- random per row: part of the BullMQ job id, so a reset database or another environment on the same Redis
  -- never meets an old job of the same event id
  event_key     uuid         NOT NULL DEFAULT gen_random_uuid(),
  event_type    varchar(60)  NOT NULL,
  target        varchar(40)  NOT NULL,
  subject       varchar(100),
  payload       jsonb        NOT NULL,
  status        varchar(12)  NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'PUBLISHED')),
  publish_count integer      NOT NULL DEFAULT 0,
  created_at    timestamptz  NOT NULL DEFAULT now(),
  published_at  timestamptz
);
CREATE INDEX event_outbox_pending_idx ON event_outbox (event_id) WHERE status = 'PENDING';

-- One row per (consumer, event) whose effect has committed: written in the effect's transaction.
CREATE TABLE processed_event (
  consumer     varchar(40)  NOT NULL,
  event_id     bigint       NOT NULL,
  event_type   varchar(60)  NOT NULL,
  processed_at timestamptz  NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);

-- Events a consumer gave up on (retries exhausted or a business refusal); operators see and replay them.
CREATE TABLE parked_event (
  parked_id     bigserial     PRIMARY KEY,
  consumer      varchar(40)   NOT NULL,
  event_id      bigint        NOT NULL,
  event_type    varchar(60)   NOT NULL,
  subject       varchar(100),
  payload       jsonb         NOT NULL,
  attempts      integer       NOT NULL,
  error_message varchar(1000) NOT NULL,
  status        varchar(12)   NOT NULL DEFAULT 'PARKED' CHECK (status IN ('PARKED', 'REPLAYED', 'DISCARDED')),
  parked_at     timestamptz   NOT NULL DEFAULT now(),
  resolved_at   timestamptz,
  resolved_by   bigint,
  UNIQUE (consumer, event_id)
);
CREATE INDEX parked_event_open_idx ON parked_event (parked_at DESC) WHERE status = 'PARKED';

-- ---------------------------------------------------------------------------------------------------------------
-- Approval workflow (owned by auth-platform)
-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE approval_line (
  line_id     bigserial    PRIMARY KEY,
  line_code   varchar(30)  NOT NULL UNIQUE,
  line_name   varchar(100) NOT NULL,
  target_type varchar(20)  NOT NULL CHECK (target_type IN ('WITHDRAW', 'SETTLE', 'DISPUTE', 'INCENTIVE')),
  -- ["ROLE_A", "ROLE_B"]: step n is approved by a holder of the n-th role (spec 8: at most 3 steps)
  step_roles  jsonb        NOT NULL CHECK (jsonb_typeof(step_roles) = 'array' AND jsonb_array_length(step_roles) BETWEEN 1 AND 3),
  description varchar(500),
  is_active   boolean      NOT NULL DEFAULT true,
  version     integer      NOT NULL DEFAULT 0,
  created_at  timestamptz  NOT NULL DEFAULT now(),
  updated_at  timestamptz  NOT NULL DEFAULT now(),
  created_by  bigint,
  updated_by  bigint
);

CREATE TABLE approval_request (
  request_id      bigserial     PRIMARY KEY,
  target_type     varchar(20)   NOT NULL CHECK (target_type IN ('WITHDRAW', 'SETTLE', 'DISPUTE', 'INCENTIVE')),
  target_id       bigint        NOT NULL,
  line_id         bigint        NOT NULL REFERENCES approval_line (line_id),
  line_code       varchar(30)   NOT NULL,
  step_count      integer       NOT NULL CHECK (step_count BETWEEN 1 AND 3),
  current_step    integer       NOT NULL DEFAULT 1 CHECK (current_step BETWEEN 1 AND 3),
  status          varchar(12)   NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'CANCELLED')),
  title           varchar(200)  NOT NULL,
  requested_by    bigint        NOT NULL,
  requested_at    timestamptz   NOT NULL DEFAULT now(),
  decided_by      bigint,
  decided_at      timestamptz,
  reason          varchar(1000),
  -- the APPROVAL_REQUESTED event that created it (requests started by another service)
  source_event_id bigint        UNIQUE,
  version         integer       NOT NULL DEFAULT 0,
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now()
);
-- one open approval per target
CREATE UNIQUE INDEX approval_request_open_target_uq ON approval_request (target_type, target_id) WHERE status = 'PENDING';
CREATE INDEX approval_request_requester_idx ON approval_request (requested_by, request_id DESC);

CREATE TABLE approval_step (
  step_id      bigserial     PRIMARY KEY,
  request_id   bigint        NOT NULL REFERENCES approval_request (request_id) ON DELETE CASCADE,
  step_no      integer       NOT NULL CHECK (step_no BETWEEN 1 AND 3),
  role_code    varchar(30)   NOT NULL,
  status       varchar(12)   NOT NULL CHECK (status IN ('WAITING', 'PENDING', 'APPROVED', 'REJECTED', 'CANCELLED')),
  activated_at timestamptz,
  decided_by   bigint,
  decided_at   timestamptz,
  comment      varchar(1000),
  UNIQUE (request_id, step_no)
);
CREATE INDEX approval_step_active_role_idx ON approval_step (role_code, request_id) WHERE status = 'PENDING';

-- ---------------------------------------------------------------------------------------------------------------
-- Withdraw requests (owned by payment-tax)
-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE withdraw_request (
  withdraw_id         bigserial     PRIMARY KEY,
  agent_id            bigint        NOT NULL REFERENCES agent (agent_id),
  amount              numeric(15,2) NOT NULL CHECK (amount > 0),
  -- the month the advance counts for: the request month, or the next one after the cut-off day
  settle_month        char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  request_date        date          NOT NULL,
  status              varchar(12)   NOT NULL DEFAULT 'REQUESTED' CHECK (status IN ('REQUESTED', 'APPROVED', 'SENT', 'REJECTED', 'CANCELLED')),
  note                varchar(500),
  approval_line_code  varchar(30)   NOT NULL,
  approval_request_id bigint,
  bank_code           varchar(10),
  -- ciphertext (FieldCipher), copied from the agent when the request is made
  account_no          varchar(200),
  decided_by          bigint,
  decided_at          timestamptz,
  reject_reason       varchar(1000),
  transfer_tx_id      varchar(100),
  transfer_status     varchar(30),
  transfer_at         timestamptz,
  transfer_attempts   integer       NOT NULL DEFAULT 0,
  fail_reason         varchar(1000),
  -- the ADVANCE deduction the sent amount was booked into (taken from that month's payment)
  deduction_id        bigint        REFERENCES agent_deduction (deduction_id),
  version             integer       NOT NULL DEFAULT 0,
  created_at          timestamptz   NOT NULL DEFAULT now(),
  updated_at          timestamptz   NOT NULL DEFAULT now(),
  created_by          bigint,
  updated_by          bigint
);
CREATE INDEX withdraw_request_agent_idx ON withdraw_request (agent_id, status);
-- approved but not sent: the bank-retry queue
CREATE INDEX withdraw_request_retry_idx ON withdraw_request (withdraw_id) WHERE status = 'APPROVED';

-- ---------------------------------------------------------------------------------------------------------------
-- Approval decisions applied to settlement rows (owned by ledger-settlement)
-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE settle_approval (
  settle_approval_id bigserial     PRIMARY KEY,
  settle_id          bigint        NOT NULL REFERENCES settle_master (settle_id) ON DELETE CASCADE,
  request_id         bigint,
  event_id           bigint        NOT NULL UNIQUE,
  decision           varchar(12)   NOT NULL CHECK (decision IN ('APPROVED', 'REJECTED', 'CANCELLED')),
  reason             varchar(1000),
  decided_by         bigint,
  decided_at         timestamptz   NOT NULL,
  applied_at         timestamptz   NOT NULL DEFAULT now()
);
CREATE INDEX settle_approval_settle_idx ON settle_approval (settle_id, settle_approval_id DESC);

-- ---------------------------------------------------------------------------------------------------------------
-- Seeds: default lines (ADMIN and SUPER_ADMIN hold APPROVAL APPROVE) and the line a withdraw request uses
-- ---------------------------------------------------------------------------------------------------------------
INSERT INTO approval_line (line_code, line_name, target_type, step_roles, description) VALUES
  ('WITHDRAW_DEFAULT', 'Withdraw request', 'WITHDRAW', '["ADMIN", "SUPER_ADMIN"]', 'Administrator, then super administrator'),
  ('SETTLE_DEFAULT',   'Settlement confirmation', 'SETTLE', '["ADMIN"]', 'One administrator')
ON CONFLICT (line_code) DO NOTHING;

INSERT INTO system_config (config_key, config_value, config_group, description, is_encrypted) VALUES
  ('WITHDRAW_APPROVAL_LINE', 'WITHDRAW_DEFAULT', 'PAYMENT', 'Approval line of a withdraw request that names none', 'N')
ON CONFLICT (config_key) DO NOTHING;

COMMENT ON TABLE event_outbox IS 'Events between services, written with the decision; the relay publishes them to the owner''s queue';
COMMENT ON TABLE processed_event IS 'Events a consumer has applied (written in the same transaction as the effect)';
COMMENT ON TABLE parked_event IS 'Events a consumer could not apply after its retries (or refused); visible to operators';
COMMENT ON TABLE approval_line IS 'Approval lines: 1 to 3 steps, each approved by a holder of a role';
COMMENT ON TABLE approval_request IS 'Approval requests of withdraw requests, settlements, disputes and incentives';
COMMENT ON TABLE approval_step IS 'Steps of an approval request and their decisions';
COMMENT ON TABLE withdraw_request IS 'Agents'' requests to be paid part of their confirmed, unpaid balance before the monthly payment';
COMMENT ON TABLE settle_approval IS 'Approval decisions applied to settlement rows (a rejection keeps the row CALCULATED with its reason)';
