-- Intake API (issue 11): received carrier files (duplicate detection by content hash, replace),
-- the link from raw rows to their file, and progress/error samples of spreadsheet imports.

-- ---------------------------------------------------------------------------------------------
-- receive_file: one row per carrier file received through POST /api/receive/upload
CREATE TABLE receive_file (
  receive_file_id bigserial     PRIMARY KEY,
  company_code    varchar(20)   NOT NULL REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  settle_month    char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  -- NULL: the file carries a DATA_TYPE column (one data type per row)
  data_type       varchar(20),
  file_name       varchar(255)  NOT NULL,
  file_id         bigint        REFERENCES file_storage (file_id),
  content_hash    char(64)      NOT NULL CHECK (content_hash ~ '^[0-9a-f]{64}$'),
  file_size       bigint        NOT NULL CHECK (file_size >= 0),
  file_kind       varchar(10)   NOT NULL CHECK (file_kind IN ('XLSX', 'CSV')),
  file_encoding   varchar(20),
  row_count       integer       NOT NULL DEFAULT 0 CHECK (row_count >= 0),
  header          jsonb,
  status          varchar(10)   NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'REPLACED')),
  replaced_by     bigint        REFERENCES receive_file (receive_file_id),
  received_by     bigint,
  received_at     timestamptz   NOT NULL DEFAULT now(),
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now()
);
-- The same bytes twice from one carrier are refused (B009) unless the upload asks to replace: the
-- partial unique index decides a race between two identical uploads atomically.
CREATE UNIQUE INDEX receive_file_active_hash_uq ON receive_file (company_code, content_hash) WHERE status = 'ACTIVE';
CREATE INDEX receive_file_company_month_idx ON receive_file (company_code, settle_month, received_at DESC);
COMMENT ON TABLE receive_file IS 'Carrier files received through the upload API: content hash for duplicate detection, row count, replacement chain.';
COMMENT ON COLUMN receive_file.receive_file_id IS 'Received file identifier (raw rows carry it; batch_id UPLOAD-<id>)';
COMMENT ON COLUMN receive_file.company_code IS 'Carrier that delivered the file';
COMMENT ON COLUMN receive_file.settle_month IS 'Settle month YYYYMM the file was received for';
COMMENT ON COLUMN receive_file.data_type IS 'RECRUIT or MAINTAIN for the whole file; NULL when the file has a DATA_TYPE column';
COMMENT ON COLUMN receive_file.file_name IS 'Delivered file name';
COMMENT ON COLUMN receive_file.file_id IS 'The stored file (file_storage)';
COMMENT ON COLUMN receive_file.content_hash IS 'SHA-256 of the file bytes (hex)';
COMMENT ON COLUMN receive_file.file_size IS 'Bytes';
COMMENT ON COLUMN receive_file.file_kind IS 'XLSX or CSV (detected from the bytes)';
COMMENT ON COLUMN receive_file.file_encoding IS 'Character set used to decode a CSV file';
COMMENT ON COLUMN receive_file.row_count IS 'Raw rows stored from the file';
COMMENT ON COLUMN receive_file.header IS 'Header texts of the file (JSON array)';
COMMENT ON COLUMN receive_file.status IS 'ACTIVE, or REPLACED by a later upload of the same content';
COMMENT ON COLUMN receive_file.replaced_by IS 'The upload that replaced this one';
COMMENT ON COLUMN receive_file.received_by IS 'User who uploaded the file';
COMMENT ON COLUMN receive_file.received_at IS 'When the file was stored';

ALTER TABLE raw_commission_data ADD COLUMN receive_file_id bigint REFERENCES receive_file (receive_file_id);
CREATE INDEX raw_commission_data_receive_file_idx ON raw_commission_data (receive_file_id) WHERE receive_file_id IS NOT NULL;
COMMENT ON COLUMN raw_commission_data.receive_file_id IS 'Received file the row came from (NULL for rows of other receivers)';

-- ---------------------------------------------------------------------------------------------
-- company_profile: a numeric surrogate for the API paths (/api/mapping/profiles/{id}), as
-- exception_type_code has exception_id; company_code stays the key the intake code uses.
ALTER TABLE company_profile ADD COLUMN profile_id bigserial;
ALTER TABLE company_profile ADD CONSTRAINT company_profile_profile_id_uq UNIQUE (profile_id);
COMMENT ON COLUMN company_profile.profile_id IS 'Surrogate key of the API paths';

-- ---------------------------------------------------------------------------------------------
-- upload_history: progress readable while an import runs, and the first rejected rows
ALTER TABLE upload_history
  ADD COLUMN processed_count integer NOT NULL DEFAULT 0 CHECK (processed_count >= 0),
  ADD COLUMN estimated_total integer CHECK (estimated_total >= 0),
  ADD COLUMN target_table    varchar(30),
  ADD COLUMN error_sample    jsonb;
COMMENT ON COLUMN upload_history.processed_count IS 'Data rows handled so far (committed batches); progress = processed_count / estimated_total';
COMMENT ON COLUMN upload_history.estimated_total IS 'Data rows the sheet declares (its dimension), NULL when unknown';
COMMENT ON COLUMN upload_history.target_table IS 'Target table of the template at the time of the import';
COMMENT ON COLUMN upload_history.error_sample IS 'The first 100 rejected rows: [{rowNumber, field, value, message}]';

-- ---------------------------------------------------------------------------------------------
INSERT INTO data_dictionary (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
SELECT v.table_name, v.column_name, d.domain_code, v.column_label, v.is_pk, v.is_fk, v.fk_reference, v.business_rule, v.sample_value
FROM (VALUES
  ('receive_file', 'receive_file_id', 'ID', 'Received file ID', 'Y', 'N', NULL, NULL, '1'),
  ('receive_file', 'company_code', 'CODE', 'Company code', 'N', 'Y', 'insurance_company.company_code', NULL, 'L001'),
  ('receive_file', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('receive_file', 'content_hash', NULL, 'Content hash', 'N', 'N', NULL, 'SHA-256; one ACTIVE file per carrier and hash (B009 otherwise)', NULL),
  ('receive_file', 'status', 'STATUS', 'Status', 'N', 'N', NULL, 'ACTIVE, REPLACED', 'ACTIVE'),
  ('raw_commission_data', 'receive_file_id', 'ID', 'Received file', 'N', 'Y', 'receive_file.receive_file_id', NULL, '1'),
  ('upload_history', 'processed_count', NULL, 'Rows processed', 'N', 'N', NULL, 'Progress of a running import', '12000')
) AS v (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
LEFT JOIN data_domain d ON d.domain_code = v.domain_code
ON CONFLICT (table_name, column_name) DO NOTHING;
