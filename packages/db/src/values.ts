/**
 * The value sets of the schema, in one place: the column types of src/schema derive their unions from these
 * arrays (`(typeof X)[number]`), services derive zod enums from them (`z.enum(AGENT_STATUSES)`), and
 * test/values.test.ts proves every CHECK (col IN (...)) of the migrated database and every system common-code
 * group of the V002 seed list exactly these values, in this order.
 */

export const YN_VALUES = ['Y', 'N'] as const;
/** common_code.tone (V110): the colour of a tag showing the code */
export const CODE_TONES = ['good', 'busy', 'warn', 'bad', 'plain'] as const;

// --- platform (V001) -------------------------------------------------------------------------------------------
export const USER_STATUSES = ['ACTIVE', 'LOCKED', 'RETIRED', 'EXPIRED'] as const;
export const MENU_TYPES = ['DIRECTORY', 'PAGE', 'LINK'] as const;
export const PERM_CODES = [
  'READ',
  'CREATE',
  'UPDATE',
  'DELETE',
  'APPROVE',
  'EXPORT',
  'PRINT',
  'EXECUTE',
] as const;
export const LOGIN_TYPES = ['PWD', 'SSO'] as const;
export const LOGIN_RESULTS = ['SUCCESS', 'FAIL'] as const;
/** data_change_log.action */
export const CHANGE_LOG_ACTIONS = ['CREATE', 'UPDATE', 'DELETE', 'APPROVE'] as const;
export const DOMAIN_CATEGORIES = [
  'IDENTIFIER',
  'PII',
  'MONEY',
  'RATE',
  'DATE',
  'CODE',
  'TEXT',
  'JSON',
  'AUDIT',
  'WORKFLOW',
  'SETTLEMENT_BIZ',
  'FILE',
  'TAX',
  'BANKING',
  'PROFILE',
  'RESUME',
] as const;
/** data_domain.masking_type (no CHECK; the common-code group MASKING_TYPE lists them) */
export const MASKING_TYPES = ['NAME', 'PHONE', 'RESIDENT_NO', 'ACCOUNT_NO', 'EMAIL', 'FULL'] as const;
/** external_call_log.call_type */
export const CALL_TYPES = ['BANK', 'MESSAGE', 'OTHER'] as const;

// --- master data (V010) ----------------------------------------------------------------------------------------
export const ORG_TYPES = ['HQ', 'BR', 'TM'] as const;
export const AGENT_STATUSES = ['ACTIVE', 'LEAVE', 'SUSPEND'] as const;
export const TAX_TYPES = ['BUSINESS_INCOME', 'OTHER_INCOME'] as const;
export const VAT_TYPES = ['NONE', 'EXEMPT', 'TAXABLE'] as const;
/** agent_org_history.change_type */
export const ORG_CHANGE_TYPES = ['TRANSFER', 'PROMOTE', 'DEMOTE', 'JOIN', 'LEAVE'] as const;
/** insurance_company.company_type */
export const COMPANY_TYPES = ['LIFE', 'NON_LIFE', 'OTHER'] as const;
export const INSURANCE_TYPES = ['LIFE', 'NON_LIFE', 'ANNUITY', 'SAVINGS', 'HEALTH', 'AUTO'] as const;
/** product.product_group */
export const PRODUCT_GROUPS = ['LIFE', 'ANNUITY', 'SAVINGS', 'EXCLUDED_AUTO', 'EXCLUDED_HEALTH'] as const;
export const PAY_CYCLES = ['MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SINGLE'] as const;
export const CONTRACT_STATUSES = ['ACTIVE', 'LAPSE', 'REVIVE', 'TERMINATE'] as const;
export const SUCCESSION_STATUSES = ['ACTIVE', 'CANCELLED'] as const;
export const AGENT_CONTRACT_TYPES = ['EXCLUSIVE', 'NON_EXCLUSIVE', 'PART_TIME'] as const;
export const AGENT_CONTRACT_STATUSES = ['ACTIVE', 'EXPIRED', 'TERMINATED'] as const;
export const LICENSE_TYPES = ['LIFE', 'NON_LIFE', 'THIRD_SECTOR', 'VARIABLE'] as const;
export const LICENSE_STATUSES = ['ACTIVE', 'EXPIRED', 'SUSPENDED', 'REVOKED'] as const;
export const TRAINING_STATUSES = ['SCHEDULED', 'COMPLETED', 'ABSENT', 'CANCELLED'] as const;
export const ENDORSE_TYPES = [
  'PREMIUM_CHANGE',
  'PAY_CYCLE_CHANGE',
  'COVERAGE_CHANGE',
  'CONTRACTOR_CHANGE',
  'BENEFICIARY_CHANGE',
  'RENEWAL',
  'OTHER',
] as const;
export const ENDORSEMENT_STATUSES = ['REQUESTED', 'APPLIED', 'REJECTED', 'CANCELLED'] as const;
export const COMPLAINT_TYPES = ['MIS_SELLING', 'INCOMPLETE_SALE', 'SERVICE', 'OTHER'] as const;
export const COMPLAINT_STATUSES = ['RECEIVED', 'IN_PROGRESS', 'RESOLVED', 'REJECTED'] as const;

// --- master rules (V011) ---------------------------------------------------------------------------------------
export const EXCEPTION_DIRECTIONS = ['PLUS', 'MINUS'] as const;
export const LIMIT_TYPES = ['TOTAL_RATIO', 'FIRST_YEAR_RATIO', 'INSTALLMENT_YEARS'] as const;
export const LIMIT_UNITS = ['PERCENT', 'YEAR'] as const;
/** regulatory_limit, chargeback_grade and installment_ratio .product_category */
export const PRODUCT_CATEGORIES = [
  'ALL',
  'LIFE',
  'ANNUITY',
  'SAVINGS',
  'EXCLUDED_AUTO',
  'EXCLUDED_HEALTH',
] as const;
export const INSTALLMENT_STATUSES = ['SCHEDULED', 'PAID', 'DEFERRED', 'CANCELLED'] as const;

// --- batch (V020) ----------------------------------------------------------------------------------------------
export const BATCH_STATUSES = ['REQUESTED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export const BATCH_CHUNK_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED'] as const;

// --- ledgers and settlement (V030) -----------------------------------------------------------------------------
/** recruit_ledger / maintain_ledger .status */
export const LEDGER_STATUSES = ['CALCULATED', 'CONFIRMED', 'HOLD', 'PAID'] as const;
/** recruit_ledger / maintain_ledger .reconcile_status */
export const RECONCILE_STATUSES = ['PENDING', 'MATCHED', 'DIFF'] as const;
/** settle_master / override_settle .status */
export const SETTLE_STATUSES = ['CALCULATED', 'CONFIRMED', 'HOLD', 'PAID'] as const;
/** Settle rows in these states freeze the agent's month: neither the batch nor carrier figures touch its rows. */
export const LOCKED_SETTLE_STATUSES = ['CONFIRMED', 'HOLD', 'PAID'] as const satisfies readonly (typeof SETTLE_STATUSES)[number][];
/** exception_ledger.status */
export const EXCEPTION_STATUSES = ['NEW', 'APPLIED', 'CANCELLED'] as const;
/** exception_ledger.approve_status (and the approvals of later issues) */
export const APPROVE_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'] as const;
export const EXCEPTION_SOURCES = ['MANUAL', 'AUTO'] as const;
export const CHARGEBACK_STATUSES = ['CALCULATED', 'CONFIRMED', 'CANCELLED'] as const;

// --- intake (V031) ---------------------------------------------------------------------------------------------
export const DATA_FORMATS = ['EXCEL', 'CSV', 'FIXED', 'JSON', 'XML'] as const;
export const RECEIVE_METHODS = ['MANUAL', 'EDI', 'FTP', 'API'] as const;
/** company_field_mapping.target_table, raw_commission_data.mapped_table */
export const MAPPING_TARGET_TABLES = ['recruit_ledger', 'maintain_ledger'] as const;
export const MAPPING_DATA_TYPES = ['STRING', 'NUMBER', 'DATE'] as const;
export const PARSE_STATUSES = ['PENDING', 'OK', 'ERROR'] as const;
export const PARSE_ERROR_TYPES = [
  'INVALID_INPUT',
  'UNKNOWN_TYPE',
  'NO_MAPPING',
  'JSON_PARSE',
  'REQUIRED',
  'TRANSFORM_FAIL',
  'NO_POLICY',
  'CONTRACT_NOT_FOUND',
  'CODE_MAP_FAIL',
] as const;
export const RESOLVE_STATUSES = ['OPEN', 'RESOLVED', 'IGNORED'] as const;
/** reconciliation.recon_status */
export const RECON_STATUSES = ['MATCHED', 'DIFF'] as const;
export const UPLOAD_TARGET_TABLES = [
  'recruit_ledger',
  'maintain_ledger',
  'contract',
  'agent',
  'commission_rate',
  'payout_rule',
  'chargeback_rule',
  'exception_ledger',
  'payment',
] as const;
export const UPLOAD_TARGET_TYPES = [
  'STRING',
  'NUMBER',
  'INTEGER',
  'AMOUNT',
  'RATE',
  'DATE',
  'BOOLEAN',
] as const;
/** upload_template_column.transform_rule (common-code group TRANSFORM_RULE) */
export const TRANSFORM_RULES = [
  'TRIM',
  'UPPER',
  'LOWER',
  'DATE',
  'DIVIDE',
  'MULTIPLY',
  'LOOKUP',
  'CODE_MAP',
  'FIXED',
  'REPLACE',
  'SUBSTRING',
  'CONCAT',
  'DEFAULT',
] as const;
export const UPLOAD_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED'] as const;

// --- payment and tax (V032) ------------------------------------------------------------------------------------
export const PAYMENT_STATUSES = ['PENDING', 'SENT', 'SUCCESS', 'FAIL'] as const;
export const DEDUCTION_TYPES = [
  'LOAN',
  'ADVANCE',
  'GUARANTEE',
  'DUES',
  'AD',
  'CHARGEBACK_PENDING',
  'OTHER',
] as const;
export const DEDUCTION_STATUSES = ['PENDING', 'APPLIED', 'CANCELLED'] as const;
export const ACCOUNT_TYPES = ['DEBIT', 'CREDIT', 'BOTH'] as const;
/** contract_accounting_entry.ledger_type (PAYMENT since V050) */
export const ACCOUNTING_LEDGER_TYPES = ['RECRUIT', 'MAINTAIN', 'PAYMENT'] as const;
/** accounting_close.status (V050) */
export const ACCOUNTING_CLOSE_STATUSES = ['DRAFT', 'CLOSED'] as const;
/** statement_run.status (V050) */
export const STATEMENT_RUN_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED'] as const;
/** year_end_statement.status (V050) */
export const YEAR_END_STATEMENT_STATUSES = ['GENERATED', 'ISSUED', 'SENT'] as const;
/** withholding_tax_report / vat_report .file_status */
export const REPORT_FILE_STATUSES = ['PENDING', 'COMPLETED'] as const;
export const STATEMENT_TYPES = ['MONTHLY', 'ANNUAL', 'PROOF'] as const;
export const STATEMENT_FILE_FORMATS = ['XLSX', 'PDF'] as const;
/** commission_statement.issue_status (common-code group STATEMENT_STATUS) */
export const STATEMENT_ISSUE_STATUSES = ['GENERATED', 'SENT', 'DOWNLOADED', 'CANCELLED'] as const;

// --- value sets of the V002 seed without a table yet -----------------------------------------------------------
export const DISPUTE_STATUSES = ['OPEN', 'IN_REVIEW', 'APPROVED', 'REJECTED'] as const;
export const APPROVAL_TARGETS = ['WITHDRAW', 'SETTLE', 'DISPUTE', 'INCENTIVE', 'SIMULATION'] as const;

/**
 * Every value set by name. A name that is also a common_code group (V002) must list exactly that group's codes in
 * sort_order; every system group (is_system 'Y') has an entry here.
 */
export const VALUE_SETS = {
  YN: YN_VALUES,
  USER_STATUS: USER_STATUSES,
  MENU_TYPE: MENU_TYPES,
  PERM_CODE: PERM_CODES,
  LOGIN_TYPE: LOGIN_TYPES,
  LOGIN_RESULT: LOGIN_RESULTS,
  CHANGE_LOG_ACTION: CHANGE_LOG_ACTIONS,
  DOMAIN_CATEGORY: DOMAIN_CATEGORIES,
  MASKING_TYPE: MASKING_TYPES,
  CALL_TYPE: CALL_TYPES,
  ORG_TYPE: ORG_TYPES,
  AGENT_STATUS: AGENT_STATUSES,
  TAX_TYPE: TAX_TYPES,
  VAT_TYPE: VAT_TYPES,
  CHANGE_TYPE: ORG_CHANGE_TYPES,
  COMPANY_TYPE: COMPANY_TYPES,
  INSURANCE_TYPE: INSURANCE_TYPES,
  PRODUCT_GROUP: PRODUCT_GROUPS,
  PAY_CYCLE: PAY_CYCLES,
  CONTRACT_STATUS: CONTRACT_STATUSES,
  SUCCESSION_STATUS: SUCCESSION_STATUSES,
  AGENT_CONTRACT_TYPE: AGENT_CONTRACT_TYPES,
  AGENT_CONTRACT_STATUS: AGENT_CONTRACT_STATUSES,
  LICENSE_TYPE: LICENSE_TYPES,
  LICENSE_STATUS: LICENSE_STATUSES,
  TRAINING_STATUS: TRAINING_STATUSES,
  ENDORSE_TYPE: ENDORSE_TYPES,
  ENDORSEMENT_STATUS: ENDORSEMENT_STATUSES,
  COMPLAINT_TYPE: COMPLAINT_TYPES,
  COMPLAINT_STATUS: COMPLAINT_STATUSES,
  EXCEPTION_DIRECTION: EXCEPTION_DIRECTIONS,
  LIMIT_TYPE: LIMIT_TYPES,
  LIMIT_UNIT: LIMIT_UNITS,
  PRODUCT_CATEGORY: PRODUCT_CATEGORIES,
  INSTALLMENT_STATUS: INSTALLMENT_STATUSES,
  BATCH_STATUS: BATCH_STATUSES,
  BATCH_CHUNK_STATUS: BATCH_CHUNK_STATUSES,
  LEDGER_STATUS: LEDGER_STATUSES,
  RECONCILE_STATUS: RECONCILE_STATUSES,
  SETTLE_STATUS: SETTLE_STATUSES,
  EXCEPTION_STATUS: EXCEPTION_STATUSES,
  APPROVE_STATUS: APPROVE_STATUSES,
  EXCEPTION_SOURCE: EXCEPTION_SOURCES,
  CHARGEBACK_STATUS: CHARGEBACK_STATUSES,
  DATA_FORMAT: DATA_FORMATS,
  RECEIVE_METHOD: RECEIVE_METHODS,
  MAPPING_TARGET_TABLE: MAPPING_TARGET_TABLES,
  MAPPING_DATA_TYPE: MAPPING_DATA_TYPES,
  PARSE_STATUS: PARSE_STATUSES,
  PARSE_ERROR_TYPE: PARSE_ERROR_TYPES,
  RESOLVE_STATUS: RESOLVE_STATUSES,
  RECON_STATUS: RECON_STATUSES,
  UPLOAD_TARGET_TABLE: UPLOAD_TARGET_TABLES,
  UPLOAD_TARGET_TYPE: UPLOAD_TARGET_TYPES,
  TRANSFORM_RULE: TRANSFORM_RULES,
  UPLOAD_STATUS: UPLOAD_STATUSES,
  PAYMENT_STATUS: PAYMENT_STATUSES,
  DEDUCTION_TYPE: DEDUCTION_TYPES,
  DEDUCTION_STATUS: DEDUCTION_STATUSES,
  ACCOUNT_TYPE: ACCOUNT_TYPES,
  ACCOUNTING_LEDGER_TYPE: ACCOUNTING_LEDGER_TYPES,
  ACCOUNTING_CLOSE_STATUS: ACCOUNTING_CLOSE_STATUSES,
  STATEMENT_RUN_STATUS: STATEMENT_RUN_STATUSES,
  YEAR_END_STATEMENT_STATUS: YEAR_END_STATEMENT_STATUSES,
  REPORT_FILE_STATUS: REPORT_FILE_STATUSES,
  STATEMENT_TYPE: STATEMENT_TYPES,
  STATEMENT_FILE_FORMAT: STATEMENT_FILE_FORMATS,
  STATEMENT_STATUS: STATEMENT_ISSUE_STATUSES,
  DISPUTE_STATUS: DISPUTE_STATUSES,
  APPROVAL_TARGET: APPROVAL_TARGETS,
} as const satisfies Record<string, readonly [string, ...string[]]>;

export type ValueSetName = keyof typeof VALUE_SETS;

// --- intake literals used in more than one place (V040/V041) ----------------------------------------------------
/** receive_file.status */
export const RECEIVE_FILE_STATUSES = ['ACTIVE', 'REPLACED'] as const;
/** receive_file.file_kind: XLSX/CSV detected from the bytes, FIXED/JSON from the profile's data format */
export const RECEIVE_FILE_KINDS = ['XLSX', 'CSV', 'FIXED', 'JSON'] as const;
/** raw_commission_data.data_type when valid; the dataType of an upload and of a test-parse */
export const RECEIVE_DATA_TYPES = ['RECRUIT', 'MAINTAIN'] as const;
/** What resolving a parse error may set (parse_error_log.resolve_status, not OPEN) */
export const PARSE_ERROR_RESOLUTIONS = ['RESOLVED', 'IGNORED'] as const;
