/**
 * Every page path of the platform (menu_path of docs/menus-and-routing.md, spec 4.6). A path outside
 * the user's menu is "no access" when it is one of these, else "page not found".
 */
export const KNOWN_PATHS = [
  'org/tree', 'org/agents', 'companies', 'products', 'contracts', 'contracts/successions', 'contracts/endorsements',
  'contracts/complaints', 'rules/commission', 'rules/payout', 'rules/override', 'rules/chargeback', 'rules/exceptions',
  'rules/regulatory', 'rules/installment-ratios', 'rules/installment-plans', 'rules/chargeback-grades', 'receive/data',
  'receive/mapping', 'ledger/recruit', 'ledger/maintain', 'ledger/exception', 'settle', 'settle/batch', 'settle/deductions',
  'settle/period-close', 'settle/corrections', 'settle/tax-invoices', 'settle/disputes', 'settle/incentives', 'payments',
  'payments/withdraw', 'payments/statements', 'report/performance', 'report/org', 'report/chargeback-risk', 'kpi/monthly',
  'kpi/org', 'kpi/retention', 'kpi/cumulative', 'commission/annual-income', 'commission/accounting-journal',
  'commission/withholding-tax', 'commission/vat-report', 'commission/type', 'commission/master', 'commission/collection',
  'commission/renewal', 'commission/reinstatement', 'commission/persistency', 'commission/override-ledger',
  'agent/contracts', 'agent/licenses', 'agent/trainings', 'system/approvals', 'system/notices', 'system/users',
  'system/roles', 'system/menus', 'system/codes', 'system/config', 'system/logs', 'system/upload-templates',
  'system/data-domains', 'system/data-dictionary', 'system/external-call-log', 'rules/simulations',
] as const;

/** Whether a pathname is (under) a page of the platform. */
export function isKnownPath(pathname: string): boolean {
  const path = pathname.replace(/^\/+|\/+$/g, '');
  return KNOWN_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}
