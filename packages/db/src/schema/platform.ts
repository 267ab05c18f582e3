import type { ColumnType, Generated } from 'kysely';
import type {
  CALL_TYPES,
  CODE_TONES,
  CHANGE_LOG_ACTIONS,
  DOMAIN_CATEGORIES,
  LOGIN_RESULTS,
  LOGIN_TYPES,
  MASKING_TYPES,
  MENU_TYPES,
  PERM_CODES,
  USER_STATUSES,
  YN_VALUES,
} from '../values.js';

/** A timestamp column: read as Date, written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A column with a database default. */
export type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A DATE column: pg is configured to return it as 'YYYY-MM-DD'. */
export type DateString = ColumnType<string, string, string>;
/** numeric columns are strings on the wire from pg; money becomes a Decimal only in packages/domain. */
export type Numeric = ColumnType<string, string | number, string | number>;
/** jsonb */
export type Json = ColumnType<unknown, string, string>;
export type YN = (typeof YN_VALUES)[number];
export type UserStatus = (typeof USER_STATUSES)[number];
export type MenuType = (typeof MENU_TYPES)[number];
export type LoginType = (typeof LOGIN_TYPES)[number];
export type LoginResult = (typeof LOGIN_RESULTS)[number];
export type ChangeLogAction = (typeof CHANGE_LOG_ACTIONS)[number];
export type DomainCategory = (typeof DOMAIN_CATEGORIES)[number];
export type MaskingType = (typeof MASKING_TYPES)[number];
export type CallType = (typeof CALL_TYPES)[number];

export interface UsersTable {
  user_id: Generated<number>;
  login_id: string;
  password: string;
  user_name: string;
  agent_id: number | null;
  email: string | null;
  phone: string | null;
  status: Generated<UserStatus>;
  last_login_at: Timestamp | null;
  fail_count: Generated<number>;
  password_changed_at: Timestamp | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface RoleTable {
  role_id: Generated<number>;
  role_code: string;
  role_name: string;
  role_desc: string | null;
  role_level: Generated<number>;
  is_system: Generated<YN>;
  is_active: Generated<boolean>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface UserRoleTable {
  user_role_id: Generated<number>;
  user_id: number;
  role_id: number;
  created_at: DefaultedTimestamp;
}

export interface MenuTable {
  menu_id: Generated<number>;
  parent_menu_id: number | null;
  menu_code: string;
  menu_name: string;
  menu_type: MenuType;
  menu_path: string | null;
  menu_icon: string | null;
  component_path: string | null;
  menu_level: Generated<number>;
  sort_order: Generated<number>;
  is_visible: Generated<boolean>;
  is_active: Generated<boolean>;
  description: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export type PermCode = (typeof PERM_CODES)[number];

export interface MenuPermissionTable {
  menu_perm_id: Generated<number>;
  menu_id: number;
  perm_code: PermCode;
  perm_name: string;
  sort_order: Generated<number>;
}

export interface RoleMenuPermissionTable {
  rmp_id: Generated<number>;
  role_id: number;
  menu_id: number;
  perm_code: PermCode;
  is_granted: Generated<YN>;
  created_at: DefaultedTimestamp;
}

export interface CommonCodeGroupTable {
  group_code: string;
  group_name: string;
  description: string | null;
  is_system: Generated<YN>;
  is_active: Generated<boolean>;
  sort_order: Generated<number>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface CommonCodeTable {
  code_id: Generated<number>;
  group_code: string;
  code: string;
  code_name: string;
  code_name_en: string | null;
  code_desc: string | null;
  attr1: string | null;
  attr2: string | null;
  attr3: string | null;
  ref_code: string | null;
  sort_order: Generated<number>;
  is_active: Generated<boolean>;
  /** V110: good | busy | warn | bad | plain */
  tone: Generated<(typeof CODE_TONES)[number]>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface LoginLogTable {
  log_id: Generated<number>;
  user_id: number | null;
  login_id: string;
  login_type: Generated<LoginType>;
  result: LoginResult;
  fail_reason: string | null;
  ip_address: string | null;
  user_agent: string | null;
  login_at: DefaultedTimestamp;
}

export interface ApiAccessLogTable {
  access_id: Generated<number>;
  user_id: number | null;
  request_id: string | null;
  service_name: string | null;
  request_uri: string;
  http_method: string;
  params: string | null;
  response_code: number | null;
  response_time_ms: number | null;
  ip_address: string | null;
  created_at: DefaultedTimestamp;
}

export interface DataChangeLogTable {
  change_id: Generated<number>;
  user_id: number | null;
  menu_code: string | null;
  table_name: string;
  record_id: string | null;
  before_data: Json | null;
  after_data: Json | null;
  action: ChangeLogAction;
  request_id: string | null;
  created_at: DefaultedTimestamp;
}

export interface AuditLogTable {
  audit_id: Generated<number>;
  user_id: number | null;
  action_type: string;
  target_table: string | null;
  target_id: string | null;
  before_data: Json | null;
  after_data: Json | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: DefaultedTimestamp;
}

export interface FileStorageTable {
  file_id: Generated<number>;
  group_id: string | null;
  original_name: string;
  stored_name: string;
  file_path: string;
  file_size: number;
  content_type: string | null;
  download_count: Generated<number>;
  is_deleted: Generated<boolean>;
  created_by: number | null;
  created_at: DefaultedTimestamp;
}

export interface NotificationTable {
  noti_id: Generated<number>;
  user_id: number;
  noti_type: string;
  title: string;
  content: string | null;
  link_url: string | null;
  is_read: Generated<boolean>;
  read_at: Timestamp | null;
  created_at: DefaultedTimestamp;
}

export interface NoticeTable {
  notice_id: Generated<number>;
  title: string;
  content: string;
  is_pinned: Generated<boolean>;
  is_active: Generated<boolean>;
  view_count: Generated<number>;
  post_from: DateString | null;
  post_to: DateString | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface SystemConfigTable {
  config_key: string;
  config_value: string;
  config_group: Generated<string>;
  description: string | null;
  is_encrypted: Generated<YN>;
  updated_by: number | null;
  updated_at: DefaultedTimestamp;
}

export interface DataDomainTable {
  domain_code: string;
  domain_name: string;
  /** CHECKed IN DOMAIN_CATEGORIES but still `string` here: narrowing it breaks auth-platform's data-domains
   * repository (filters and writes pass a plain string); listed in ACCEPTED_MISMATCHES of schema-check.ts. */
  category: string;
  data_type: string;
  length: number | null;
  precision: number | null;
  scale: number | null;
  format_pattern: string | null;
  validation_regex: string | null;
  masking_type: string | null;
  encrypted: Generated<YN>;
  description: string | null;
  is_active: Generated<YN>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface DataDictionaryTable {
  dict_id: Generated<number>;
  table_name: string;
  column_name: string;
  domain_code: string | null;
  column_label: string | null;
  is_pk: Generated<YN>;
  is_fk: Generated<YN>;
  fk_reference: string | null;
  business_rule: string | null;
  sample_value: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface ExternalCallLogTable {
  call_id: Generated<number>;
  call_type: CallType;
  adapter_name: string;
  method_name: string;
  success: boolean;
  duration_ms: number;
  target_ref: string | null;
  request_summary: string | null;
  response_summary: string | null;
  error_message: string | null;
  called_at: DefaultedTimestamp;
}

export interface RefreshTokenTable {
  token_id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: DefaultedTimestamp;
}

/** View v_data_dictionary_full (V003): every column of every public base table with dictionary and domain. */
export interface DataDictionaryFullView {
  table_name: string;
  column_name: string;
  ordinal_position: number;
  /** e.g. bigint, varchar(50), numeric(15,2), timestamptz */
  data_type: string;
  is_nullable: YN;
  column_default: string | null;
  table_comment: string | null;
  column_comment: string | null;
  is_pk: YN;
  dict_id: number | null;
  column_label: string | null;
  domain_code: string | null;
  /** From the dictionary row, else from a real foreign-key constraint. */
  is_fk: YN;
  fk_reference: string | null;
  business_rule: string | null;
  sample_value: string | null;
  domain_name: string | null;
  category: string | null;
  masking_type: string | null;
  encrypted: YN | null;
}

export interface PlatformTables {
  users: UsersTable;
  role: RoleTable;
  user_role: UserRoleTable;
  menu: MenuTable;
  menu_permission: MenuPermissionTable;
  role_menu_permission: RoleMenuPermissionTable;
  common_code_group: CommonCodeGroupTable;
  common_code: CommonCodeTable;
  login_log: LoginLogTable;
  api_access_log: ApiAccessLogTable;
  data_change_log: DataChangeLogTable;
  audit_log: AuditLogTable;
  file_storage: FileStorageTable;
  notification: NotificationTable;
  notice: NoticeTable;
  system_config: SystemConfigTable;
  data_domain: DataDomainTable;
  data_dictionary: DataDictionaryTable;
  external_call_log: ExternalCallLogTable;
  refresh_token: RefreshTokenTable;
  v_data_dictionary_full: DataDictionaryFullView;
}
