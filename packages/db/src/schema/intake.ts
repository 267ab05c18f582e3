import type { ColumnType, Generated } from 'kysely';
import type { DefaultedTimestamp, Numeric, Timestamp } from './platform.js';

/** Data intake (migration V031, owned by intake). */

type Version = ColumnType<number, number | undefined, number>;

export type DataFormat = 'EXCEL' | 'CSV' | 'FIXED' | 'JSON' | 'XML';
export type ReceiveMethod = 'MANUAL' | 'EDI' | 'FTP' | 'API';
export type MappingTargetTable = 'recruit_ledger' | 'maintain_ledger';
export type MappingDataType = 'STRING' | 'NUMBER' | 'DATE';
export type ParseStatus = 'PENDING' | 'OK' | 'ERROR';
export type ParseErrorType =
  | 'INVALID_INPUT'
  | 'UNKNOWN_TYPE'
  | 'NO_MAPPING'
  | 'JSON_PARSE'
  | 'REQUIRED'
  | 'TRANSFORM_FAIL'
  | 'NO_POLICY'
  | 'CONTRACT_NOT_FOUND'
  | 'CODE_MAP_FAIL';
export type ResolveStatus = 'OPEN' | 'RESOLVED' | 'IGNORED';
export type ReconStatus = 'MATCHED' | 'DIFF';
export type UploadTargetTable =
  | 'recruit_ledger'
  | 'maintain_ledger'
  | 'contract'
  | 'agent'
  | 'commission_rate'
  | 'payout_rule'
  | 'chargeback_rule'
  | 'exception_ledger'
  | 'payment';
export type UploadTargetType = 'STRING' | 'NUMBER' | 'INTEGER' | 'AMOUNT' | 'RATE' | 'DATE' | 'BOOLEAN';
export type UploadTransformRule =
  | 'TRIM'
  | 'UPPER'
  | 'LOWER'
  | 'DATE'
  | 'DIVIDE'
  | 'MULTIPLY'
  | 'LOOKUP'
  | 'CODE_MAP'
  | 'FIXED'
  | 'REPLACE'
  | 'SUBSTRING'
  | 'CONCAT'
  | 'DEFAULT';
export type UploadStatus = 'RUNNING' | 'COMPLETED' | 'FAILED';

interface Audit {
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface CompanyProfileTable extends Audit {
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
  created_by: number | null;
  created_at: DefaultedTimestamp;
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
}
