-- Platform seed data: roles, menu tree, menu permissions, role grants, common codes, system configuration,
-- data domains and the data dictionary of the platform tables.
-- Binding source of menus, permissions and grants: docs/menus-and-routing.md. Safe to repeat (ON CONFLICT DO NOTHING).

-- ---------------------------------------------------------------------------------------------------------------
-- Roles (role_level: higher = more privileged)
-- ---------------------------------------------------------------------------------------------------------------
INSERT INTO role (role_code, role_name, role_desc, role_level, is_system) VALUES
  ('SUPER_ADMIN', 'Super Administrator', 'Every permission of every menu', 100, 'Y'),
  ('ADMIN',       'Administrator',       'Everything outside system administration, plus selected system menus', 80, 'Y'),
  ('MANAGER',     'Manager',             'Read, create, update and export outside system administration', 50, 'Y'),
  ('AGENT',       'Agent',               'Own ledgers and settlements (read only)', 10, 'Y')
ON CONFLICT (role_code) DO NOTHING;

-- ---------------------------------------------------------------------------------------------------------------
-- Menus: directories, then pages (menu_path = web route of spec 4.6)
-- ---------------------------------------------------------------------------------------------------------------
INSERT INTO menu (menu_code, menu_name, menu_type, menu_icon, menu_level, sort_order) VALUES
  ('ORG',              'Organization',         'DIRECTORY', 'apartment',  1,  10),
  ('PRODUCT_CONTRACT', 'Products & Contracts', 'DIRECTORY', 'file-text',  1,  20),
  ('RULES',            'Commission Rules',     'DIRECTORY', 'calculator', 1,  30),
  ('RECEIVE',          'Data Intake',          'DIRECTORY', 'cloud-upload', 1, 40),
  ('LEDGER',           'Ledgers',              'DIRECTORY', 'book',       1,  50),
  ('SETTLE',           'Settlement',           'DIRECTORY', 'audit',      1,  60),
  ('PAYMENT_GRP',      'Payment',              'DIRECTORY', 'bank',       1,  70),
  ('REPORT',           'Reports',              'DIRECTORY', 'bar-chart',  1,  80),
  ('KPI',              'KPI',                  'DIRECTORY', 'dashboard',  1,  90),
  ('COMMISSION',       'Commission & Tax',     'DIRECTORY', 'account-book', 1, 100),
  ('AGENT_MGMT',       'Agent Management',     'DIRECTORY', 'team',       1, 110),
  ('SYSTEM',           'System',               'DIRECTORY', 'setting',    1, 120)
ON CONFLICT (menu_code) DO NOTHING;

CREATE TEMP TABLE seed_page (
  menu_code   varchar(50),
  menu_name   varchar(100),
  menu_path   varchar(200),
  parent_code varchar(50),
  sort_order  integer,
  perms       text
) ON COMMIT DROP;

INSERT INTO seed_page (menu_code, menu_name, menu_path, parent_code, sort_order, perms) VALUES
  ('ORG_TREE',               'Organization Tree',            'org/tree',                      'ORG',              10, 'READ CREATE UPDATE DELETE'),
  ('ORG_AGENT',              'Agents',                       'org/agents',                    'ORG',              20, 'READ CREATE UPDATE EXPORT'),
  ('COMPANY',                'Insurance Companies',          'companies',                     'PRODUCT_CONTRACT', 10, 'READ CREATE UPDATE'),
  ('PRODUCT',                'Products',                     'products',                      'PRODUCT_CONTRACT', 20, 'READ CREATE UPDATE DELETE'),
  ('CONTRACT_LIST',          'Contracts',                    'contracts',                     'PRODUCT_CONTRACT', 30, 'READ CREATE UPDATE'),
  ('CONTRACT_SUCCESSION',    'Contract Successions',         'contracts/successions',         'PRODUCT_CONTRACT', 40, 'READ CREATE UPDATE DELETE'),
  ('ENDORSE',                'Contract Endorsements',        'contracts/endorsements',        'PRODUCT_CONTRACT', 50, 'READ CREATE UPDATE DELETE'),
  ('COMPLAINT',              'Contract Complaints',          'contracts/complaints',          'PRODUCT_CONTRACT', 60, 'READ CREATE UPDATE DELETE'),
  ('RULE_COMMISSION',        'Commission Rates',             'rules/commission',              'RULES',            10, 'READ CREATE UPDATE DELETE'),
  ('RULE_PAYOUT',            'Payout Rules',                 'rules/payout',                  'RULES',            20, 'READ CREATE UPDATE DELETE'),
  ('RULE_OVERRIDE',          'Override Rules',               'rules/override',                'RULES',            30, 'READ CREATE UPDATE DELETE'),
  ('RULE_CHARGEBACK',        'Chargeback Rules',             'rules/chargeback',              'RULES',            40, 'READ CREATE UPDATE DELETE'),
  ('RULE_EXCEPTION',         'Exception Type Codes',         'rules/exceptions',              'RULES',            50, 'READ CREATE UPDATE'),
  ('REGULATORY_LIMIT',       'Regulatory Limits',            'rules/regulatory',              'RULES',            60, 'READ CREATE UPDATE'),
  ('INSTALLMENT_RATIO',      'Installment Ratios',           'rules/installment-ratios',      'RULES',            70, 'READ CREATE'),
  ('INSTALLMENT_PLAN',       'Installment Plans',            'rules/installment-plans',       'RULES',            80, 'READ CREATE UPDATE'),
  ('CHARGEBACK_GRADE',       'Chargeback Grades',            'rules/chargeback-grades',       'RULES',            90, 'READ CREATE UPDATE'),
  ('RECEIVE_DATA',           'Received Data',                'receive/data',                  'RECEIVE',          10, 'READ UPDATE'),
  ('RECEIVE_MAPPING',        'Field & Code Mapping',         'receive/mapping',               'RECEIVE',          20, 'READ CREATE UPDATE DELETE'),
  ('LEDGER_RECRUIT',         'Recruit Ledger',               'ledger/recruit',                'LEDGER',           10, 'READ EXPORT'),
  ('LEDGER_MAINTAIN',        'Maintain Ledger',              'ledger/maintain',               'LEDGER',           20, 'READ EXPORT'),
  ('LEDGER_EXCEPTION',       'Exception Ledger',             'ledger/exception',              'LEDGER',           30, 'READ CREATE APPROVE'),
  ('SETTLE_LIST',            'Settlements',                  'settle',                        'SETTLE',           10, 'READ APPROVE'),
  ('BATCH_RUN',              'Settlement Batch',             'settle/batch',                  'SETTLE',           20, 'READ APPROVE'),
  ('DEDUCTION',              'Deductions',                   'settle/deductions',             'SETTLE',           30, 'READ CREATE UPDATE'),
  ('PERIOD_CLOSE',           'Period Close',                 'settle/period-close',           'SETTLE',           40, 'READ CREATE UPDATE'),
  ('SETTLE_CORRECTION',      'Settlement Corrections',       'settle/corrections',            'SETTLE',           50, 'READ CREATE UPDATE APPROVE'),
  ('TAX_INVOICE',            'Tax Invoices',                 'settle/tax-invoices',           'SETTLE',           60, 'READ CREATE UPDATE'),
  ('DISPUTE',                'Commission Disputes',          'settle/disputes',               'SETTLE',           70, 'READ CREATE UPDATE APPROVE'),
  ('INCENTIVE_PROG',         'Incentive Programs',           'settle/incentives',             'SETTLE',           80, 'READ CREATE UPDATE'),
  ('INCENTIVE_PAY',          'Incentive Payments',           'settle/incentive-payments',     'SETTLE',           90, 'READ CREATE UPDATE APPROVE'),
  ('TERM_SETTLE',            'Termination Settlement',       'settle/termination',            'SETTLE',          100, 'READ CREATE UPDATE APPROVE'),
  ('RECON_OUT',              'Carrier Reconciliation Reply', 'settle/carrier-reply',          'SETTLE',          110, 'READ CREATE UPDATE'),
  ('PAYMENT',                'Payments',                     'payments',                      'PAYMENT_GRP',      10, 'READ UPDATE EXPORT'),
  ('WITHDRAW',               'Withdraw Requests',            'payments/withdraw',             'PAYMENT_GRP',      20, 'READ CREATE UPDATE'),
  ('STATEMENT',              'Commission Statements',        'payments/statements',           'PAYMENT_GRP',      30, 'READ CREATE UPDATE'),
  ('REPORT_PERFORMANCE',     'Performance Report',           'report/performance',            'REPORT',           10, 'READ EXPORT'),
  ('REPORT_ORG',             'Organization Report',          'report/org',                    'REPORT',           20, 'READ EXPORT'),
  ('REPORT_CHARGEBACK_RISK', 'Chargeback Risk Report',       'report/chargeback-risk',        'REPORT',           30, 'READ EXPORT'),
  ('KPI_MONTHLY',            'Monthly KPI',                  'kpi/monthly',                   'KPI',              10, 'READ'),
  ('KPI_ORG',                'Organization KPI',             'kpi/org',                       'KPI',              20, 'READ'),
  ('KPI_RETENTION',          'Retention KPI',                'kpi/retention',                 'KPI',              30, 'READ'),
  ('KPI_CUMULATIVE',         'Cumulative KPI',               'kpi/cumulative',                'KPI',              40, 'READ'),
  ('ANNUAL_INCOME',          'Annual Income',                'commission/annual-income',      'COMMISSION',       10, 'READ EXECUTE'),
  ('ACCOUNTING_JOURNAL',     'Accounting Journal',           'commission/accounting-journal', 'COMMISSION',       20, 'READ CREATE UPDATE'),
  ('WITHHOLDING_TAX',        'Withholding Tax Report',       'commission/withholding-tax',    'COMMISSION',       30, 'READ EXECUTE'),
  ('VAT_REPORT',             'VAT Report',                   'commission/vat-report',         'COMMISSION',       40, 'READ EXECUTE'),
  ('COMM_TYPE',              'Commission Types',             'commission/type',               'COMMISSION',       50, 'READ CREATE UPDATE DELETE'),
  ('COMM_MASTER',            'Commission Master',            'commission/master',             'COMMISSION',       60, 'READ UPDATE DELETE'),
  ('COLLECT_COMM',           'Collection Commission',        'commission/collection',         'COMMISSION',       70, 'READ CREATE UPDATE DELETE'),
  ('RENEWAL_COMM',           'Renewal Commission',           'commission/renewal',            'COMMISSION',       80, 'READ CREATE UPDATE DELETE'),
  ('REINSTATE_COMM',         'Reinstatement Commission',     'commission/reinstatement',      'COMMISSION',       90, 'READ CREATE UPDATE DELETE'),
  ('PERSIST_BONUS',          'Persistency Bonus',            'commission/persistency',        'COMMISSION',      100, 'READ CREATE UPDATE DELETE'),
  ('OVERRIDE_LEDGER',        'Override Ledger',              'commission/override-ledger',    'COMMISSION',      110, 'READ'),
  ('AGENT_CONTRACT',         'Agent Contracts',              'agent/contracts',               'AGENT_MGMT',       10, 'READ CREATE UPDATE DELETE'),
  ('AGENT_LICENSE',          'Agent Licenses',               'agent/licenses',                'AGENT_MGMT',       20, 'READ CREATE UPDATE DELETE'),
  ('AGENT_TRAINING',         'Agent Trainings',              'agent/trainings',               'AGENT_MGMT',       30, 'READ CREATE UPDATE DELETE'),
  ('APPROVAL',               'Approvals',                    'system/approvals',              'SYSTEM',           10, 'READ CREATE UPDATE APPROVE'),
  ('NOTICE',                 'Notices',                      'system/notices',                'SYSTEM',           20, 'READ CREATE UPDATE DELETE'),
  ('SYSTEM_USER',            'Users',                        'system/users',                  'SYSTEM',           30, 'READ CREATE UPDATE'),
  ('SYSTEM_ROLE',            'Roles & Permissions',          'system/roles',                  'SYSTEM',           40, 'READ CREATE UPDATE DELETE'),
  ('SYSTEM_MENU',            'Menus',                        'system/menus',                  'SYSTEM',           50, 'READ CREATE UPDATE DELETE'),
  ('SYSTEM_CODE',            'Common Codes',                 'system/codes',                  'SYSTEM',           60, 'READ CREATE UPDATE DELETE'),
  ('SYSTEM_CONFIG',          'System Configuration',         'system/config',                 'SYSTEM',           70, 'READ UPDATE'),
  ('SYSTEM_LOG',             'System Logs',                  'system/logs',                   'SYSTEM',           80, 'READ EXPORT'),
  ('SYSTEM_UPLOAD_TEMPLATE', 'Upload Templates',             'system/upload-templates',       'SYSTEM',           90, 'READ CREATE UPDATE DELETE'),
  ('SYSTEM_DATA_DOMAIN',     'Data Domains',                 'system/data-domains',           'SYSTEM',          100, 'READ CREATE UPDATE DELETE'),
  ('SYSTEM_DATA_DICT',       'Data Dictionary',              'system/data-dictionary',        'SYSTEM',          110, 'READ CREATE UPDATE DELETE'),
  ('SYSTEM_EXTERNAL_CALL_LOG', 'External Call Log',          'system/external-call-log',      'SYSTEM',          120, 'READ'),
  ('ATTACHMENT',             'Attachments',                  'system/attachments',            'SYSTEM',          130, 'READ CREATE DELETE');

INSERT INTO menu (parent_menu_id, menu_code, menu_name, menu_type, menu_path, menu_level, sort_order)
SELECT parent.menu_id, s.menu_code, s.menu_name, 'PAGE', s.menu_path, parent.menu_level + 1, s.sort_order
FROM seed_page s
JOIN menu parent ON parent.menu_code = s.parent_code
ORDER BY parent.sort_order, s.sort_order
ON CONFLICT (menu_code) DO NOTHING;

INSERT INTO menu_permission (menu_id, perm_code, perm_name, sort_order)
SELECT m.menu_id, p.perm_code,
       CASE p.perm_code
         WHEN 'READ' THEN 'Read' WHEN 'CREATE' THEN 'Create' WHEN 'UPDATE' THEN 'Update' WHEN 'DELETE' THEN 'Delete'
         WHEN 'APPROVE' THEN 'Approve' WHEN 'EXPORT' THEN 'Export' WHEN 'PRINT' THEN 'Print' WHEN 'EXECUTE' THEN 'Execute'
       END,
       array_position(ARRAY['READ', 'CREATE', 'UPDATE', 'DELETE', 'APPROVE', 'EXPORT', 'PRINT', 'EXECUTE'], p.perm_code)
FROM seed_page s
JOIN menu m ON m.menu_code = s.menu_code
CROSS JOIN LATERAL unnest(string_to_array(s.perms, ' ')) AS p(perm_code)
ON CONFLICT (menu_id, perm_code) DO NOTHING;

-- ---------------------------------------------------------------------------------------------------------------
-- Grants (spec 5.4 as fixed by docs/menus-and-routing.md)
-- ---------------------------------------------------------------------------------------------------------------
CREATE TEMP VIEW seed_perm AS
SELECT mp.menu_id, mp.perm_code, m.menu_code, parent.menu_code AS parent_code
FROM menu_permission mp
JOIN menu m ON m.menu_id = mp.menu_id
LEFT JOIN menu parent ON parent.menu_id = m.parent_menu_id;

INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
SELECT r.role_id, p.menu_id, p.perm_code, 'Y'
FROM seed_perm p
JOIN role r ON r.role_code = 'SUPER_ADMIN'
ON CONFLICT (role_id, menu_id, perm_code) DO NOTHING;

INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
SELECT r.role_id, p.menu_id, p.perm_code, 'Y'
FROM seed_perm p
JOIN role r ON r.role_code = 'ADMIN'
WHERE p.parent_code IS DISTINCT FROM 'SYSTEM'
   OR p.menu_code IN ('APPROVAL', 'NOTICE', 'ATTACHMENT', 'SYSTEM_UPLOAD_TEMPLATE', 'SYSTEM_DATA_DOMAIN',
                      'SYSTEM_DATA_DICT', 'SYSTEM_EXTERNAL_CALL_LOG')
ON CONFLICT (role_id, menu_id, perm_code) DO NOTHING;

INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
SELECT r.role_id, p.menu_id, p.perm_code, 'Y'
FROM seed_perm p
JOIN role r ON r.role_code = 'MANAGER'
WHERE p.parent_code IS DISTINCT FROM 'SYSTEM'
  AND p.perm_code IN ('READ', 'CREATE', 'UPDATE', 'EXPORT')
ON CONFLICT (role_id, menu_id, perm_code) DO NOTHING;

INSERT INTO role_menu_permission (role_id, menu_id, perm_code, is_granted)
SELECT r.role_id, p.menu_id, p.perm_code, 'Y'
FROM seed_perm p
JOIN role r ON r.role_code = 'AGENT'
WHERE p.menu_code IN ('LEDGER_RECRUIT', 'LEDGER_MAINTAIN', 'LEDGER_EXCEPTION', 'SETTLE_LIST')
  AND p.perm_code = 'READ'
ON CONFLICT (role_id, menu_id, perm_code) DO NOTHING;

DROP VIEW seed_perm;

-- ---------------------------------------------------------------------------------------------------------------
-- Common codes. is_system 'Y' = value sets the services depend on (update/delete -> SYSTEM_CODE_LOCKED);
-- 'N' = groups an administrator may maintain freely.
-- ---------------------------------------------------------------------------------------------------------------
INSERT INTO common_code_group (group_code, group_name, description, is_system, sort_order) VALUES
  ('AGENT_STATUS',        'Agent status',               'agent.status',                                   'Y',  10),
  ('CONTRACT_STATUS',     'Contract status',            'contract.status',                                'Y',  20),
  ('SETTLE_STATUS',       'Settlement status',          'settle_master.status',                           'Y',  30),
  ('PAY_CYCLE',           'Premium pay cycle',          'contract.pay_cycle; attr1 = months between premiums (0 = single)', 'Y', 40),
  ('INSURANCE_TYPE',      'Insurance type',             'product.insurance_type',                         'Y',  50),
  ('ORG_TYPE',            'Organization type',          'organization.org_type; attr1 = org_level',       'Y',  60),
  ('GRADE_GROUP',         'Grade group',                'grade.grade_group',                              'N',  70),
  ('RECONCILE_STATUS',    'Reconcile status',           'ledger and reconciliation reconcile status',     'Y',  80),
  ('PARSE_STATUS',        'Parse status',               'raw_commission_data.parse_status',               'Y',  90),
  ('EXCEPTION_DIRECTION', 'Exception direction',        'exception_type_code.direction',                  'Y', 100),
  ('APPROVE_STATUS',      'Approval status',            'approve_status of exceptions and approvals',     'Y', 110),
  ('PAYMENT_STATUS',      'Payment status',             'payment.status',                                 'Y', 120),
  ('NOTI_TYPE',           'Notification type',          'notification.noti_type',                         'N', 130),
  ('FILE_TYPE',           'File type',                  'attachment and upload file kinds; attr1 = extensions', 'N', 140),
  ('DATA_FORMAT',         'Data format',                'company_profile.data_format',                    'Y', 150),
  ('RECEIVE_METHOD',      'Receive method',             'company_profile.receive_method',                 'Y', 160),
  ('TRANSFORM_RULE',      'Transform rule',             'transform rules of mappings and upload templates', 'Y', 170),
  ('CHANGE_TYPE',         'Organization change type',   'agent_org_history.change_type',                  'Y', 180),
  ('TAX_TYPE',            'Tax type',                   'agent.tax_type; attr1 = system_config rate key', 'Y', 190),
  ('VAT_TYPE',            'VAT type',                   'agent.vat_type',                                 'Y', 200),
  ('DEDUCTION_TYPE',      'Deduction type',             'agent_deduction.deduction_type',                 'Y', 210),
  ('DEDUCTION_STATUS',    'Deduction status',           'agent_deduction.status',                         'Y', 220),
  ('STATEMENT_TYPE',      'Statement type',             'commission_statement.statement_type',            'Y', 230),
  ('STATEMENT_STATUS',    'Statement status',           'commission_statement.issue_status',              'Y', 240),
  ('LIMIT_TYPE',          'Regulatory limit type',      'regulatory_limit.limit_type',                    'Y', 250),
  ('LIMIT_UNIT',          'Regulatory limit unit',      'regulatory_limit.unit',                          'Y', 260),
  ('PRODUCT_CATEGORY',    'Product category',           'regulatory limits, installment ratios, chargeback grades', 'Y', 270),
  ('HOLD_REASON',         'Settlement hold reason',     'settle_master hold reason code',                 'N', 280),
  ('USER_STATUS',         'User status',                'users.status',                                   'Y', 290),
  ('LEDGER_STATUS',       'Ledger status',              'recruit/maintain ledger status',                 'Y', 300),
  ('EXCEPTION_STATUS',    'Exception ledger status',    'exception_ledger.status',                        'Y', 310),
  ('BATCH_STATUS',        'Batch job status',           'batch_job_log.status',                           'Y', 320),
  ('RESOLVE_STATUS',      'Parse error resolve status', 'parse_error_log.resolve_status',                 'Y', 330),
  ('PARSE_ERROR_TYPE',    'Parse error type',           'parse_error_log.error_type',                     'Y', 340),
  ('INSTALLMENT_STATUS',  'Installment plan status',    'installment_plan.status',                        'Y', 350),
  ('DISPUTE_STATUS',      'Dispute status',             'commission_dispute.status',                      'Y', 360),
  ('APPROVAL_TARGET',     'Approval target type',       'approval request targetType',                    'Y', 370),
  ('ACCOUNT_TYPE',        'Account type',               'account_code.account_type',                      'Y', 380),
  ('MENU_TYPE',           'Menu type',                  'menu.menu_type',                                 'Y', 390),
  ('PERM_CODE',           'Permission code',            'menu_permission.perm_code',                      'Y', 400),
  ('DOMAIN_CATEGORY',     'Data domain category',       'data_domain.category',                           'Y', 410),
  ('MASKING_TYPE',        'Masking type',               'data_domain.masking_type',                       'Y', 420),
  ('CALL_TYPE',           'External call type',         'external_call_log.call_type',                    'Y', 430)
ON CONFLICT (group_code) DO NOTHING;

INSERT INTO common_code (group_code, code, code_name, code_name_en, attr1, sort_order)
SELECT v.group_code, v.code, v.code_name, v.code_name, v.attr1, v.sort_order
FROM (VALUES
  ('AGENT_STATUS', 'ACTIVE', 'Active', NULL, 1),
  ('AGENT_STATUS', 'LEAVE', 'Left', NULL, 2),
  ('AGENT_STATUS', 'SUSPEND', 'Suspended', NULL, 3),

  ('CONTRACT_STATUS', 'ACTIVE', 'In force', NULL, 1),
  ('CONTRACT_STATUS', 'LAPSE', 'Lapsed', NULL, 2),
  ('CONTRACT_STATUS', 'REVIVE', 'Revived', NULL, 3),
  ('CONTRACT_STATUS', 'TERMINATE', 'Terminated', NULL, 4),

  ('SETTLE_STATUS', 'CALCULATED', 'Calculated', NULL, 1),
  ('SETTLE_STATUS', 'CONFIRMED', 'Confirmed', NULL, 2),
  ('SETTLE_STATUS', 'HOLD', 'On hold', NULL, 3),
  ('SETTLE_STATUS', 'PAID', 'Paid', NULL, 4),

  ('PAY_CYCLE', 'MONTHLY', 'Monthly', '1', 1),
  ('PAY_CYCLE', 'QUARTERLY', 'Quarterly', '3', 2),
  ('PAY_CYCLE', 'SEMI_ANNUAL', 'Semi-annual', '6', 3),
  ('PAY_CYCLE', 'ANNUAL', 'Annual', '12', 4),
  ('PAY_CYCLE', 'SINGLE', 'Single premium', '0', 5),

  ('INSURANCE_TYPE', 'LIFE', 'Life', NULL, 1),
  ('INSURANCE_TYPE', 'NON_LIFE', 'Non-life', NULL, 2),
  ('INSURANCE_TYPE', 'ANNUITY', 'Annuity', NULL, 3),
  ('INSURANCE_TYPE', 'SAVINGS', 'Savings', NULL, 4),
  ('INSURANCE_TYPE', 'HEALTH', 'Health', NULL, 5),
  ('INSURANCE_TYPE', 'AUTO', 'Automobile', NULL, 6),

  ('ORG_TYPE', 'HQ', 'Headquarters', '1', 1),
  ('ORG_TYPE', 'BR', 'Branch', '2', 2),
  ('ORG_TYPE', 'TM', 'Team', '3', 3),

  ('GRADE_GROUP', 'AGENT', 'Sales agent', NULL, 1),
  ('GRADE_GROUP', 'MANAGER', 'Sales manager', NULL, 2),
  ('GRADE_GROUP', 'EXECUTIVE', 'Executive', NULL, 3),

  ('RECONCILE_STATUS', 'PENDING', 'Pending', NULL, 1),
  ('RECONCILE_STATUS', 'MATCHED', 'Matched', NULL, 2),
  ('RECONCILE_STATUS', 'DIFF', 'Difference', NULL, 3),

  ('PARSE_STATUS', 'PENDING', 'Pending', NULL, 1),
  ('PARSE_STATUS', 'OK', 'Parsed', NULL, 2),
  ('PARSE_STATUS', 'ERROR', 'Error', NULL, 3),

  ('EXCEPTION_DIRECTION', 'PLUS', 'Addition', NULL, 1),
  ('EXCEPTION_DIRECTION', 'MINUS', 'Subtraction', NULL, 2),

  ('APPROVE_STATUS', 'PENDING', 'Pending', NULL, 1),
  ('APPROVE_STATUS', 'APPROVED', 'Approved', NULL, 2),
  ('APPROVE_STATUS', 'REJECTED', 'Rejected', NULL, 3),
  ('APPROVE_STATUS', 'CANCELLED', 'Cancelled', NULL, 4),

  ('PAYMENT_STATUS', 'PENDING', 'Pending', NULL, 1),
  ('PAYMENT_STATUS', 'SENT', 'Sent to bank', NULL, 2),
  ('PAYMENT_STATUS', 'SUCCESS', 'Transferred', NULL, 3),
  ('PAYMENT_STATUS', 'FAIL', 'Failed', NULL, 4),

  ('NOTI_TYPE', 'APPROVAL', 'Approval', NULL, 1),
  ('NOTI_TYPE', 'SYSTEM', 'System', NULL, 2),
  ('NOTI_TYPE', 'NOTICE', 'Notice', NULL, 3),
  ('NOTI_TYPE', 'BATCH', 'Batch', NULL, 4),
  ('NOTI_TYPE', 'PAYMENT', 'Payment', NULL, 5),

  ('FILE_TYPE', 'EXCEL', 'Spreadsheet', 'xlsx,xls', 1),
  ('FILE_TYPE', 'CSV', 'CSV', 'csv', 2),
  ('FILE_TYPE', 'TEXT', 'Text', 'txt,dat', 3),
  ('FILE_TYPE', 'PDF', 'PDF', 'pdf', 4),
  ('FILE_TYPE', 'IMAGE', 'Image', 'png,jpg,jpeg,gif', 5),
  ('FILE_TYPE', 'ZIP', 'Archive', 'zip', 6),

  ('DATA_FORMAT', 'EXCEL', 'Spreadsheet', NULL, 1),
  ('DATA_FORMAT', 'CSV', 'Delimited text', NULL, 2),
  ('DATA_FORMAT', 'FIXED', 'Fixed-width text', NULL, 3),
  ('DATA_FORMAT', 'JSON', 'JSON', NULL, 4),
  ('DATA_FORMAT', 'XML', 'XML', NULL, 5),

  ('RECEIVE_METHOD', 'MANUAL', 'Manual upload', NULL, 1),
  ('RECEIVE_METHOD', 'EDI', 'EDI', NULL, 2),
  ('RECEIVE_METHOD', 'FTP', 'FTP', NULL, 3),
  ('RECEIVE_METHOD', 'API', 'API', NULL, 4),

  ('TRANSFORM_RULE', 'TRIM', 'Trim spaces', NULL, 1),
  ('TRANSFORM_RULE', 'UPPER', 'Upper case', NULL, 2),
  ('TRANSFORM_RULE', 'LOWER', 'Lower case', NULL, 3),
  ('TRANSFORM_RULE', 'DATE', 'Parse date', NULL, 4),
  ('TRANSFORM_RULE', 'DIVIDE', 'Divide', NULL, 5),
  ('TRANSFORM_RULE', 'MULTIPLY', 'Multiply', NULL, 6),
  ('TRANSFORM_RULE', 'LOOKUP', 'Lookup', NULL, 7),
  ('TRANSFORM_RULE', 'CODE_MAP', 'Code mapping', NULL, 8),
  ('TRANSFORM_RULE', 'FIXED', 'Fixed value', NULL, 9),
  ('TRANSFORM_RULE', 'REPLACE', 'Replace', NULL, 10),
  ('TRANSFORM_RULE', 'SUBSTRING', 'Substring', NULL, 11),
  ('TRANSFORM_RULE', 'CONCAT', 'Concatenate', NULL, 12),
  ('TRANSFORM_RULE', 'DEFAULT', 'Default value', NULL, 13),

  ('CHANGE_TYPE', 'TRANSFER', 'Transfer', NULL, 1),
  ('CHANGE_TYPE', 'PROMOTE', 'Promotion', NULL, 2),
  ('CHANGE_TYPE', 'DEMOTE', 'Demotion', NULL, 3),
  ('CHANGE_TYPE', 'JOIN', 'Joined', NULL, 4),
  ('CHANGE_TYPE', 'LEAVE', 'Left', NULL, 5),

  ('TAX_TYPE', 'BUSINESS_INCOME', 'Business income', 'TAX_RATE_BUSINESS_INCOME', 1),
  ('TAX_TYPE', 'OTHER_INCOME', 'Other income', 'TAX_RATE_OTHER_INCOME', 2),

  ('VAT_TYPE', 'NONE', 'Not applicable', NULL, 1),
  ('VAT_TYPE', 'EXEMPT', 'Exempt', NULL, 2),
  ('VAT_TYPE', 'TAXABLE', 'Taxable', NULL, 3),

  ('DEDUCTION_TYPE', 'LOAN', 'Loan repayment', NULL, 1),
  ('DEDUCTION_TYPE', 'ADVANCE', 'Advance recovery', NULL, 2),
  ('DEDUCTION_TYPE', 'GUARANTEE', 'Guarantee insurance', NULL, 3),
  ('DEDUCTION_TYPE', 'DUES', 'Association dues', NULL, 4),
  ('DEDUCTION_TYPE', 'AD', 'Advertising cost', NULL, 5),
  ('DEDUCTION_TYPE', 'CHARGEBACK_PENDING', 'Pending chargeback', NULL, 6),
  ('DEDUCTION_TYPE', 'OTHER', 'Other', NULL, 7),

  ('DEDUCTION_STATUS', 'PENDING', 'Pending', NULL, 1),
  ('DEDUCTION_STATUS', 'APPLIED', 'Applied', NULL, 2),
  ('DEDUCTION_STATUS', 'CANCELLED', 'Cancelled', NULL, 3),

  ('STATEMENT_TYPE', 'MONTHLY', 'Monthly statement', NULL, 1),
  ('STATEMENT_TYPE', 'ANNUAL', 'Annual statement', NULL, 2),
  ('STATEMENT_TYPE', 'PROOF', 'Income proof', NULL, 3),

  ('STATEMENT_STATUS', 'GENERATED', 'Generated', NULL, 1),
  ('STATEMENT_STATUS', 'SENT', 'Sent', NULL, 2),
  ('STATEMENT_STATUS', 'DOWNLOADED', 'Downloaded', NULL, 3),
  ('STATEMENT_STATUS', 'CANCELLED', 'Cancelled', NULL, 4),

  ('LIMIT_TYPE', 'TOTAL_RATIO', 'Total commission ratio', NULL, 1),
  ('LIMIT_TYPE', 'FIRST_YEAR_RATIO', 'First-year commission ratio', NULL, 2),
  ('LIMIT_TYPE', 'INSTALLMENT_YEARS', 'Installment years', NULL, 3),

  ('LIMIT_UNIT', 'PERCENT', 'Percent', NULL, 1),
  ('LIMIT_UNIT', 'YEAR', 'Year', NULL, 2),

  ('PRODUCT_CATEGORY', 'ALL', 'All products', NULL, 1),
  ('PRODUCT_CATEGORY', 'LIFE', 'Life', NULL, 2),
  ('PRODUCT_CATEGORY', 'ANNUITY', 'Annuity', NULL, 3),
  ('PRODUCT_CATEGORY', 'SAVINGS', 'Savings', NULL, 4),
  ('PRODUCT_CATEGORY', 'EXCLUDED_AUTO', 'Excluded: automobile', NULL, 5),
  ('PRODUCT_CATEGORY', 'EXCLUDED_HEALTH', 'Excluded: health', NULL, 6),

  ('HOLD_REASON', 'DOC_MISSING', 'Documents missing', NULL, 1),
  ('HOLD_REASON', 'DISPUTE', 'Dispute in progress', NULL, 2),
  ('HOLD_REASON', 'INVESTIGATION', 'Under investigation', NULL, 3),
  ('HOLD_REASON', 'ACCOUNT_ERROR', 'Bank account problem', NULL, 4),
  ('HOLD_REASON', 'CHARGEBACK_RISK', 'Chargeback risk', NULL, 5),
  ('HOLD_REASON', 'OTHER', 'Other', NULL, 6),

  ('USER_STATUS', 'ACTIVE', 'Active', NULL, 1),
  ('USER_STATUS', 'LOCKED', 'Locked', NULL, 2),
  ('USER_STATUS', 'RETIRED', 'Retired', NULL, 3),
  ('USER_STATUS', 'EXPIRED', 'Expired', NULL, 4),

  ('LEDGER_STATUS', 'CALCULATED', 'Calculated', NULL, 1),
  ('LEDGER_STATUS', 'CONFIRMED', 'Confirmed', NULL, 2),
  ('LEDGER_STATUS', 'HOLD', 'On hold', NULL, 3),

  ('EXCEPTION_STATUS', 'NEW', 'New', NULL, 1),
  ('EXCEPTION_STATUS', 'APPLIED', 'Applied', NULL, 2),
  ('EXCEPTION_STATUS', 'CANCELLED', 'Cancelled', NULL, 3),

  ('BATCH_STATUS', 'REQUESTED', 'Requested', NULL, 1),
  ('BATCH_STATUS', 'RUNNING', 'Running', NULL, 2),
  ('BATCH_STATUS', 'COMPLETED', 'Completed', NULL, 3),
  ('BATCH_STATUS', 'FAILED', 'Failed', NULL, 4),

  ('RESOLVE_STATUS', 'OPEN', 'Open', NULL, 1),
  ('RESOLVE_STATUS', 'RESOLVED', 'Resolved', NULL, 2),
  ('RESOLVE_STATUS', 'IGNORED', 'Ignored', NULL, 3),

  ('PARSE_ERROR_TYPE', 'INVALID_INPUT', 'Invalid input', NULL, 1),
  ('PARSE_ERROR_TYPE', 'UNKNOWN_TYPE', 'Unknown data type', NULL, 2),
  ('PARSE_ERROR_TYPE', 'NO_MAPPING', 'No field mapping', NULL, 3),
  ('PARSE_ERROR_TYPE', 'JSON_PARSE', 'Unreadable raw content', NULL, 4),
  ('PARSE_ERROR_TYPE', 'REQUIRED', 'Required field missing', NULL, 5),
  ('PARSE_ERROR_TYPE', 'TRANSFORM_FAIL', 'Transform failed', NULL, 6),
  ('PARSE_ERROR_TYPE', 'NO_POLICY', 'Policy number missing', NULL, 7),
  ('PARSE_ERROR_TYPE', 'CONTRACT_NOT_FOUND', 'Contract not found', NULL, 8),
  ('PARSE_ERROR_TYPE', 'CODE_MAP_FAIL', 'Code mapping failed', NULL, 9),

  ('INSTALLMENT_STATUS', 'SCHEDULED', 'Scheduled', NULL, 1),
  ('INSTALLMENT_STATUS', 'PAID', 'Paid', NULL, 2),
  ('INSTALLMENT_STATUS', 'DEFERRED', 'Deferred', NULL, 3),
  ('INSTALLMENT_STATUS', 'CANCELLED', 'Cancelled', NULL, 4),

  ('DISPUTE_STATUS', 'OPEN', 'Open', NULL, 1),
  ('DISPUTE_STATUS', 'IN_REVIEW', 'In review', NULL, 2),
  ('DISPUTE_STATUS', 'APPROVED', 'Approved', NULL, 3),
  ('DISPUTE_STATUS', 'REJECTED', 'Rejected', NULL, 4),

  ('APPROVAL_TARGET', 'WITHDRAW', 'Withdraw request', NULL, 1),
  ('APPROVAL_TARGET', 'SETTLE', 'Settlement', NULL, 2),
  ('APPROVAL_TARGET', 'DISPUTE', 'Dispute', NULL, 3),
  ('APPROVAL_TARGET', 'INCENTIVE', 'Incentive', NULL, 4),

  ('ACCOUNT_TYPE', 'DEBIT', 'Debit', NULL, 1),
  ('ACCOUNT_TYPE', 'CREDIT', 'Credit', NULL, 2),
  ('ACCOUNT_TYPE', 'BOTH', 'Debit and credit', NULL, 3),

  ('MENU_TYPE', 'DIRECTORY', 'Directory', NULL, 1),
  ('MENU_TYPE', 'PAGE', 'Page', NULL, 2),
  ('MENU_TYPE', 'LINK', 'Link', NULL, 3),

  ('PERM_CODE', 'READ', 'Read', NULL, 1),
  ('PERM_CODE', 'CREATE', 'Create', NULL, 2),
  ('PERM_CODE', 'UPDATE', 'Update', NULL, 3),
  ('PERM_CODE', 'DELETE', 'Delete', NULL, 4),
  ('PERM_CODE', 'APPROVE', 'Approve', NULL, 5),
  ('PERM_CODE', 'EXPORT', 'Export', NULL, 6),
  ('PERM_CODE', 'PRINT', 'Print', NULL, 7),
  ('PERM_CODE', 'EXECUTE', 'Execute', NULL, 8),

  ('DOMAIN_CATEGORY', 'IDENTIFIER', 'Identifier', NULL, 1),
  ('DOMAIN_CATEGORY', 'PII', 'Personal data', NULL, 2),
  ('DOMAIN_CATEGORY', 'MONEY', 'Money', NULL, 3),
  ('DOMAIN_CATEGORY', 'RATE', 'Rate', NULL, 4),
  ('DOMAIN_CATEGORY', 'DATE', 'Date and time', NULL, 5),
  ('DOMAIN_CATEGORY', 'CODE', 'Code', NULL, 6),
  ('DOMAIN_CATEGORY', 'TEXT', 'Text', NULL, 7),
  ('DOMAIN_CATEGORY', 'JSON', 'JSON', NULL, 8),
  ('DOMAIN_CATEGORY', 'AUDIT', 'Audit', NULL, 9),
  ('DOMAIN_CATEGORY', 'WORKFLOW', 'Workflow', NULL, 10),
  ('DOMAIN_CATEGORY', 'SETTLEMENT_BIZ', 'Settlement business', NULL, 11),
  ('DOMAIN_CATEGORY', 'FILE', 'File', NULL, 12),
  ('DOMAIN_CATEGORY', 'TAX', 'Tax', NULL, 13),
  ('DOMAIN_CATEGORY', 'BANKING', 'Banking', NULL, 14),
  ('DOMAIN_CATEGORY', 'PROFILE', 'Profile', NULL, 15),
  ('DOMAIN_CATEGORY', 'RESUME', 'Resume', NULL, 16),

  ('MASKING_TYPE', 'NAME', 'Name', NULL, 1),
  ('MASKING_TYPE', 'PHONE', 'Phone number', NULL, 2),
  ('MASKING_TYPE', 'RESIDENT_NO', 'Resident number', NULL, 3),
  ('MASKING_TYPE', 'ACCOUNT_NO', 'Account number', NULL, 4),
  ('MASKING_TYPE', 'EMAIL', 'E-mail', NULL, 5),
  ('MASKING_TYPE', 'FULL', 'Fully hidden', NULL, 6),

  ('CALL_TYPE', 'BANK', 'Bank', NULL, 1),
  ('CALL_TYPE', 'MESSAGE', 'Message', NULL, 2),
  ('CALL_TYPE', 'OTHER', 'Other', NULL, 3)
) AS v(group_code, code, code_name, attr1, sort_order)
ON CONFLICT (group_code, code) DO NOTHING;

-- ---------------------------------------------------------------------------------------------------------------
-- System configuration (spec 8 and DECISIONS.md)
-- ---------------------------------------------------------------------------------------------------------------
INSERT INTO system_config (config_key, config_value, config_group, description, is_encrypted) VALUES
  ('TAX_RATE_BUSINESS_INCOME', '3.3',     'TAX',      'Withholding income-tax rate for business income (percent)', 'N'),
  ('TAX_RATE_OTHER_INCOME',    '8.8',     'TAX',      'Withholding income-tax rate for other income (percent)', 'N'),
  ('TAX_RATE_LOCAL_INCOME',    '10.0',    'TAX',      'Local income tax (percent of the income tax)', 'N'),
  ('TAX_RATE_VAT',             '10.0',    'TAX',      'VAT rate for TAXABLE agents (percent)', 'N'),
  ('TAX_RATE',                 '3.3',     'SETTLE',   'Tax rate of the settlement aggregate (percent)', 'N'),
  ('RECON_DIFF_THRESHOLD',     '0',       'SETTLE',   'Largest reconcile difference still counted as MATCHED (amount)', 'N'),
  ('UPLOAD_MAX_SIZE_MB',       '100',     'FILE',     'Largest file accepted by the files service (MB)', 'N'),
  ('ATTACHMENT_MAX_SIZE_MB',   '50',      'FILE',     'Largest attachment assumed by the attachment design (MB)', 'N'),
  ('EXCEL_MAX_ROWS',           '1000000', 'EXCEL',    'Most rows of one spreadsheet download', 'N'),
  ('IMPORT_BATCH_SIZE',        '1000',    'EXCEL',    'Rows written and committed per batch by the spreadsheet import', 'N'),
  ('UPLOAD_PREVIEW_LIMIT',     '100',     'EXCEL',    'Most rows of an upload preview', 'N'),
  ('ACCESS_TOKEN_MINUTES',     '120',     'AUTH',     'Access token lifetime (minutes)', 'N'),
  ('REFRESH_TOKEN_DAYS',       '7',       'AUTH',     'Refresh token lifetime (days)', 'N'),
  ('LOGIN_FAIL_LIMIT',         '5',       'AUTH',     'Consecutive failed logins that lock an account', 'N'),
  ('BANK_RETRY_LIMIT',         '100',     'BANK',     'Failed transfers retried per bank-retry run', 'N'),
  ('BANK_API_KEY',             '',        'BANK',     'Bank network API key (stored encrypted; set by an administrator)', 'Y'),
  ('WITHDRAW_CUTOFF_DAY',      '25',      'PAYMENT',  'Day of month after which withdraw requests move to the next month', 'N')
ON CONFLICT (config_key) DO NOTHING;

-- ---------------------------------------------------------------------------------------------------------------
-- Data domains (one or more per category of spec 2.8)
-- ---------------------------------------------------------------------------------------------------------------
INSERT INTO data_domain (domain_code, domain_name, category, data_type, length, precision, scale, format_pattern,
                         validation_regex, masking_type, encrypted, description) VALUES
  ('ID',             'Identifier',             'IDENTIFIER',     'bigint',      NULL, 19, 0, NULL, NULL, NULL, 'N', 'Generated 64-bit key'),
  ('LOGIN_ID',       'Login id',               'IDENTIFIER',     'varchar',       50, NULL, NULL, NULL, '^[A-Za-z0-9._@-]{3,50}$', NULL, 'N', 'User login id'),
  ('POLICY_NO',      'Policy number',          'IDENTIFIER',     'varchar',       50, NULL, NULL, NULL, NULL, NULL, 'N', 'Insurance policy number (unique)'),
  ('NAME',           'Person name',            'PII',            'varchar',      100, NULL, NULL, NULL, NULL, 'NAME', 'N', 'Name of a person; masked keeping first and last character'),
  ('RESIDENT_NO',    'Resident number',        'PII',            'varchar',      200, NULL, NULL, '999999-9999999', '^\d{6}-?\d{7}$', 'RESIDENT_NO', 'Y', 'Encrypted at rest (AES-256-CBC)'),
  ('PHONE',          'Phone number',           'PII',            'varchar',       30, NULL, NULL, '999-9999-9999', '^\d{2,3}-?\d{3,4}-?\d{4}$', 'PHONE', 'N', 'Masked keeping first group and last four digits'),
  ('EMAIL',          'E-mail address',         'PII',            'varchar',      200, NULL, NULL, NULL, '^[^@\s]+@[^@\s]+\.[^@\s]+$', 'EMAIL', 'N', 'Masked keeping first character and domain'),
  ('PASSWORD_HASH',  'Password hash',          'PII',            'varchar',      100, NULL, NULL, NULL, NULL, 'FULL', 'N', 'BCrypt hash; never returned'),
  ('AMOUNT',         'Amount',                 'MONEY',          'numeric',     NULL, 15, 2, '#,##0.00', NULL, NULL, 'N', 'Money, decimal(15,2)'),
  ('RATE',           'Rate (percent)',         'RATE',           'numeric',     NULL, 7, 4, '0.0000', NULL, NULL, 'N', 'Percent, decimal(7,4); 3.3 means 3.3 %'),
  ('DATE',           'Date',                   'DATE',           'date',        NULL, NULL, NULL, 'YYYY-MM-DD', '^\d{4}-\d{2}-\d{2}$', NULL, 'N', 'Calendar date'),
  ('DATETIME',       'Timestamp',              'DATE',           'timestamptz', NULL, NULL, NULL, 'ISO-8601', NULL, NULL, 'N', 'Point in time with offset'),
  ('YN',             'Y/N flag',               'CODE',           'char',           1, NULL, NULL, NULL, '^[YN]$', NULL, 'N', 'Character flag Y or N'),
  ('FLAG',           'Boolean flag',           'CODE',           'boolean',     NULL, NULL, NULL, NULL, NULL, NULL, 'N', 'true/false'),
  ('CODE',           'Code',                   'CODE',           'varchar',       30, NULL, NULL, NULL, '^[A-Z0-9_]{1,30}$', NULL, 'N', 'Common code value'),
  ('NAME_TEXT',      'Name / title',           'TEXT',           'varchar',      200, NULL, NULL, NULL, NULL, NULL, 'N', 'Non-personal name or title'),
  ('DESCRIPTION',    'Description',            'TEXT',           'varchar',     1000, NULL, NULL, NULL, NULL, NULL, 'N', 'Free text'),
  ('JSON',           'JSON document',          'JSON',           'jsonb',       NULL, NULL, NULL, NULL, NULL, NULL, 'N', 'Structured snapshot'),
  ('AUDIT_USER',     'Audit user',             'AUDIT',          'bigint',      NULL, 19, 0, NULL, NULL, NULL, 'N', 'users.user_id set by the service'),
  ('AUDIT_TIME',     'Audit time',             'AUDIT',          'timestamptz', NULL, NULL, NULL, 'ISO-8601', NULL, NULL, 'N', 'Set by the service'),
  ('IP_ADDRESS',     'IP address',             'AUDIT',          'varchar',       64, NULL, NULL, NULL, NULL, NULL, 'N', 'Client address'),
  ('STATUS',         'Status',                 'WORKFLOW',       'varchar',       20, NULL, NULL, NULL, '^[A-Z_]{1,20}$', NULL, 'N', 'State of a record (see the value set of its common-code group)'),
  ('APPROVE_STATUS', 'Approval status',        'WORKFLOW',       'varchar',       20, NULL, NULL, NULL, NULL, NULL, 'N', 'PENDING, APPROVED, REJECTED, CANCELLED'),
  ('SETTLE_MONTH',   'Settle month',           'SETTLEMENT_BIZ', 'varchar',        6, NULL, NULL, 'YYYYMM', '^\d{4}(0[1-9]|1[0-2])$', NULL, 'N', 'Settlement month'),
  ('COMMISSION_YEAR','Commission year',        'SETTLEMENT_BIZ', 'integer',     NULL, NULL, NULL, NULL, NULL, NULL, 'N', '1 = recruit, 2 to 5 = maintain'),
  ('FILE_PATH',      'File path',              'FILE',           'varchar',     1000, NULL, NULL, NULL, NULL, NULL, 'N', 'Stored file location'),
  ('FILE_SIZE',      'File size',              'FILE',           'bigint',      NULL, 19, 0, NULL, NULL, NULL, 'N', 'Bytes'),
  ('TAX_TYPE',       'Tax type',               'TAX',            'varchar',       20, NULL, NULL, NULL, NULL, NULL, 'N', 'BUSINESS_INCOME or OTHER_INCOME'),
  ('BUSINESS_NO',    'Business registration',  'TAX',            'varchar',       20, NULL, NULL, '999-99-99999', '^\d{3}-?\d{2}-?\d{5}$', NULL, 'N', 'Business registration number'),
  ('BANK_CODE',      'Bank code',              'BANKING',        'varchar',       10, NULL, NULL, NULL, NULL, NULL, 'N', 'Bank identifier'),
  ('ACCOUNT_NO',     'Bank account number',    'BANKING',        'varchar',      200, NULL, NULL, NULL, NULL, 'ACCOUNT_NO', 'Y', 'Encrypted at rest (AES-256-CBC)'),
  ('LICENSE_NO',     'License number',         'PROFILE',        'varchar',       50, NULL, NULL, NULL, NULL, NULL, 'N', 'Agent license number'),
  ('GRADE',          'Grade',                  'PROFILE',        'bigint',      NULL, 19, 0, NULL, NULL, NULL, 'N', 'grade.grade_id of an agent'),
  ('CAREER_TEXT',    'Career history',         'RESUME',         'varchar',     2000, NULL, NULL, NULL, NULL, NULL, 'N', 'Career, education or training history'),
  ('TRAINING_HOURS', 'Training hours',         'RESUME',         'numeric',     NULL, 7, 2, NULL, NULL, NULL, 'N', 'Completed training hours')
ON CONFLICT (domain_code) DO NOTHING;

-- ---------------------------------------------------------------------------------------------------------------
-- Data dictionary: key columns of the platform tables (other areas add theirs in their own migrations)
-- ---------------------------------------------------------------------------------------------------------------
INSERT INTO data_dictionary (table_name, column_name, domain_code, column_label, is_pk, is_fk, fk_reference, business_rule, sample_value) VALUES
  ('users', 'user_id',        'ID',            'User id',            'Y', 'N', NULL, NULL, '1'),
  ('users', 'login_id',       'LOGIN_ID',      'Login id',           'N', 'N', NULL, 'Unique', 'admin'),
  ('users', 'password',       'PASSWORD_HASH', 'Password',           'N', 'N', NULL, 'BCrypt hash (cost 10); never returned', NULL),
  ('users', 'user_name',      'NAME',          'User name',          'N', 'N', NULL, NULL, 'Administrator'),
  ('users', 'agent_id',       'ID',            'Agent id',           'N', 'Y', 'agent.agent_id', 'Set for agent users', NULL),
  ('users', 'email',          'EMAIL',         'E-mail',             'N', 'N', NULL, NULL, 'user@example.com'),
  ('users', 'phone',          'PHONE',         'Phone',              'N', 'N', NULL, NULL, '010-1234-5678'),
  ('users', 'status',         'STATUS',        'Status',             'N', 'N', NULL, 'Common code USER_STATUS; LOCKED after LOGIN_FAIL_LIMIT failures', 'ACTIVE'),
  ('users', 'fail_count',     NULL,            'Failed logins',      'N', 'N', NULL, 'Reset by a successful login', '0'),
  ('users', 'last_login_at',  'DATETIME',      'Last login',         'N', 'N', NULL, NULL, NULL),
  ('role', 'role_id',         'ID',            'Role id',            'Y', 'N', NULL, NULL, '1'),
  ('role', 'role_code',       'CODE',          'Role code',          'N', 'N', NULL, 'Unique', 'SUPER_ADMIN'),
  ('role', 'role_name',       'NAME_TEXT',     'Role name',          'N', 'N', NULL, NULL, 'Super Administrator'),
  ('role', 'is_system',       'YN',            'System role',        'N', 'N', NULL, NULL, 'Y'),
  ('user_role', 'user_role_id', 'ID',          'User role id',       'Y', 'N', NULL, NULL, '1'),
  ('user_role', 'user_id',    'ID',            'User id',            'N', 'Y', 'users.user_id', 'Unique with role_id', '1'),
  ('user_role', 'role_id',    'ID',            'Role id',            'N', 'Y', 'role.role_id', 'Unique with user_id', '1'),
  ('menu', 'menu_id',         'ID',            'Menu id',            'Y', 'N', NULL, NULL, '1'),
  ('menu', 'parent_menu_id',  'ID',            'Parent menu id',     'N', 'Y', 'menu.menu_id', 'NULL for a top-level directory', NULL),
  ('menu', 'menu_code',       'CODE',          'Menu code',          'N', 'N', NULL, 'Unique; see docs/menus-and-routing.md', 'SETTLE_LIST'),
  ('menu', 'menu_type',       'CODE',          'Menu type',          'N', 'N', NULL, 'Common code MENU_TYPE', 'PAGE'),
  ('menu', 'menu_path',       'NAME_TEXT',     'Route',              'N', 'N', NULL, 'Web client route', 'settle'),
  ('menu_permission', 'menu_perm_id', 'ID',    'Menu permission id', 'Y', 'N', NULL, NULL, '1'),
  ('menu_permission', 'menu_id', 'ID',         'Menu id',            'N', 'Y', 'menu.menu_id', NULL, '1'),
  ('menu_permission', 'perm_code', 'CODE',     'Permission code',    'N', 'N', NULL, 'Common code PERM_CODE; unique with menu_id', 'READ'),
  ('role_menu_permission', 'rmp_id', 'ID',     'Grant id',           'Y', 'N', NULL, NULL, '1'),
  ('role_menu_permission', 'role_id', 'ID',    'Role id',            'N', 'Y', 'role.role_id', NULL, '1'),
  ('role_menu_permission', 'menu_id', 'ID',    'Menu id',            'N', 'Y', 'menu.menu_id', NULL, '1'),
  ('role_menu_permission', 'perm_code', 'CODE', 'Permission code',   'N', 'N', NULL, 'Unique with role_id and menu_id', 'READ'),
  ('role_menu_permission', 'is_granted', 'YN', 'Granted',            'N', 'N', NULL, NULL, 'Y'),
  ('common_code_group', 'group_code', 'CODE',  'Group code',         'Y', 'N', NULL, 'At most 20 characters', 'AGENT_STATUS'),
  ('common_code_group', 'group_name', 'NAME_TEXT', 'Group name',     'N', 'N', NULL, NULL, 'Agent status'),
  ('common_code_group', 'is_system', 'YN',     'System group',       'N', 'N', NULL, 'Y: update and delete rejected with B008', 'Y'),
  ('common_code', 'code_id',  'ID',            'Code id',            'Y', 'N', NULL, NULL, '1'),
  ('common_code', 'group_code', 'CODE',        'Group code',         'N', 'Y', 'common_code_group.group_code', NULL, 'AGENT_STATUS'),
  ('common_code', 'code',     'CODE',          'Code',               'N', 'N', NULL, 'Unique within the group', 'ACTIVE'),
  ('common_code', 'code_name', 'NAME_TEXT',    'Code name',          'N', 'N', NULL, NULL, 'Active'),
  ('login_log', 'log_id',     'ID',            'Log id',             'Y', 'N', NULL, NULL, '1'),
  ('login_log', 'login_id',   'LOGIN_ID',      'Login id',           'N', 'N', NULL, NULL, 'admin'),
  ('login_log', 'result',     'CODE',          'Result',             'N', 'N', NULL, 'SUCCESS or FAIL', 'SUCCESS'),
  ('login_log', 'ip_address', 'IP_ADDRESS',    'IP address',         'N', 'N', NULL, NULL, '127.0.0.1'),
  ('api_access_log', 'access_id', 'ID',        'Access id',          'Y', 'N', NULL, NULL, '1'),
  ('api_access_log', 'params', 'DESCRIPTION',  'Parameters',         'N', 'N', NULL, 'Sensitive parameters masked', NULL),
  ('data_change_log', 'change_id', 'ID',       'Change id',          'Y', 'N', NULL, NULL, '1'),
  ('data_change_log', 'before_data', 'JSON',   'Before',             'N', 'N', NULL, NULL, NULL),
  ('data_change_log', 'after_data', 'JSON',    'After',              'N', 'N', NULL, NULL, NULL),
  ('audit_log', 'audit_id',   'ID',            'Audit id',           'Y', 'N', NULL, NULL, '1'),
  ('file_storage', 'file_id', 'ID',            'File id',            'Y', 'N', NULL, NULL, '1'),
  ('file_storage', 'file_path', 'FILE_PATH',   'Stored path',        'N', 'N', NULL, NULL, NULL),
  ('file_storage', 'file_size', 'FILE_SIZE',   'Size',               'N', 'N', NULL, 'At most UPLOAD_MAX_SIZE_MB', '1024'),
  ('notification', 'noti_id', 'ID',            'Notification id',    'Y', 'N', NULL, NULL, '1'),
  ('notification', 'noti_type', 'CODE',        'Notification type',  'N', 'N', NULL, 'Common code NOTI_TYPE', 'APPROVAL'),
  ('notice', 'notice_id',     'ID',            'Notice id',          'Y', 'N', NULL, NULL, '1'),
  ('system_config', 'config_key', 'CODE',      'Key',                'Y', 'N', NULL, 'At most 50 characters', 'TAX_RATE'),
  ('system_config', 'config_value', 'DESCRIPTION', 'Value',          'N', 'N', NULL, 'Masked in responses when is_encrypted = Y', '3.3'),
  ('system_config', 'is_encrypted', 'YN',      'Encrypted',          'N', 'N', NULL, NULL, 'N'),
  ('data_domain', 'domain_code', 'CODE',       'Domain code',        'Y', 'N', NULL, 'Delete rejected while a dictionary row references it', 'AMOUNT'),
  ('data_domain', 'category', 'CODE',          'Category',           'N', 'N', NULL, 'Common code DOMAIN_CATEGORY', 'MONEY'),
  ('data_dictionary', 'dict_id', 'ID',         'Dictionary id',      'Y', 'N', NULL, NULL, '1'),
  ('data_dictionary', 'domain_code', 'CODE',   'Domain code',        'N', 'Y', 'data_domain.domain_code', NULL, 'AMOUNT'),
  ('external_call_log', 'call_id', 'ID',       'Call id',            'Y', 'N', NULL, NULL, '1'),
  ('external_call_log', 'call_type', 'CODE',   'Call type',          'N', 'N', NULL, 'Common code CALL_TYPE', 'BANK'),
  ('external_call_log', 'target_ref', 'NAME_TEXT', 'Target',         'N', 'N', NULL, NULL, 'WITHDRAW#1'),
  ('refresh_token', 'token_id', 'ID',          'Token id',           'Y', 'N', NULL, NULL, '1'),
  ('refresh_token', 'user_id', 'ID',           'User id',            'N', 'Y', 'users.user_id', NULL, '1'),
  ('refresh_token', 'token_hash', NULL,        'Token hash',         'N', 'N', NULL, 'SHA-256 of the token; single use', NULL)
ON CONFLICT (table_name, column_name) DO NOTHING;
