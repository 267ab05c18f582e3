-- Settlement batch status (spec 1.3, 2.6, 3.2). Owned by packages/batch (written by the step workers
-- of intake, ledger-settlement and payment-tax; the run API lives in ledger-settlement).
--
-- One table holds both kinds of row:
--   run row  : step_name IS NULL, parent_job_log_id IS NULL; the id returned by the run request.
--   step row : step_name set, parent_job_log_id -> its run row, step_seq 1..12.
-- A step that does not run in the settle month (year-end / quarterly) is recorded as COMPLETED with
-- skipped = true and skip_reason set; the spec's status set (REQUESTED, RUNNING, COMPLETED, FAILED)
-- is kept as is.

CREATE TABLE batch_job_log (
  job_log_id        bigserial    PRIMARY KEY,
  job_name          varchar(50)  NOT NULL,
  job_params        jsonb        NOT NULL DEFAULT '{}'::jsonb,
  settle_month      char(6)      NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  company_code      varchar(20),
  status            varchar(20)  NOT NULL CHECK (status IN ('REQUESTED', 'RUNNING', 'COMPLETED', 'FAILED')),
  step_name         varchar(50),
  parent_job_log_id bigint       REFERENCES batch_job_log (job_log_id) ON DELETE CASCADE,
  step_seq          integer,
  -- Incremented by every restart of a FAILED run; part of the BullMQ job ids and carried in the job
  -- payload, so jobs of an earlier attempt are recognised as stale and do nothing.
  run_attempt       integer      NOT NULL DEFAULT 1,
  skipped           boolean      NOT NULL DEFAULT false,
  skip_reason       varchar(200),
  total_count       bigint       NOT NULL DEFAULT 0,
  success_count     bigint       NOT NULL DEFAULT 0,
  error_count       bigint       NOT NULL DEFAULT 0,
  skipped_count     bigint       NOT NULL DEFAULT 0,
  error_message     text,
  started_at        timestamptz,
  ended_at          timestamptz,
  duration_ms       bigint,
  requested_by      bigint,
  created_at        timestamptz  NOT NULL DEFAULT now(),
  updated_at        timestamptz  NOT NULL DEFAULT now(),
  CONSTRAINT batch_job_log_kind_ck CHECK ((step_name IS NULL) = (parent_job_log_id IS NULL)),
  CONSTRAINT batch_job_log_step_uq UNIQUE (parent_job_log_id, step_name)
);

-- At most one REQUESTED/RUNNING run per job name: a concurrent second run request (or a restart while
-- another run is active) fails with a unique violation, decided atomically by PostgreSQL -> B010.
CREATE UNIQUE INDEX batch_job_log_one_active_run_uq
  ON batch_job_log (job_name)
  WHERE step_name IS NULL AND status IN ('REQUESTED', 'RUNNING');

CREATE INDEX batch_job_log_runs_ix ON batch_job_log (job_log_id DESC) WHERE step_name IS NULL;
CREATE INDEX batch_job_log_month_ix ON batch_job_log (settle_month) WHERE step_name IS NULL;

COMMENT ON TABLE batch_job_log IS 'Settlement batch runs (step_name NULL) and their step rows';
COMMENT ON COLUMN batch_job_log.skipped IS 'Step not applicable in this settle month (status COMPLETED)';

-- Chunk checkpoints of split steps. A chunk's output and its COMPLETED update commit in one
-- transaction, so a redelivered chunk job sees COMPLETED and does nothing (exactly-once effects).
CREATE TABLE batch_chunk (
  chunk_id          bigserial    PRIMARY KEY,
  parent_job_log_id bigint       NOT NULL REFERENCES batch_job_log (job_log_id) ON DELETE CASCADE,
  step_name         varchar(50)  NOT NULL,
  chunk_no          integer      NOT NULL,
  range_start       bigint       NOT NULL,
  range_end         bigint       NOT NULL,
  status            varchar(20)  NOT NULL DEFAULT 'PENDING'
                    CHECK (status IN ('PENDING', 'RUNNING', 'COMPLETED', 'FAILED')),
  total_count       bigint       NOT NULL DEFAULT 0,
  success_count     bigint       NOT NULL DEFAULT 0,
  error_count       bigint       NOT NULL DEFAULT 0,
  skipped_count     bigint       NOT NULL DEFAULT 0,
  attempts          integer      NOT NULL DEFAULT 0,
  error_message     text,
  started_at        timestamptz,
  ended_at          timestamptz,
  created_at        timestamptz  NOT NULL DEFAULT now(),
  updated_at        timestamptz  NOT NULL DEFAULT now(),
  CONSTRAINT batch_chunk_uq UNIQUE (parent_job_log_id, step_name, chunk_no),
  CONSTRAINT batch_chunk_range_ck CHECK (range_start <= range_end)
);

COMMENT ON TABLE batch_chunk IS 'Chunk checkpoints of split settlement batch steps';
