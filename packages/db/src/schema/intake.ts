import type { ColumnType, Generated } from 'kysely';
import type {
  DATA_FORMATS,
  MAPPING_DATA_TYPES,
  MAPPING_TARGET_TABLES,
  PARSE_ERROR_TYPES,
  PARSE_STATUSES,
  RECEIVE_FILE_KINDS,
  RECEIVE_FILE_STATUSES,
  RECEIVE_METHODS,
  RECON_STATUSES,
  RESOLVE_STATUSES,
  TRANSFORM_RULES,
  UPLOAD_STATUSES,
  UPLOAD_TARGET_TABLES,
  UPLOAD_TARGET_TYPES,
} from '../values.js';
import type { DefaultedTimestamp, Json, Numeric, Timestamp } from './platform.js';

/** Data intake (migration V031, owned by intake). */

type Version = ColumnType<number, number | undefined, number>;

export type DataFormat = (typeof DATA_FORMATS)[number];
export type ReceiveMethod = (typeof RECEIVE_METHODS)[number];
export type MappingTargetTable = (typeof MAPPING_TARGET_TABLES)[number];
export type MappingDataType = (typeof MAPPING_DATA_TYPES)[number];
export type ParseStatus = (typeof PARSE_STATUSES)[number];
export type ParseErrorType = (typeof PARSE_ERROR_TYPES)[number];
export type ResolveStatus = (typeof RESOLVE_STATUSES)[number];
export type ReconStatus = (typeof RECON_STATUSES)[number];
export type UploadTargetTable = (typeof UPLOAD_TARGET_TABLES)[number];
export type UploadTargetType = (typeof UPLOAD_TARGET_TYPES)[number];
export type UploadTransformRule = (typeof TRANSFORM_RULES)[number];
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/** receive_file.status and file_kind (V040, V041). */
export type ReceiveFileStatus = (typeof RECEIVE_FILE_STATUSES)[number];
export type ReceiveFileKind = (typeof RECEIVE_FILE_KINDS)[number];

interface Audit {
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface CompanyProfileTable extends Audit {
  /** V040: surrogate key of the API paths */
  profile_id: Generated<number>;
  company_code: string;
  data_format: Generated<DataFormat>;
  receive_method: Generated<ReceiveMethod>;
  file_encoding: Generated<string>;
  delimiter: string | null;
  header_row: Generated<number>;
  data_start_row: Generated<number>;
  sheet_name: string | null;
  date_format: Generated<string>;
  amount_format: string | null;
  api_url: string | null;
  ftp_host: string | null;
  ftp_path: string | null;
  receive_schedule: string | null;
  is_active: Generated<boolean>;
  version: Version;
}

export interface CompanyFieldMappingTable extends Audit {
  mapping_id: Generated<number>;
  company_code: string;
  source_field: string;
  source_col_index: number | null;
  /** V041: FIXED profiles, the field's length in bytes (source_col_index = its byte offset) */
  source_length: number | null;
  target_table: MappingTargetTable;
  target_field: string;
  data_type: Generated<MappingDataType>;
  transform_rule: string | null;
  default_value: string | null;
  is_required: Generated<boolean>;
  sort_order: Generated<number>;
  version: Generated<number>;
  /** DATE 'YYYY-MM-DD'; defaults to 2000-01-01 */
  effective_from: ColumnType<string, string | undefined, string>;
  is_active: Generated<boolean>;
}

export interface CodeMappingTable extends Audit {
  code_id: Generated<number>;
  company_code: string;
  code_type: string;
  source_code: string;
  source_name: string | null;
  target_code: string;
  target_name: string | null;
  is_active: Generated<boolean>;
}

export interface RawCommissionDataTable {
  raw_id: Generated<number>;
  company_code: string;
  batch_id: string | null;
  settle_month: string;
  /** as delivered; RECRUIT or MAINTAIN when valid */
  data_type: string;
  /** JSON object text */
  raw_content: string;
  parse_status: Generated<ParseStatus>;
  mapped_ledger_id: number | null;
  mapped_table: MappingTargetTable | null;
  reported_amount: Numeric | null;
  file_name: string | null;
  row_number: number | null;
  /** V040: the received file the row came from */
  receive_file_id: number | null;
  received_at: DefaultedTimestamp;
  parsed_at: Timestamp | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
}

export interface ParseErrorLogTable {
  error_id: Generated<number>;
  raw_id: number;
  company_code: string;
  settle_month: string;
  error_type: ParseErrorType;
  error_field: string | null;
  error_value: string | null;
  error_message: string;
  resolve_status: Generated<ResolveStatus>;
  resolved_by: number | null;
  resolve_note: string | null;
  resolved_at: Timestamp | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface ReconciliationTable {
  recon_id: Generated<number>;
  company_code: string;
  settle_month: string;
  expected_amount: Numeric;
  actual_amount: Numeric;
  diff_amount: Numeric;
  recon_status: ReconStatus;
  expected_count: Generated<number>;
  actual_count: Generated<number>;
  run_id: number | null;
  resolved_by: number | null;
  resolved_at: Timestamp | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface UploadTemplateTable extends Audit {
  template_id: Generated<number>;
  template_code: string;
  template_name: string;
  category: string;
  company_code: string | null;
  target_table: UploadTargetTable;
  sheet_index: Generated<number>;
  header_row: Generated<number>;
  data_start_row: Generated<number>;
  description: string | null;
  is_active: Generated<boolean>;
  version: Version;
}

export interface UploadTemplateColumnTable extends Audit {
  column_id: Generated<number>;
  template_id: number;
  source_column: string;
  source_header: string | null;
  target_field: string;
  target_type: Generated<UploadTargetType>;
  is_required: Generated<boolean>;
  transform_rule: UploadTransformRule | null;
  transform_args: string | null;
  default_value: string | null;
  sort_order: Generated<number>;
}

export interface UploadHistoryTable {
  history_id: Generated<number>;
  template_id: number;
  template_code: string;
  file_name: string;
  file_id: number | null;
  status: Generated<UploadStatus>;
  total_count: Generated<number>;
  success_count: Generated<number>;
  error_count: Generated<number>;
  error_file_id: number | null;
  error_message: string | null;
  started_at: DefaultedTimestamp;
  ended_at: Timestamp | null;
  /** V040: progress and the first rejected rows */
  processed_count: Generated<number>;
  estimated_total: number | null;
  target_table: string | null;
  error_sample: Json | null;
  created_by: number | null;
  created_at: DefaultedTimestamp;
}

/** V040: carrier files received through POST /api/receive/upload. */
export interface ReceiveFileTable {
  receive_file_id: Generated<number>;
  company_code: string;
  settle_month: string;
  data_type: string | null;
  file_name: string;
  file_id: number | null;
  content_hash: string;
  file_size: number;
  file_kind: ReceiveFileKind;
  file_encoding: string | null;
  row_count: Generated<number>;
  header: Json | null;
  status: Generated<ReceiveFileStatus>;
  replaced_by: number | null;
  received_by: number | null;
  received_at: DefaultedTimestamp;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface IntakeTables {
  company_profile: CompanyProfileTable;
  company_field_mapping: CompanyFieldMappingTable;
  code_mapping: CodeMappingTable;
  raw_commission_data: RawCommissionDataTable;
  parse_error_log: ParseErrorLogTable;
  reconciliation: ReconciliationTable;
  upload_template: UploadTemplateTable;
  upload_template_column: UploadTemplateColumnTable;
  upload_history: UploadHistoryTable;
  receive_file: ReceiveFileTable;
}
