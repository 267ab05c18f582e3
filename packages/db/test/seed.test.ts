import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing.js';

/** The binding menu table of docs/menus-and-routing.md. */
async function documentedMenus() {
  const doc = await readFile(new URL('../../../docs/menus-and-routing.md', import.meta.url), 'utf8');
  const dirs = /Directories \(menu_type DIRECTORY, no path\): ([^.]+)\./.exec(doc.replace(/\n/g, ' '))![1]!;
  const pages = [...doc.matchAll(/^\| ([A-Z_]+) \| ([a-z/-]+) \| ([A-Z_]+) \| ([A-Z ]+) \|$/gm)].map((m) => ({
    code: m[1]!,
    path: m[2]!,
    parent: m[3]!,
    perms: m[4]!.trim().split(' ').sort(),
  }));
  return { directories: dirs.split(',').map((d) => d.trim()), pages };
}

const SPEC_ROUTES =
  `org/tree, org/agents, companies, products, contracts, rules/commission, rules/payout, rules/override,
rules/chargeback, rules/exceptions, rules/regulatory, rules/installment-ratios, rules/chargeback-grades, receive/data,
receive/mapping, ledger/recruit, ledger/maintain, ledger/exception, settle, settle/batch, settle/deductions,
settle/period-close, settle/corrections, settle/tax-invoices, settle/disputes, settle/incentives, payments,
payments/withdraw, report/performance, report/org, report/chargeback-risk, kpi/monthly, kpi/org, kpi/retention,
kpi/cumulative, commission/annual-income, commission/accounting-journal, commission/withholding-tax,
commission/vat-report, commission/type, commission/master, commission/collection, commission/renewal,
commission/reinstatement, commission/persistency, commission/override-ledger, agent/contracts, agent/licenses,
agent/trainings, contracts/endorsements, contracts/complaints, system/approvals, system/notices, system/users,
system/roles, system/menus, system/codes, system/config, system/logs, system/upload-templates, system/data-domains,
system/data-dictionary, system/external-call-log, contracts/successions`
    .split(',')
    .map((r) => r.trim());

/** Spec 5.5 (menu -> permissions); the external call log menu is SYSTEM_EXTERNAL_CALL_LOG. */
const SPEC_PAIRS: Array<[string[], string[]]> = [
  [['ACCOUNTING_JOURNAL'], ['CREATE', 'READ', 'UPDATE']],
  [
    ['AGENT_CONTRACT', 'AGENT_LICENSE', 'AGENT_TRAINING'],
    ['CREATE', 'READ', 'UPDATE', 'DELETE'],
  ],
  [
    ['ANNUAL_INCOME', 'VAT_REPORT', 'WITHHOLDING_TAX'],
    ['READ', 'EXECUTE'],
  ],
  [
    ['APPROVAL', 'SETTLE_CORRECTION', 'INCENTIVE_PAY', 'DISPUTE', 'TERM_SETTLE'],
    ['READ', 'CREATE', 'UPDATE', 'APPROVE'],
  ],
  [['ATTACHMENT'], ['READ', 'CREATE', 'DELETE']],
  [
    ['BATCH_RUN', 'SETTLE_LIST'],
    ['READ', 'APPROVE'],
  ],
  [
    [
      'CHARGEBACK_GRADE',
      'REGULATORY_LIMIT',
      'INSTALLMENT_PLAN',
      'COMPANY',
      'CONTRACT_LIST',
      'DEDUCTION',
      'INCENTIVE_PROG',
      'PERIOD_CLOSE',
      'RECON_OUT',
      'RULE_EXCEPTION',
      'STATEMENT',
      'TAX_INVOICE',
      'WITHDRAW',
    ],
    ['READ', 'CREATE', 'UPDATE'],
  ],
  [
    [
      'COLLECT_COMM',
      'COMPLAINT',
      'ENDORSE',
      'NOTICE',
      'PERSIST_BONUS',
      'PRODUCT',
      'REINSTATE_COMM',
      'RENEWAL_COMM',
      'RULE_CHARGEBACK',
      'RULE_COMMISSION',
      'RULE_OVERRIDE',
      'RULE_PAYOUT',
      'RECEIVE_MAPPING',
      'ORG_TREE',
      'SYSTEM_DATA_DICT',
      'SYSTEM_DATA_DOMAIN',
      'SYSTEM_ROLE',
      'SYSTEM_UPLOAD_TEMPLATE',
    ],
    ['READ', 'CREATE', 'UPDATE', 'DELETE'],
  ],
  [['COMM_MASTER'], ['READ', 'UPDATE', 'DELETE']],
  [['INSTALLMENT_RATIO'], ['READ', 'CREATE']],
  [['KPI_CUMULATIVE', 'KPI_MONTHLY', 'KPI_ORG', 'KPI_RETENTION', 'OVERRIDE_LEDGER'], ['READ']],
  [['LEDGER_EXCEPTION'], ['READ', 'CREATE', 'APPROVE']],
  [
    ['LEDGER_MAINTAIN', 'LEDGER_RECRUIT'],
    ['READ', 'EXPORT'],
  ],
  [['ORG_AGENT'], ['READ', 'CREATE', 'UPDATE', 'EXPORT']],
  [['PAYMENT'], ['READ', 'UPDATE', 'EXPORT']],
  [['RECEIVE_DATA'], ['READ', 'UPDATE']],
  [['SYSTEM_USER'], ['READ', 'CREATE', 'UPDATE']],
  [['SYSTEM_EXTERNAL_CALL_LOG'], ['READ']],
];

const SPEC_GROUPS =
  `AGENT_STATUS, CONTRACT_STATUS, SETTLE_STATUS, PAY_CYCLE, INSURANCE_TYPE, ORG_TYPE, GRADE_GROUP,
RECONCILE_STATUS, PARSE_STATUS, EXCEPTION_DIRECTION, APPROVE_STATUS, PAYMENT_STATUS, NOTI_TYPE, FILE_TYPE, DATA_FORMAT,
RECEIVE_METHOD, TRANSFORM_RULE, CHANGE_TYPE, TAX_TYPE, VAT_TYPE, DEDUCTION_TYPE, DEDUCTION_STATUS, STATEMENT_TYPE,
STATEMENT_STATUS, LIMIT_TYPE, LIMIT_UNIT, PRODUCT_CATEGORY, HOLD_REASON`
    .split(',')
    .map((g) => g.trim());

const ADMIN_SYSTEM_MENUS = [
  'APPROVAL',
  'NOTICE',
  'ATTACHMENT',
  'SYSTEM_UPLOAD_TEMPLATE',
  'SYSTEM_DATA_DOMAIN',
  'SYSTEM_DATA_DICT',
  'SYSTEM_EXTERNAL_CALL_LOG',
];

const PLATFORM_TABLES = [
  'users',
  'role',
  'user_role',
  'menu',
  'menu_permission',
  'role_menu_permission',
  'common_code_group',
  'common_code',
  'login_log',
  'api_access_log',
  'data_change_log',
  'audit_log',
  'file_storage',
  'notification',
  'notice',
  'system_config',
  'data_domain',
  'data_dictionary',
  'external_call_log',
  'refresh_token',
];

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

type Grant = { menu_code: string; perm_code: string; parent_code: string | null; is_granted: string };
async function grantsOf(roleCode: string): Promise<Grant[]> {
  const { rows } = await t.pool.query<Grant>(
    `SELECT m.menu_code, g.perm_code, p.menu_code AS parent_code, g.is_granted
       FROM role_menu_permission g
       JOIN role r ON r.role_id = g.role_id
       JOIN menu m ON m.menu_id = g.menu_id
       LEFT JOIN menu p ON p.menu_id = m.parent_menu_id
      WHERE r.role_code = $1
      ORDER BY 1, 2`,
    [roleCode],
  );
  return rows;
}

async function allPermissionRows(): Promise<
  Array<{ menu_code: string; perm_code: string; parent_code: string }>
> {
  const { rows } = await t.pool.query(
    `SELECT m.menu_code, mp.perm_code, p.menu_code AS parent_code
       FROM menu_permission mp JOIN menu m ON m.menu_id = mp.menu_id JOIN menu p ON p.menu_id = m.parent_menu_id
      ORDER BY 1, 2`,
  );
  return rows;
}

const key = (r: { menu_code: string; perm_code: string }) => `${r.menu_code}:${r.perm_code}`;

describe('platform seed: roles and menus', () => {
  it('seeds exactly the four system roles', async () => {
    const { rows } = await t.pool.query('SELECT role_code, is_system FROM role ORDER BY role_level DESC');
    expect(rows).toEqual([
      { role_code: 'SUPER_ADMIN', is_system: 'Y' },
      { role_code: 'ADMIN', is_system: 'Y' },
      { role_code: 'MANAGER', is_system: 'Y' },
      { role_code: 'AGENT', is_system: 'Y' },
    ]);
  });

  it('every route of spec 4.6 is the menu_path of exactly one PAGE menu', async () => {
    const { rows } = await t.pool.query<{ menu_path: string; n: number }>(
      `SELECT menu_path, count(*)::int AS n FROM menu WHERE menu_type = 'PAGE' AND menu_path = ANY($1) GROUP BY menu_path`,
      [SPEC_ROUTES],
    );
    expect(rows.map((r) => r.menu_path).sort()).toEqual([...SPEC_ROUTES].sort());
    expect(rows.every((r) => r.n === 1)).toBe(true);
  });

  it('the menu tree is exactly the documented directories and pages, with parents, paths and levels', async () => {
    const doc = await documentedMenus();
    const { rows } = await t.pool.query(
      `SELECT m.menu_code, m.menu_type, m.menu_path, m.menu_level, p.menu_code AS parent_code
         FROM menu m LEFT JOIN menu p ON p.menu_id = m.parent_menu_id ORDER BY m.menu_code`,
    );
    const expected = [
      ...doc.directories.map((code) => ({
        menu_code: code,
        menu_type: 'DIRECTORY',
        menu_path: null,
        menu_level: 1,
        parent_code: null,
      })),
      ...doc.pages.map((p) => ({
        menu_code: p.code,
        menu_type: 'PAGE',
        menu_path: p.path,
        menu_level: 2,
        parent_code: p.parent,
      })),
    ].sort((a, b) => (a.menu_code < b.menu_code ? -1 : 1));
    expect(doc.directories).toHaveLength(12);
    expect(doc.pages).toHaveLength(71);
    expect(rows).toEqual(expected);
  });

  it('menu_permission rows are exactly the documented permissions of each menu', async () => {
    const doc = await documentedMenus();
    const rows = await allPermissionRows();
    expect(rows.map(key).sort()).toEqual(
      doc.pages.flatMap((p) => p.perms.map((perm) => `${p.code}:${perm}`)).sort(),
    );
  });

  it('every (menu, permission) pair of spec 5.5 has a menu_permission row', async () => {
    const have = new Set((await allPermissionRows()).map(key));
    const missing = SPEC_PAIRS.flatMap(([menus, perms]) =>
      menus.flatMap((m) => perms.map((p) => `${m}:${p}`)),
    ).filter((pair) => !have.has(pair));
    expect(missing).toEqual([]);
  });
});

describe('platform seed: grants', () => {
  it('SUPER_ADMIN is granted every menu_permission row', async () => {
    const grants = await grantsOf('SUPER_ADMIN');
    expect(grants.map(key)).toEqual((await allPermissionRows()).map(key));
    expect(grants.every((g) => g.is_granted === 'Y')).toBe(true);
  });

  it('ADMIN has every row outside SYSTEM plus the 5.5 system menus, never SYSTEM_USER or SYSTEM_ROLE', async () => {
    const grants = await grantsOf('ADMIN');
    const expected = (await allPermissionRows()).filter(
      (r) => r.parent_code !== 'SYSTEM' || ADMIN_SYSTEM_MENUS.includes(r.menu_code),
    );
    expect(grants.map(key)).toEqual(expected.map(key));
    expect(grants.filter((g) => g.menu_code === 'SYSTEM_USER' || g.menu_code === 'SYSTEM_ROLE')).toEqual([]);
    expect(grants.map(key)).toContain('SYSTEM_DATA_DICT:READ');
    expect(grants.map(key)).toContain('SYSTEM_EXTERNAL_CALL_LOG:READ');
  });

  it('MANAGER has READ, CREATE, UPDATE and EXPORT outside SYSTEM and no DELETE or APPROVE anywhere', async () => {
    const grants = await grantsOf('MANAGER');
    const expected = (await allPermissionRows()).filter(
      (r) => r.parent_code !== 'SYSTEM' && ['READ', 'CREATE', 'UPDATE', 'EXPORT'].includes(r.perm_code),
    );
    expect(grants.map(key)).toEqual(expected.map(key));
    expect(grants.filter((g) => ['DELETE', 'APPROVE', 'EXECUTE'].includes(g.perm_code))).toEqual([]);
    expect(grants.filter((g) => g.parent_code === 'SYSTEM')).toEqual([]);
  });

  it('AGENT has exactly READ on its ledgers, settlement list, payments and statements, READ and CREATE on disputes and withdraw requests', async () => {
    // DECISIONS "Settlement lifecycle": disputes (V087) and the agent portal (V088), all row-scoped by the services
    expect((await grantsOf('AGENT')).map(key)).toEqual([
      'DISPUTE:CREATE',
      'DISPUTE:READ',
      'LEDGER_EXCEPTION:READ',
      'LEDGER_MAINTAIN:READ',
      'LEDGER_RECRUIT:READ',
      'PAYMENT:READ',
      'SETTLE_LIST:READ',
      'STATEMENT:READ',
      'WITHDRAW:CREATE',
      'WITHDRAW:READ',
    ]);
  });
});

describe('platform seed: codes, configuration, domains', () => {
  it('every common-code group named in spec 2.8 exists with at least one active code', async () => {
    const { rows } = await t.pool.query<{ group_code: string; n: number }>(
      `SELECT g.group_code, count(c.code_id) FILTER (WHERE c.is_active)::int AS n
         FROM common_code_group g LEFT JOIN common_code c ON c.group_code = g.group_code
        WHERE g.group_code = ANY($1) GROUP BY g.group_code`,
      [SPEC_GROUPS],
    );
    expect(rows.map((r) => r.group_code).sort()).toEqual([...SPEC_GROUPS].sort());
    expect(rows.filter((r) => r.n < 1)).toEqual([]);
  });

  it('value sets carry the spec values', async () => {
    const codes = async (group: string) =>
      (
        await t.pool.query<{ code: string }>(
          'SELECT code FROM common_code WHERE group_code = $1 ORDER BY sort_order',
          [group],
        )
      ).rows.map((r) => r.code);
    expect(await codes('AGENT_STATUS')).toEqual(['ACTIVE', 'LEAVE', 'SUSPEND']);
    expect(await codes('CONTRACT_STATUS')).toEqual(['ACTIVE', 'LAPSE', 'REVIVE', 'TERMINATE']);
    expect(await codes('SETTLE_STATUS')).toEqual(['CALCULATED', 'CONFIRMED', 'HOLD', 'PAID']);
    expect(await codes('PAY_CYCLE')).toEqual(['MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL', 'SINGLE']);
    expect(await codes('ORG_TYPE')).toEqual(['HQ', 'BR', 'TM']);
    expect(await codes('TAX_TYPE')).toEqual(['BUSINESS_INCOME', 'OTHER_INCOME']);
    expect(await codes('VAT_TYPE')).toEqual(['NONE', 'EXEMPT', 'TAXABLE']);
    expect(await codes('DEDUCTION_TYPE')).toEqual([
      'LOAN',
      'ADVANCE',
      'GUARANTEE',
      'DUES',
      'AD',
      'CHARGEBACK_PENDING',
      'OTHER',
    ]);
    expect(await codes('TRANSFORM_RULE')).toEqual([
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
    ]);
  });

  it('status value sets are system groups; HOLD_REASON and NOTI_TYPE are not', async () => {
    const { rows } = await t.pool.query<{ group_code: string; is_system: string }>(
      `SELECT group_code, is_system FROM common_code_group WHERE group_code = ANY($1) ORDER BY group_code`,
      [['AGENT_STATUS', 'SETTLE_STATUS', 'PAYMENT_STATUS', 'HOLD_REASON', 'NOTI_TYPE']],
    );
    expect(rows).toEqual([
      { group_code: 'AGENT_STATUS', is_system: 'Y' },
      { group_code: 'HOLD_REASON', is_system: 'N' },
      { group_code: 'NOTI_TYPE', is_system: 'N' },
      { group_code: 'PAYMENT_STATUS', is_system: 'Y' },
      { group_code: 'SETTLE_STATUS', is_system: 'Y' },
    ]);
  });

  it('seeds the system_config keys of spec 8 with their values', async () => {
    const { rows } = await t.pool.query<{ config_key: string; config_value: string; is_encrypted: string }>(
      'SELECT config_key, config_value, is_encrypted FROM system_config',
    );
    const config = Object.fromEntries(rows.map((r) => [r.config_key, r.config_value]));
    expect(config).toMatchObject({
      TAX_RATE_BUSINESS_INCOME: '3.3',
      TAX_RATE_OTHER_INCOME: '8.8',
      TAX_RATE_LOCAL_INCOME: '10.0',
      TAX_RATE_VAT: '10.0',
      TAX_RATE: '3.3',
      UPLOAD_MAX_SIZE_MB: '100',
      EXCEL_MAX_ROWS: '1000000',
      IMPORT_BATCH_SIZE: '1000',
      UPLOAD_PREVIEW_LIMIT: '100',
      ACCESS_TOKEN_MINUTES: '120',
      REFRESH_TOKEN_DAYS: '7',
      BANK_RETRY_LIMIT: '100',
      WITHDRAW_CUTOFF_DAY: '25',
      RECON_DIFF_THRESHOLD: '0',
      LOGIN_FAIL_LIMIT: '5',
    });
    expect(rows.filter((r) => r.is_encrypted === 'Y')).toEqual([
      { config_key: 'BANK_API_KEY', config_value: '', is_encrypted: 'Y' },
    ]);
  });

  it('every data-domain category has at least one domain and encrypted domains are the resident and account numbers', async () => {
    const { rows } = await t.pool.query<{ category: string }>(
      'SELECT DISTINCT category FROM data_domain ORDER BY 1',
    );
    expect(rows.map((r) => r.category)).toEqual([
      'AUDIT',
      'BANKING',
      'CODE',
      'DATE',
      'FILE',
      'IDENTIFIER',
      'JSON',
      'MONEY',
      'PII',
      'PROFILE',
      'RATE',
      'RESUME',
      'SETTLEMENT_BIZ',
      'TAX',
      'TEXT',
      'WORKFLOW',
    ]);
    const enc = await t.pool.query("SELECT domain_code FROM data_domain WHERE encrypted = 'Y' ORDER BY 1");
    expect(enc.rows).toEqual([{ domain_code: 'ACCOUNT_NO' }, { domain_code: 'RESIDENT_NO' }]);
  });

  it('dictionary rows of the platform tables name real columns', async () => {
    const { rows } = await t.pool.query(
      `SELECT d.table_name, d.column_name FROM data_dictionary d
        WHERE d.table_name = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM information_schema.columns c
                           WHERE c.table_schema = 'public' AND c.table_name = d.table_name AND c.column_name = d.column_name)`,
      [PLATFORM_TABLES],
    );
    expect(rows).toEqual([]);
  });
});
