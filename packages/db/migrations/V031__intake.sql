-- Data intake (spec 2.5, 3.2): carrier profiles, field and code mappings, raw commission rows,
-- parse errors, intake reconciliation, spreadsheet upload templates. Owned by the intake service,
-- written by batch steps 1-3 (receiveData, transformData, reconcile) and the intake API.

-- ---------------------------------------------------------------------------------------------
-- company_profile: how a carrier delivers its data (one row per carrier)
CREATE TABLE company_profile (
  company_code     varchar(20)   PRIMARY KEY REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  data_format      varchar(10)   NOT NULL DEFAULT 'EXCEL' CHECK (data_format IN ('EXCEL', 'CSV', 'FIXED', 'JSON', 'XML')),
  receive_method   varchar(10)   NOT NULL DEFAULT 'MANUAL' CHECK (receive_method IN ('MANUAL', 'EDI', 'FTP', 'API')),
  file_encoding    varchar(20)   NOT NULL DEFAULT 'UTF-8',
  delimiter        varchar(5),
  header_row       integer       NOT NULL DEFAULT 1 CHECK (header_row >= 0),
  data_start_row   integer       NOT NULL DEFAULT 2 CHECK (data_start_row >= 1),
  sheet_name       varchar(100),
  date_format      varchar(30)   NOT NULL DEFAULT 'yyyy-MM-dd',
  amount_format    varchar(30),
  api_url          varchar(500),
  ftp_host         varchar(200),
  ftp_path         varchar(500),
  receive_schedule varchar(100),
  is_active        boolean       NOT NULL DEFAULT true,
  version          integer       NOT NULL DEFAULT 0,
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  created_by       bigint,
  updated_by       bigint,
  CHECK (header_row < data_start_row)
);
COMMENT ON TABLE company_profile IS 'Per-carrier intake profile: file format, receive method (MANUAL implemented; EDI, FTP, API are extension points) and parsing defaults.';
COMMENT ON COLUMN company_profile.company_code IS 'Carrier (insurance_company.company_code)';
COMMENT ON COLUMN company_profile.data_format IS 'EXCEL, CSV, FIXED, JSON, XML (common code DATA_FORMAT)';
COMMENT ON COLUMN company_profile.receive_method IS 'MANUAL, EDI, FTP, API (common code RECEIVE_METHOD); receiveData picks the receiver by it';
COMMENT ON COLUMN company_profile.file_encoding IS 'Character set of delivered files (UTF-8, EUC-KR, ...)';
COMMENT ON COLUMN company_profile.delimiter IS 'Field delimiter of CSV files';
COMMENT ON COLUMN company_profile.header_row IS 'Row number of the header line (0 = no header)';
COMMENT ON COLUMN company_profile.data_start_row IS 'Row number of the first data line';
COMMENT ON COLUMN company_profile.sheet_name IS 'Worksheet to read (NULL = first sheet)';
COMMENT ON COLUMN company_profile.date_format IS 'Default source format of the DATE transform rule (yyyy, MM, dd tokens)';
COMMENT ON COLUMN company_profile.amount_format IS 'Amount notation of the carrier (informational, e.g. #,##0)';
COMMENT ON COLUMN company_profile.api_url IS 'Endpoint of the API receiver (extension point)';
COMMENT ON COLUMN company_profile.ftp_host IS 'Host of the FTP receiver (extension point)';
COMMENT ON COLUMN company_profile.ftp_path IS 'Directory of the FTP receiver (extension point)';
COMMENT ON COLUMN company_profile.receive_schedule IS 'When the carrier delivers (free text or cron expression)';
COMMENT ON COLUMN company_profile.is_active IS 'Inactive profiles are skipped by receiveData';
COMMENT ON COLUMN company_profile.version IS 'Optimistic lock counter';

-- ---------------------------------------------------------------------------------------------
-- company_field_mapping: source field of a carrier record -> ledger field, with transform rules
CREATE TABLE company_field_mapping (
  mapping_id       bigserial     PRIMARY KEY,
  company_code     varchar(20)   NOT NULL REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  source_field     varchar(100)  NOT NULL,
  source_col_index integer       CHECK (source_col_index >= 0),
  target_table     varchar(30)   NOT NULL CHECK (target_table IN ('recruit_ledger', 'maintain_ledger')),
  target_field     varchar(50)   NOT NULL,
  data_type        varchar(10)   NOT NULL DEFAULT 'STRING' CHECK (data_type IN ('STRING', 'NUMBER', 'DATE')),
  transform_rule   varchar(500),
  default_value    varchar(200),
  is_required      boolean       NOT NULL DEFAULT false,
  sort_order       integer       NOT NULL DEFAULT 0,
  version          integer       NOT NULL DEFAULT 1 CHECK (version >= 1),
  effective_from   date          NOT NULL DEFAULT DATE '2000-01-01',
  is_active        boolean       NOT NULL DEFAULT true,
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  created_by       bigint,
  updated_by       bigint,
  CONSTRAINT company_field_mapping_version_uq UNIQUE (company_code, target_table, target_field, version)
);
CREATE INDEX company_field_mapping_lookup_idx
  ON company_field_mapping (company_code, target_table, target_field, version DESC, effective_from DESC);
COMMENT ON TABLE company_field_mapping IS 'Per-carrier field mappings used by transformData. Per target field the newest version with effective_from <= the first day of the settle month applies; that row must be active.';
COMMENT ON COLUMN company_field_mapping.mapping_id IS 'Mapping identifier';
COMMENT ON COLUMN company_field_mapping.company_code IS 'Carrier';
COMMENT ON COLUMN company_field_mapping.source_field IS 'Key of the value in raw_commission_data.raw_content (the spreadsheet header for uploads)';
COMMENT ON COLUMN company_field_mapping.source_col_index IS 'Position of the column in delivered files (0-based), used when files are turned into raw rows';
COMMENT ON COLUMN company_field_mapping.target_table IS 'recruit_ledger or maintain_ledger (data_type RECRUIT or MAINTAIN of the raw row)';
COMMENT ON COLUMN company_field_mapping.target_field IS 'Ledger field: policy_no, premium, company_amount, commission_year, product_code, insurance_type, pay_method, settle_month';
COMMENT ON COLUMN company_field_mapping.data_type IS 'STRING, NUMBER, DATE: value type of the source field (informational; the target field decides validation)';
COMMENT ON COLUMN company_field_mapping.transform_rule IS 'Pipe-chained rules applied in order, e.g. TRIM|UPPER, DIVIDE:100, DATE:yyyyMMdd, CODE_MAP:INSURANCE_TYPE';
COMMENT ON COLUMN company_field_mapping.default_value IS 'Value used as is (no transform) when the source value is missing or blank';
COMMENT ON COLUMN company_field_mapping.is_required IS 'A blank value without default_value fails the row with REQUIRED';
COMMENT ON COLUMN company_field_mapping.sort_order IS 'Processing order; the first failing field decides the error';
COMMENT ON COLUMN company_field_mapping.version IS 'Revision of the field mapping; the newest valid one applies';
COMMENT ON COLUMN company_field_mapping.effective_from IS 'First day the revision applies';
COMMENT ON COLUMN company_field_mapping.is_active IS 'Inactive newest revision = field not mapped';

-- ---------------------------------------------------------------------------------------------
-- code_mapping: carrier code -> our code, used by the CODE_MAP transform rule
CREATE TABLE code_mapping (
  code_id      bigserial     PRIMARY KEY,
  company_code varchar(20)   NOT NULL REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  code_type    varchar(30)   NOT NULL,
  source_code  varchar(50)   NOT NULL,
  source_name  varchar(200),
  target_code  varchar(50)   NOT NULL,
  target_name  varchar(200),
  is_active    boolean       NOT NULL DEFAULT true,
  created_at   timestamptz   NOT NULL DEFAULT now(),
  updated_at   timestamptz   NOT NULL DEFAULT now(),
  created_by   bigint,
  updated_by   bigint,
  CONSTRAINT code_mapping_source_uq UNIQUE (company_code, code_type, source_code)
);
COMMENT ON TABLE code_mapping IS 'Carrier code translations for the CODE_MAP transform rule (CODE_MAP:<code_type>); only active rows are used.';
COMMENT ON COLUMN code_mapping.code_id IS 'Code mapping identifier';
COMMENT ON COLUMN code_mapping.company_code IS 'Carrier';
COMMENT ON COLUMN code_mapping.code_type IS 'Code family, e.g. INSURANCE_TYPE, PAY_METHOD';
COMMENT ON COLUMN code_mapping.source_code IS 'Code as delivered by the carrier (matched exactly, after the preceding rules)';
COMMENT ON COLUMN code_mapping.source_name IS 'Carrier label of the code';
COMMENT ON COLUMN code_mapping.target_code IS 'Our code';
COMMENT ON COLUMN code_mapping.target_name IS 'Our label';
COMMENT ON COLUMN code_mapping.is_active IS 'Inactive rows do not map (CODE_MAP_FAIL)';

-- ---------------------------------------------------------------------------------------------
-- raw_commission_data: one carrier record as received
CREATE TABLE raw_commission_data (
  raw_id           bigserial     PRIMARY KEY,
  company_code     varchar(20)   NOT NULL REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  batch_id         varchar(50),
  settle_month     char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  -- Stored as delivered: a value other than RECRUIT/MAINTAIN is reported by transformData as UNKNOWN_TYPE.
  data_type        varchar(20)   NOT NULL,
  raw_content      text          NOT NULL,
  parse_status     varchar(10)   NOT NULL DEFAULT 'PENDING' CHECK (parse_status IN ('PENDING', 'OK', 'ERROR')),
  mapped_ledger_id bigint,
  mapped_table     varchar(30)   CHECK (mapped_table IN ('recruit_ledger', 'maintain_ledger')),
  reported_amount  numeric(15,2),
  file_name        varchar(255),
  row_number       integer,
  received_at      timestamptz   NOT NULL DEFAULT now(),
  parsed_at        timestamptz,
  created_at       timestamptz   NOT NULL DEFAULT now(),
  updated_at       timestamptz   NOT NULL DEFAULT now(),
  created_by       bigint,
  CHECK ((mapped_ledger_id IS NULL) = (mapped_table IS NULL))
);
CREATE INDEX raw_commission_data_month_status_idx ON raw_commission_data (settle_month, parse_status, raw_id);
CREATE INDEX raw_commission_data_company_month_idx ON raw_commission_data (company_code, settle_month);
CREATE INDEX raw_commission_data_batch_idx ON raw_commission_data (batch_id);
COMMENT ON TABLE raw_commission_data IS 'Carrier commission records as received (one JSON object per record); transformData maps PENDING rows to ledger rows.';
COMMENT ON COLUMN raw_commission_data.raw_id IS 'Raw row identifier';
COMMENT ON COLUMN raw_commission_data.company_code IS 'Carrier that delivered the record';
COMMENT ON COLUMN raw_commission_data.batch_id IS 'Receive batch: the upload that stored the row, or RUN-<run id> stamped by receiveData';
COMMENT ON COLUMN raw_commission_data.settle_month IS 'Settle month YYYYMM the record belongs to';
COMMENT ON COLUMN raw_commission_data.data_type IS 'RECRUIT or MAINTAIN as delivered (anything else -> UNKNOWN_TYPE)';
COMMENT ON COLUMN raw_commission_data.raw_content IS 'The record as a JSON object text, keys = carrier field names';
COMMENT ON COLUMN raw_commission_data.parse_status IS 'PENDING, OK, ERROR (common code PARSE_STATUS)';
COMMENT ON COLUMN raw_commission_data.mapped_ledger_id IS 'Ledger row the record was written to (status OK)';
COMMENT ON COLUMN raw_commission_data.mapped_table IS 'recruit_ledger or maintain_ledger (status OK)';
COMMENT ON COLUMN raw_commission_data.reported_amount IS 'Carrier-reported company amount as parsed by transformData (also kept for ERROR rows when that field parsed); the expected side of reconcile';
COMMENT ON COLUMN raw_commission_data.file_name IS 'Delivered file name';
COMMENT ON COLUMN raw_commission_data.row_number IS 'Row number in the delivered file';
COMMENT ON COLUMN raw_commission_data.received_at IS 'When the record was stored';
COMMENT ON COLUMN raw_commission_data.parsed_at IS 'When transformData processed the record';

-- ---------------------------------------------------------------------------------------------
-- parse_error_log: why a raw row could not be mapped
CREATE TABLE parse_error_log (
  error_id       bigserial     PRIMARY KEY,
  raw_id         bigint        NOT NULL REFERENCES raw_commission_data (raw_id) ON DELETE CASCADE,
  company_code   varchar(20)   NOT NULL,
  settle_month   char(6)       NOT NULL,
  error_type     varchar(20)   NOT NULL CHECK (error_type IN ('INVALID_INPUT', 'UNKNOWN_TYPE', 'NO_MAPPING', 'JSON_PARSE', 'REQUIRED', 'TRANSFORM_FAIL', 'NO_POLICY', 'CONTRACT_NOT_FOUND', 'CODE_MAP_FAIL')),
  error_field    varchar(100),
  error_value    varchar(1000),
  error_message  varchar(1000)  NOT NULL,
  resolve_status varchar(10)   NOT NULL DEFAULT 'OPEN' CHECK (resolve_status IN ('OPEN', 'RESOLVED', 'IGNORED')),
  resolved_by    bigint,
  resolve_note   varchar(1000),
  resolved_at    timestamptz,
  created_at     timestamptz   NOT NULL DEFAULT now(),
  updated_at     timestamptz   NOT NULL DEFAULT now()
);
CREATE INDEX parse_error_log_raw_idx ON parse_error_log (raw_id);
CREATE INDEX parse_error_log_company_month_idx ON parse_error_log (company_code, settle_month, resolve_status);
CREATE INDEX parse_error_log_month_status_idx ON parse_error_log (settle_month, resolve_status);
COMMENT ON TABLE parse_error_log IS 'Mapping failures of raw rows (one OPEN row per failed attempt); resolved through /api/receive/errors.';
COMMENT ON COLUMN parse_error_log.error_id IS 'Error identifier';
COMMENT ON COLUMN parse_error_log.raw_id IS 'Raw row that failed';
COMMENT ON COLUMN parse_error_log.company_code IS 'Carrier of the raw row';
COMMENT ON COLUMN parse_error_log.settle_month IS 'Settle month of the raw row';
COMMENT ON COLUMN parse_error_log.error_type IS 'INVALID_INPUT, UNKNOWN_TYPE, NO_MAPPING, JSON_PARSE, REQUIRED, TRANSFORM_FAIL, NO_POLICY, CONTRACT_NOT_FOUND, CODE_MAP_FAIL';
COMMENT ON COLUMN parse_error_log.error_field IS 'Target field that failed (NULL for row-level errors)';
COMMENT ON COLUMN parse_error_log.error_value IS 'Offending value (truncated to 1000 characters)';
COMMENT ON COLUMN parse_error_log.error_message IS 'Human-readable reason';
COMMENT ON COLUMN parse_error_log.resolve_status IS 'OPEN, RESOLVED, IGNORED';
COMMENT ON COLUMN parse_error_log.resolved_by IS 'User who resolved it';
COMMENT ON COLUMN parse_error_log.resolve_note IS 'Resolution note';
COMMENT ON COLUMN parse_error_log.resolved_at IS 'When it was resolved';

-- ---------------------------------------------------------------------------------------------
-- reconciliation: intake completeness per carrier and month (step 3)
CREATE TABLE reconciliation (
  recon_id        bigserial     PRIMARY KEY,
  company_code    varchar(20)   NOT NULL REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  settle_month    char(6)       NOT NULL CHECK (settle_month ~ '^[0-9]{4}(0[1-9]|1[0-2])$'),
  expected_amount numeric(15,2) NOT NULL DEFAULT 0,
  actual_amount   numeric(15,2) NOT NULL DEFAULT 0,
  diff_amount     numeric(15,2) NOT NULL DEFAULT 0,
  recon_status    varchar(10)   NOT NULL CHECK (recon_status IN ('MATCHED', 'DIFF')),
  expected_count  integer       NOT NULL DEFAULT 0,
  actual_count    integer       NOT NULL DEFAULT 0,
  run_id          bigint,
  resolved_by     bigint,
  resolved_at     timestamptz,
  created_at      timestamptz   NOT NULL DEFAULT now(),
  updated_at      timestamptz   NOT NULL DEFAULT now(),
  CONSTRAINT reconciliation_company_month_uq UNIQUE (company_code, settle_month)
);
CREATE INDEX reconciliation_month_idx ON reconciliation (settle_month, recon_status);
COMMENT ON TABLE reconciliation IS 'Intake completeness check per carrier and month: carrier-reported total of the raw rows vs. total carried into the ledgers.';
COMMENT ON COLUMN reconciliation.recon_id IS 'Reconciliation identifier';
COMMENT ON COLUMN reconciliation.company_code IS 'Carrier';
COMMENT ON COLUMN reconciliation.settle_month IS 'Settle month';
COMMENT ON COLUMN reconciliation.expected_amount IS 'Sum of raw_commission_data.reported_amount of the month (all parse statuses)';
COMMENT ON COLUMN reconciliation.actual_amount IS 'Sum of reported_company_amount of the recruit/maintain ledger rows created from those raw rows';
COMMENT ON COLUMN reconciliation.diff_amount IS 'expected_amount - actual_amount';
COMMENT ON COLUMN reconciliation.recon_status IS 'DIFF when |diff_amount| > system_config RECON_DIFF_THRESHOLD, else MATCHED';
COMMENT ON COLUMN reconciliation.expected_count IS 'Raw rows of the carrier and month';
COMMENT ON COLUMN reconciliation.actual_count IS 'Ledger rows created from them';
COMMENT ON COLUMN reconciliation.run_id IS 'Batch run (batch_job_log id) that last computed the row';
COMMENT ON COLUMN reconciliation.resolved_by IS 'User who accepted a difference (cleared when the figures change)';
COMMENT ON COLUMN reconciliation.resolved_at IS 'When the difference was accepted';

-- ---------------------------------------------------------------------------------------------
-- upload templates (spreadsheet import, API in a later issue)
CREATE TABLE upload_template (
  template_id    bigserial     PRIMARY KEY,
  template_code  varchar(50)   NOT NULL,
  template_name  varchar(200)  NOT NULL,
  category       varchar(30)   NOT NULL,
  company_code   varchar(20)   REFERENCES insurance_company (company_code) ON UPDATE CASCADE,
  target_table   varchar(30)   NOT NULL CHECK (target_table IN ('recruit_ledger', 'maintain_ledger', 'contract', 'agent', 'commission_rate', 'payout_rule', 'chargeback_rule', 'exception_ledger', 'payment')),
  sheet_index    integer       NOT NULL DEFAULT 0 CHECK (sheet_index >= 0),
  header_row     integer       NOT NULL DEFAULT 1 CHECK (header_row >= 0),
  data_start_row integer       NOT NULL DEFAULT 2 CHECK (data_start_row >= 1),
  description    varchar(1000),
  is_active      boolean       NOT NULL DEFAULT true,
  version        integer       NOT NULL DEFAULT 0,
  created_at     timestamptz   NOT NULL DEFAULT now(),
  updated_at     timestamptz   NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint,
  CONSTRAINT upload_template_code_uq UNIQUE (template_code)
);
COMMENT ON TABLE upload_template IS 'Spreadsheet import templates; the target table must be one of the 9 whitelisted tables.';
COMMENT ON COLUMN upload_template.template_id IS 'Template identifier';
COMMENT ON COLUMN upload_template.template_code IS 'Template code (unique; used in /api/upload/{templateCode})';
COMMENT ON COLUMN upload_template.template_name IS 'Display name';
COMMENT ON COLUMN upload_template.category IS 'Grouping of templates (e.g. LEDGER, MASTER, RULE, PAYMENT)';
COMMENT ON COLUMN upload_template.company_code IS 'Carrier the template is for (NULL = any)';
COMMENT ON COLUMN upload_template.target_table IS 'recruit_ledger, maintain_ledger, contract, agent, commission_rate, payout_rule, chargeback_rule, exception_ledger, payment';
COMMENT ON COLUMN upload_template.sheet_index IS 'Worksheet to read (0-based)';
COMMENT ON COLUMN upload_template.header_row IS 'Header row number (0 = none)';
COMMENT ON COLUMN upload_template.data_start_row IS 'First data row number';
COMMENT ON COLUMN upload_template.is_active IS 'Inactive templates cannot be used for imports';
COMMENT ON COLUMN upload_template.version IS 'Optimistic lock counter';

CREATE TABLE upload_template_column (
  column_id      bigserial     PRIMARY KEY,
  template_id    bigint        NOT NULL REFERENCES upload_template (template_id) ON DELETE CASCADE,
  source_column  varchar(3)    NOT NULL CHECK (source_column ~ '^[A-Z]{1,3}$'),
  source_header  varchar(200),
  target_field   varchar(50)   NOT NULL,
  target_type    varchar(10)   NOT NULL DEFAULT 'STRING' CHECK (target_type IN ('STRING', 'NUMBER', 'INTEGER', 'AMOUNT', 'RATE', 'DATE', 'BOOLEAN')),
  is_required    boolean       NOT NULL DEFAULT false,
  transform_rule varchar(20)   CHECK (transform_rule IN ('TRIM', 'UPPER', 'LOWER', 'DATE', 'DIVIDE', 'MULTIPLY', 'LOOKUP', 'CODE_MAP', 'FIXED', 'REPLACE', 'SUBSTRING', 'CONCAT', 'DEFAULT')),
  transform_args varchar(500),
  default_value  varchar(200),
  sort_order     integer       NOT NULL DEFAULT 0,
  created_at     timestamptz   NOT NULL DEFAULT now(),
  updated_at     timestamptz   NOT NULL DEFAULT now(),
  created_by     bigint,
  updated_by     bigint,
  CONSTRAINT upload_template_column_target_uq UNIQUE (template_id, target_field)
);
CREATE INDEX upload_template_column_template_idx ON upload_template_column (template_id, sort_order);
COMMENT ON TABLE upload_template_column IS 'Columns of an upload template: spreadsheet column -> target field, with one transform rule and its arguments.';
COMMENT ON COLUMN upload_template_column.column_id IS 'Template column identifier';
COMMENT ON COLUMN upload_template_column.template_id IS 'Template';
COMMENT ON COLUMN upload_template_column.source_column IS 'Spreadsheet column letter (A, B, ..., AA)';
COMMENT ON COLUMN upload_template_column.source_header IS 'Expected header text';
COMMENT ON COLUMN upload_template_column.target_field IS 'Field of the target table';
COMMENT ON COLUMN upload_template_column.target_type IS 'STRING, NUMBER, INTEGER, AMOUNT, RATE, DATE, BOOLEAN';
COMMENT ON COLUMN upload_template_column.is_required IS 'A blank cell fails the row';
COMMENT ON COLUMN upload_template_column.transform_rule IS 'TRIM, UPPER, LOWER, DATE, DIVIDE, MULTIPLY, LOOKUP, CODE_MAP, FIXED, REPLACE, SUBSTRING, CONCAT, DEFAULT';
COMMENT ON COLUMN upload_template_column.transform_args IS 'Arguments of the transform rule';
COMMENT ON COLUMN upload_template_column.default_value IS 'Value for a blank cell';
COMMENT ON COLUMN upload_template_column.sort_order IS 'Processing order';

CREATE TABLE upload_history (
  history_id    bigserial     PRIMARY KEY,
  template_id   bigint        NOT NULL REFERENCES upload_template (template_id),
  template_code varchar(50)   NOT NULL,
  file_name     varchar(500)  NOT NULL,
  file_id       bigint        REFERENCES file_storage (file_id),
  status        varchar(10)   NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING', 'COMPLETED', 'FAILED')),
  total_count   integer       NOT NULL DEFAULT 0,
  success_count integer       NOT NULL DEFAULT 0,
  error_count   integer       NOT NULL DEFAULT 0,
  error_file_id bigint        REFERENCES file_storage (file_id),
  error_message varchar(1000),
  started_at    timestamptz   NOT NULL DEFAULT now(),
  ended_at      timestamptz,
  created_by    bigint,
  created_at    timestamptz   NOT NULL DEFAULT now()
);
CREATE INDEX upload_history_template_idx ON upload_history (template_id, started_at DESC);
COMMENT ON TABLE upload_history IS 'One row per spreadsheet import: counts, error file, timing.';
COMMENT ON COLUMN upload_history.history_id IS 'Upload history identifier';
COMMENT ON COLUMN upload_history.template_id IS 'Template used';
COMMENT ON COLUMN upload_history.template_code IS 'Template code at the time of the import';
COMMENT ON COLUMN upload_history.file_name IS 'Uploaded file name';
COMMENT ON COLUMN upload_history.file_id IS 'Stored upload (file_storage)';
COMMENT ON COLUMN upload_history.status IS 'RUNNING, COMPLETED, FAILED';
COMMENT ON COLUMN upload_history.total_count IS 'Data rows read';
COMMENT ON COLUMN upload_history.success_count IS 'Rows written';
COMMENT ON COLUMN upload_history.error_count IS 'Rows rejected';
COMMENT ON COLUMN upload_history.error_file_id IS 'Spreadsheet of rejected rows with reasons (file_storage)';
COMMENT ON COLUMN upload_history.error_message IS 'Why the import failed as a whole';
COMMENT ON COLUMN upload_history.started_at IS 'Import start';
COMMENT ON COLUMN upload_history.ended_at IS 'Import end';

-- ---------------------------------------------------------------------------------------------
-- Data dictionary rows for the key columns (unknown domain codes leave domain_code NULL).
INSERT INTO data_dictionary (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
SELECT v.table_name, v.column_name, d.domain_code, v.column_label, v.is_pk, v.is_fk, v.fk_reference, v.business_rule, v.sample_value
FROM (VALUES
  ('company_profile', 'company_code', 'CODE', 'Company code', 'Y', 'Y', 'insurance_company.company_code', 'One profile per carrier', 'L001'),
  ('company_profile', 'data_format', 'CODE', 'Data format', 'N', 'N', NULL, 'Common code DATA_FORMAT', 'EXCEL'),
  ('company_profile', 'receive_method', 'CODE', 'Receive method', 'N', 'N', NULL, 'Common code RECEIVE_METHOD; only MANUAL is implemented', 'MANUAL'),
  ('company_profile', 'date_format', NULL, 'Date format', 'N', 'N', NULL, 'Default source format of the DATE rule', 'yyyyMMdd'),
  ('company_profile', 'is_active', 'FLAG', 'Active', 'N', 'N', NULL, 'Inactive profiles are skipped by receiveData', 'true'),
  ('company_field_mapping', 'mapping_id', 'ID', 'Mapping ID', 'Y', 'N', NULL, NULL, '1'),
  ('company_field_mapping', 'company_code', 'CODE', 'Company code', 'N', 'Y', 'insurance_company.company_code', NULL, 'L001'),
  ('company_field_mapping', 'source_field', 'NAME_TEXT', 'Source field', 'N', 'N', NULL, 'Key in raw_content', 'POLICY_NO'),
  ('company_field_mapping', 'target_table', 'CODE', 'Target table', 'N', 'N', NULL, 'recruit_ledger or maintain_ledger', 'recruit_ledger'),
  ('company_field_mapping', 'target_field', 'CODE', 'Target field', 'N', 'N', NULL, 'policy_no, premium, company_amount, commission_year, product_code, insurance_type, pay_method, settle_month', 'premium'),
  ('company_field_mapping', 'transform_rule', 'DESCRIPTION', 'Transform rule', 'N', 'N', NULL, 'Pipe-chained: TRIM|UPPER, DIVIDE:100, DATE:yyyyMMdd, CODE_MAP:<code_type>', 'TRIM|DIVIDE:100'),
  ('company_field_mapping', 'is_required', 'FLAG', 'Required', 'N', 'N', NULL, 'Blank without default -> REQUIRED', 'true'),
  ('company_field_mapping', 'version', NULL, 'Version', 'N', 'N', NULL, 'Newest valid revision per target field applies', '1'),
  ('company_field_mapping', 'effective_from', 'DATE', 'Effective from', 'N', 'N', NULL, '<= first day of the settle month', '2025-01-01'),
  ('code_mapping', 'code_id', 'ID', 'Code mapping ID', 'Y', 'N', NULL, NULL, '1'),
  ('code_mapping', 'code_type', 'CODE', 'Code type', 'N', 'N', NULL, 'Argument of CODE_MAP', 'INSURANCE_TYPE'),
  ('code_mapping', 'source_code', 'CODE', 'Carrier code', 'N', 'N', NULL, 'Unique per carrier and code type', '01'),
  ('code_mapping', 'target_code', 'CODE', 'Our code', 'N', 'N', NULL, NULL, 'LIFE'),
  ('raw_commission_data', 'raw_id', 'ID', 'Raw ID', 'Y', 'N', NULL, NULL, '1'),
  ('raw_commission_data', 'company_code', 'CODE', 'Company code', 'N', 'Y', 'insurance_company.company_code', NULL, 'L001'),
  ('raw_commission_data', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('raw_commission_data', 'data_type', 'CODE', 'Data type', 'N', 'N', NULL, 'RECRUIT or MAINTAIN; other values -> UNKNOWN_TYPE', 'RECRUIT'),
  ('raw_commission_data', 'raw_content', 'JSON', 'Raw content', 'N', 'N', NULL, 'JSON object text as delivered', '{"POLICY_NO":"P-1"}'),
  ('raw_commission_data', 'parse_status', 'STATUS', 'Parse status', 'N', 'N', NULL, 'PENDING, OK, ERROR (common code PARSE_STATUS)', 'PENDING'),
  ('raw_commission_data', 'mapped_ledger_id', 'ID', 'Mapped ledger ID', 'N', 'N', NULL, 'Ledger row in mapped_table', '10'),
  ('raw_commission_data', 'reported_amount', 'AMOUNT', 'Reported amount', 'N', 'N', NULL, 'Parsed carrier company amount', '12500.00'),
  ('parse_error_log', 'error_id', 'ID', 'Error ID', 'Y', 'N', NULL, NULL, '1'),
  ('parse_error_log', 'raw_id', 'ID', 'Raw ID', 'N', 'Y', 'raw_commission_data.raw_id', NULL, '1'),
  ('parse_error_log', 'error_type', 'CODE', 'Error type', 'N', 'N', NULL, 'One of the nine transformData error types', 'CONTRACT_NOT_FOUND'),
  ('parse_error_log', 'resolve_status', 'STATUS', 'Resolve status', 'N', 'N', NULL, 'OPEN, RESOLVED, IGNORED', 'OPEN'),
  ('parse_error_log', 'resolved_by', 'AUDIT_USER', 'Resolved by', 'N', 'N', NULL, NULL, '1'),
  ('parse_error_log', 'resolved_at', 'AUDIT_TIME', 'Resolved at', 'N', 'N', NULL, NULL, NULL),
  ('reconciliation', 'recon_id', 'ID', 'Reconciliation ID', 'Y', 'N', NULL, NULL, '1'),
  ('reconciliation', 'company_code', 'CODE', 'Company code', 'N', 'Y', 'insurance_company.company_code', 'Unique with settle_month', 'L001'),
  ('reconciliation', 'settle_month', 'SETTLE_MONTH', 'Settle month', 'N', 'N', NULL, 'YYYYMM', '202501'),
  ('reconciliation', 'expected_amount', 'AMOUNT', 'Expected amount', 'N', 'N', NULL, 'Carrier-reported total of the raw rows', '1000000.00'),
  ('reconciliation', 'actual_amount', 'AMOUNT', 'Actual amount', 'N', 'N', NULL, 'Total carried into the ledgers', '990000.00'),
  ('reconciliation', 'diff_amount', 'AMOUNT', 'Difference', 'N', 'N', NULL, 'expected - actual', '10000.00'),
  ('reconciliation', 'recon_status', 'STATUS', 'Reconcile status', 'N', 'N', NULL, 'DIFF when |diff| > RECON_DIFF_THRESHOLD', 'DIFF'),
  ('upload_template', 'template_id', 'ID', 'Template ID', 'Y', 'N', NULL, NULL, '1'),
  ('upload_template', 'template_code', 'CODE', 'Template code', 'N', 'N', NULL, 'Unique', 'RECRUIT_L001'),
  ('upload_template', 'target_table', 'CODE', 'Target table', 'N', 'N', NULL, 'Whitelist of 9 tables', 'recruit_ledger'),
  ('upload_template_column', 'column_id', 'ID', 'Column ID', 'Y', 'N', NULL, NULL, '1'),
  ('upload_template_column', 'template_id', 'ID', 'Template', 'N', 'Y', 'upload_template.template_id', NULL, '1'),
  ('upload_template_column', 'source_column', NULL, 'Source column', 'N', 'N', NULL, 'Spreadsheet column letter', 'B'),
  ('upload_template_column', 'transform_rule', 'CODE', 'Transform rule', 'N', 'N', NULL, 'Common code TRANSFORM_RULE', 'TRIM'),
  ('upload_history', 'history_id', 'ID', 'Upload history ID', 'Y', 'N', NULL, NULL, '1'),
  ('upload_history', 'template_id', 'ID', 'Template', 'N', 'Y', 'upload_template.template_id', NULL, '1'),
  ('upload_history', 'error_file_id', 'ID', 'Error file', 'N', 'Y', 'file_storage.file_id', NULL, '12')
) AS v (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value)
LEFT JOIN data_domain d ON d.domain_code = v.domain_code
ON CONFLICT (table_name, column_name) DO NOTHING;
