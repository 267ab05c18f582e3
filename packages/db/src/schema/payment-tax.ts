import type { ColumnType, Generated } from 'kysely';
import type {
  ACCOUNTING_CLOSE_STATUSES,
  ACCOUNTING_LEDGER_TYPES,
  ACCOUNT_TYPES,
  DEDUCTION_STATUSES,
  DEDUCTION_TYPES,
  PAYMENT_STATUSES,
  REPORT_FILE_STATUSES,
  STATEMENT_FILE_FORMATS,
  STATEMENT_ISSUE_STATUSES,
  STATEMENT_RUN_STATUSES,
  STATEMENT_TYPES,
  YEAR_END_STATEMENT_STATUSES,
} from '../values.js';
import type { DateString, DefaultedTimestamp, Numeric, Timestamp } from './platform.js';

/** Payment, deductions, statements, accounting and tax (migrations V032, V050; owned by payment-tax). */

type Version = ColumnType<number, number | undefined, number>;
/** numeric column with a database default */
type DefaultedNumeric = ColumnType<string, string | number | undefined, string | number>;

export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type DeductionType = (typeof DEDUCTION_TYPES)[number];
export type DeductionStatus = (typeof DEDUCTION_STATUSES)[number];
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export type AccountingLedgerType = (typeof ACCOUNTING_LEDGER_TYPES)[number];
export type AccountingCloseStatus = (typeof ACCOUNTING_CLOSE_STATUSES)[number];
export type StatementRunStatus = (typeof STATEMENT_RUN_STATUSES)[number];
/** commission_statement.lang (V052): the language a statement's file is written in */
export const STATEMENT_LANGS = ['ko', 'en'] as const;
export type StatementLang = (typeof STATEMENT_LANGS)[number];
export type YearEndStatementStatus = (typeof YEAR_END_STATEMENT_STATUSES)[number];
export type ReportFileStatus = (typeof REPORT_FILE_STATUSES)[number];
export type StatementType = (typeof STATEMENT_TYPES)[number];
export type StatementFileFormat = (typeof STATEMENT_FILE_FORMATS)[number];
export type StatementIssueStatus = (typeof STATEMENT_ISSUE_STATUSES)[number];

interface Audit {
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  created_by: number | null;
  updated_by: number | null;
}

export interface PaymentTable extends Audit {
  payment_id: Generated<number>;
  settle_id: number | null;
  agent_id: number;
  settle_month: string;
  bank_code: string | null;
  /** ciphertext (FieldCipher) */
  account_no: string | null;
  amount: Numeric;
  transfer_date: DateString | null;
  status: Generated<PaymentStatus>;
  result_code: string | null;
  result_msg: string | null;
  pay_file_ref: number | null;
  income_tax_amount: DefaultedNumeric;
  local_tax_amount: DefaultedNumeric;
  vat_amount: DefaultedNumeric;
  deduction_amount: DefaultedNumeric;
  net_amount: Numeric;
  tax_calculated_at: Timestamp | null;
  version: Version;
}

export interface AgentDeductionTable extends Audit {
  deduction_id: Generated<number>;
  agent_id: number;
  settle_month: string;
  deduction_type: DeductionType;
  amount: Numeric;
  status: Generated<DeductionStatus>;
  description: string | null;
  applied_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  version: Version;
}

export interface PaymentDeductionDetailTable {
  detail_id: Generated<number>;
  payment_id: number;
  deduction_id: number;
  amount: Numeric;
  created_at: DefaultedTimestamp;
  created_by: number | null;
}

export interface AccountCodeTable extends Audit {
  account_code: string;
  account_name: string;
  account_type: AccountType;
  description: string | null;
  is_active: Generated<boolean>;
  sort_order: Generated<number>;
}

export interface ContractAccountingEntryTable {
  entry_id: Generated<number>;
  /** NULL for payment entries */
  contract_id: number | null;
  ledger_type: AccountingLedgerType;
  ledger_id: number;
  settle_month: string;
  agent_id: number;
  company_code: string | null;
  debit_account_code: string;
  credit_account_code: string;
  amount: Numeric;
  /** NULL until the entry is closed (posted) */
  journal_no: string | null;
  posted_at: Timestamp | null;
  run_id: number | null;
  /** accounting_close that gave the journal number */
  close_id: number | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface AgentAnnualIncomeTable {
  income_id: Generated<number>;
  agent_id: number;
  settle_year: number;
  total_amount: DefaultedNumeric;
  total_income_tax: DefaultedNumeric;
  total_local_tax: DefaultedNumeric;
  total_vat: DefaultedNumeric;
  total_net: DefaultedNumeric;
  payment_count: Generated<number>;
  run_id: number | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface WithholdingTaxReportTable {
  report_id: Generated<number>;
  /** 'YYYY-Qn' */
  settle_quarter: string;
  agent_id: number;
  org_id: number | null;
  total_income: DefaultedNumeric;
  total_withheld: DefaultedNumeric;
  total_local_tax: DefaultedNumeric;
  payment_count: Generated<number>;
  file_status: Generated<ReportFileStatus>;
  completed_by: number | null;
  completed_at: Timestamp | null;
  run_id: number | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface VatReportTable {
  report_id: Generated<number>;
  settle_quarter: string;
  total_sales: DefaultedNumeric;
  total_purchase: DefaultedNumeric;
  total_vat_payable: DefaultedNumeric;
  tax_invoice_count: Generated<number>;
  file_status: Generated<ReportFileStatus>;
  completed_by: number | null;
  completed_at: Timestamp | null;
  run_id: number | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface CommissionStatementTable {
  statement_id: Generated<number>;
  agent_id: number;
  settle_month: string;
  statement_type: Generated<StatementType>;
  /** V051: the parts of gross, summed over the settlement rows the statement's payments pay */
  recruit_total: DefaultedNumeric;
  maintain_total: DefaultedNumeric;
  override_total: DefaultedNumeric;
  other_total: DefaultedNumeric;
  correction_total: DefaultedNumeric;
  exception_plus: DefaultedNumeric;
  exception_minus: DefaultedNumeric;
  chargeback_total: DefaultedNumeric;
  gross_amount: DefaultedNumeric;
  income_tax_amount: DefaultedNumeric;
  local_tax_amount: DefaultedNumeric;
  vat_amount: DefaultedNumeric;
  deduction_amount: DefaultedNumeric;
  net_amount: DefaultedNumeric;
  file_id: number | null;
  file_format: Generated<StatementFileFormat>;
  issue_status: Generated<StatementIssueStatus>;
  issued_at: Timestamp | null;
  issued_by: number | null;
  /** V052: the language of the file (the issuer's request language at issue time) */
  lang: Generated<StatementLang>;
  version: Version;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface DeductionCarryForwardTable {
  settle_id: number;
  agent_id: number;
  from_month: string;
  to_month: string;
  deduction_id: number;
  amount: Numeric;
  created_at: DefaultedTimestamp;
  created_by: number | null;
}

export interface AccountingCloseTable extends Audit {
  close_id: Generated<number>;
  settle_month: string;
  status: Generated<AccountingCloseStatus>;
  journal_no: string | null;
  execute_count: Generated<number>;
  entry_count: Generated<number>;
  total_debit: DefaultedNumeric;
  total_credit: DefaultedNumeric;
  note: string | null;
  closed_at: Timestamp | null;
  closed_by: number | null;
  reopened_at: Timestamp | null;
  reopened_by: number | null;
  reopen_reason: string | null;
  version: Version;
}

export interface AccountBalanceSnapshotTable {
  snapshot_id: Generated<number>;
  close_id: number;
  settle_month: string;
  account_code: string;
  account_name: string | null;
  debit_amount: DefaultedNumeric;
  credit_amount: DefaultedNumeric;
  balance_amount: DefaultedNumeric;
  created_at: DefaultedTimestamp;
}

export interface StatementRunTable {
  run_id: Generated<number>;
  settle_month: string;
  statement_type: StatementType;
  status: Generated<StatementRunStatus>;
  total_count: Generated<number>;
  done_count: Generated<number>;
  error_count: Generated<number>;
  error_message: string | null;
  started_at: DefaultedTimestamp;
  heartbeat_at: DefaultedTimestamp;
  ended_at: Timestamp | null;
  created_by: number | null;
}

export interface YearEndStatementTable {
  statement_id: Generated<number>;
  agent_id: number;
  settle_year: number;
  total_amount: DefaultedNumeric;
  total_income_tax: DefaultedNumeric;
  total_local_tax: DefaultedNumeric;
  total_vat: DefaultedNumeric;
  total_deduction: DefaultedNumeric;
  total_net: DefaultedNumeric;
  payment_count: Generated<number>;
  status: Generated<YearEndStatementStatus>;
  file_id: number | null;
  issued_at: Timestamp | null;
  issued_by: number | null;
  sent_at: Timestamp | null;
  sent_by: number | null;
  version: Version;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface PaymentTaxTables {
  payment: PaymentTable;
  agent_deduction: AgentDeductionTable;
  payment_deduction_detail: PaymentDeductionDetailTable;
  account_code: AccountCodeTable;
  contract_accounting_entry: ContractAccountingEntryTable;
  agent_annual_income: AgentAnnualIncomeTable;
  withholding_tax_report: WithholdingTaxReportTable;
  vat_report: VatReportTable;
  commission_statement: CommissionStatementTable;
  deduction_carry_forward: DeductionCarryForwardTable;
  accounting_close: AccountingCloseTable;
  account_balance_snapshot: AccountBalanceSnapshotTable;
  statement_run: StatementRunTable;
  year_end_statement: YearEndStatementTable;
}
